// SPDX-License-Identifier: GPL-2.0-or-later
/* A family's 32-bit helper run and read (helper.h); found with helper_path.c. */
#include "helper.h"
#include "lib/errname.h"
#include "lib/steady.h"
#include "lib/proc.h"
#include "context.h"
#include "i386.h"
#include "status.h"
#include "lib/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- the reader ---- */

static bool listed(const char *const *list, const char *name)
{
	for (; list && *list; list++)
		if (strcmp(*list, name) == 0)
			return true;
	return false;
}

/* The probe's item PREFIX NAME, or NULL. */
static const struct aw_item *find_item(const struct aw_probe *probe, const char *prefix,
				       const char *name)
{
	size_t len = strlen(prefix);
	for (const struct aw_item *it = probe->items; it->name; it++)
		if (strncmp(it->name, prefix, len) == 0 && strcmp(it->name + len, name) == 0)
			return it;
	return NULL;
}

/* Whether the helper of h reports it. */
static bool helpers_item(const struct aw_item *it, const struct aw_helper *h)
{
	return strncmp(it->name, h->prefix, strlen(h->prefix)) == 0 && !listed(h->own, it->name);
}

/* Why line w may not come after the lines of o, or NULL. */
static const char *refuse_item(const struct aw_wire *w, const struct aw_probe *probe,
			       const struct aw_helper *h, const struct aw_helper_output *o)
{
	if (w->kind == 'N')
		return NULL;
	const struct aw_item *it = find_item(probe, h->prefix, w->name);
	if (!it)
		return "an item this probe does not declare";
	if (listed(h->own, it->name))
		return "an item the probe reports itself";
	if ((it->kind == AW_CHECK) != (w->kind == 'C'))
		return "an item reported as the wrong kind";
	for (size_t i = 0; i < o->n; i++)
		if (o->lines[i].name && strcmp(o->lines[i].name, w->name) == 0)
			return "an item reported twice";
	return NULL;
}

int aw_helper_read(const char *out, size_t len, const struct aw_probe *probe,
		   const struct aw_helper *h, struct aw_helper_output *o,
		   struct aw_helper_refusal *r)
{
	const char *p = out, *end = out + len;

	memset(o, 0, sizeof(*o));
	for (size_t lineno = 1; p < end; lineno++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *why = NULL;
		struct aw_wire w;
		if (!nl)
			why = "a line without its newline";
		else if (aw_wire_parse(p, (size_t)(nl - p), &w, &why) == 0 &&
			 (why = refuse_item(&w, probe, h, o)))
			aw_wire_free(&w);
		if (why) {
			aw_helper_output_free(o);
			r->line = lineno;
			r->why = why;
			return -1;
		}
		o->lines = xgrow(o->lines, o->n, sizeof(*o->lines));
		o->lines[o->n++] = w;
		p = nl + 1;
	}
	return 0;
}

void aw_helper_output_free(struct aw_helper_output *o)
{
	for (size_t i = 0; i < o->n; i++)
		aw_wire_free(&o->lines[i]);
	free(o->lines);
	memset(o, 0, sizeof(*o));
}

/* ---- running it and reporting ---- */

/* Report status why for each of the helper's items: with own, the
 * probe's own too (they need the helper); with only_missing, those not
 * reported yet.  How many there were. */
static size_t report_items(struct aw_ctx *ctx, const struct aw_helper *h, const char *status,
			   bool own, bool only_missing, const char *why)
{
	size_t n = 0;
	for (const struct aw_item *it = ctx->probe->items; it->name; it++) {
		if ((own ? strncmp(it->name, h->prefix, strlen(h->prefix)) == 0 : helpers_item(it, h)) &&
		    !(only_missing && aw_reported(ctx, it->name))) {
			aw_report_line(ctx, it->kind == AW_CHECK ? 'C' : 'O', it->name, status, why);
			n++;
		}
	}
	return n;
}

static void report_line(struct aw_ctx *ctx, const struct aw_helper *h, const struct aw_wire *w)
{
	char *item = w->name ? xasprintf("%s%s", h->prefix, w->name) : NULL;
	aw_report_line(ctx, w->kind, item, w->status, w->text);
	free(item);
}

/* How the helper ended, for messages. */
static char *ending(const struct aw_helper *h, const struct aw_capture *cap)
{
	if (cap->timed_out)
		return xasprintf("killed at its %g s deadline",
				 h->timeout_ms / 1000.0 * aw_deadline_stretch());
	if (cap->overflowed)
		return xasprintf("stopped after %u bytes of output", AW_HELPER_OUTPUT_MAX);
	if (WIFSIGNALED(cap->status))
		return xasprintf("killed by signal %d (%s)", WTERMSIG(cap->status),
				 strsignal(WTERMSIG(cap->status)));
	return xasprintf("exit status %d", WEXITSTATUS(cap->status));
}

/* Report what the helper wrote: true when it finished its work. */
static bool report_output(struct aw_ctx *ctx, const struct aw_helper *h, struct aw_capture *cap)
{
	struct aw_helper_output o;
	struct aw_helper_refusal r;
	char *how = ending(h, cap), *why;
	bool complete = false;

	/* A helper killed at its deadline may have been cut mid-line: what
	 * it wrote whole still counts. */
	while (cap->timed_out && cap->len && cap->text[cap->len - 1] != '\n')
		cap->len--;
	if (aw_helper_read(cap->text, cap->len, ctx->probe, h, &o, &r) != 0) {
		why = xasprintf("the 32-bit helper's output (%s), line %zu: %s", how, r.line, r.why);
		report_items(ctx, h, "error", false, false, why);
	} else {
		for (size_t i = 0; i < o.n; i++)
			report_line(ctx, h, &o.lines[i]);
		aw_helper_output_free(&o);
		why = xasprintf("the 32-bit helper did not report this (%s)", how);
		complete = report_items(ctx, h, "error", false, true, why) == 0 && !cap->timed_out &&
			   !cap->overflowed && WIFEXITED(cap->status) && WEXITSTATUS(cap->status) == 0;
	}
	free(why);
	free(how);
	return complete;
}

/* Run the helper at path to its end or its deadline.  0, or -1 with
 * exec's errno. */
static int run(const char *path, const struct aw_helper *h, struct aw_capture *cap)
{
	size_t n = 0;
	while (h->args && h->args[n])
		n++;
	const char **argv = xcalloc(n + 2, sizeof(*argv));
	argv[0] = path;
	for (size_t i = 0; i < n; i++)
		argv[i + 1] = h->args[i];
	/* What it says on stderr reaches abiwatch's, as the probe's would. */
	struct aw_spawn how = { .in = -1, .out = -1, .err = STDERR_FILENO, .keep = h->keep,
				.own_pgrp = true, .before_exec = h->before_exec,
				.before_exec_arg = h->before_exec_arg };
	*cap = (struct aw_capture){ .out = true, .timeout_s = h->timeout_ms / 1000.0,
				    .max = AW_HELPER_OUTPUT_MAX };
	int rc = aw_capture(argv, &how, cap);
	int e = errno;
	free(argv);
	errno = e;
	return rc;
}

bool aw_helper_report(struct aw_ctx *ctx, const struct aw_helper *h)
{
	char *path = aw_helper_path(h->name);
	const char *refused = path ? aw_i386_refused() : NULL;
	char *why = !path ? aw_helper_missing(h->name) : refused ? xstrdup(refused) : NULL;
	struct aw_capture cap;
	bool complete = false;

	bool no_i386 = why != NULL;
	if (!why && run(path, h, &cap) != 0) {
		no_i386 = errno == ENOEXEC;
		why = aw_helper_exec_failed(path, errno);
	}
	if (why) {
		/* Without a helper, or a kernel that runs it, the machine
		 * lacks 32-bit programs: the kernel under test did not change. */
		char *caused = no_i386 ? aw_cause_reason("i386", why) : xstrdup(why);
		report_items(ctx, h, "skip", true, false, caused);
		free(caused);
	} else {
		complete = report_output(ctx, h, &cap);
		free(cap.text);
	}
	free(why);
	free(path);
	return complete;
}
