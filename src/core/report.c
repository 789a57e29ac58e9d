// SPDX-License-Identifier: GPL-2.0-or-later
/* The probe side of the protocol: what aw_pass() and friends write. */
#include "context.h"
#include "probe.h"
#include "registry.h"
#include "status.h"
#include "lib/util.h"
#include "lib/wire.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* What every process of a probe shares: which declared items were
 * reported (by the probe or any child of it), and a lock that keeps the
 * line each one writes whole on the result pipe, whatever its length. */
struct aw_record {
	pthread_mutex_t lock;
	bool reported[];
};

struct aw_record *aw_record_new(const struct aw_probe *probe)
{
	size_t n = 0;
	while (probe->items[n].name)
		n++;
	struct aw_record *r = mmap(NULL, sizeof(*r) + n, PROT_READ | PROT_WRITE,
				   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED) {
		fputs("abiwatch: out of memory\n", stderr);
		abort();
	}
	pthread_mutexattr_t attr;
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
	/* A child killed while it wrote must not keep the others waiting. */
	pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST);
	pthread_mutex_init(&r->lock, &attr);
	pthread_mutexattr_destroy(&attr);
	return r;
}

static void record_lock(struct aw_record *r)
{
	/* Its owner died mid-line: what it cut short, the runner sees. */
	if (pthread_mutex_lock(&r->lock) == EOWNERDEAD)
		pthread_mutex_consistent(&r->lock);
}

/* Index of the declared item that reports name (a pattern item for the
 * names it covers), or -1: a name the runner will reject. */
static int item_index(const struct aw_ctx *ctx, const char *name)
{
	const struct aw_item *it = aw_probe_item(ctx->probe, name);
	return it ? (int)(it - ctx->probe->items) : -1;
}

void aw_report_line(struct aw_ctx *ctx, char type, const char *name, const char *status,
		    const char *text)
{
	record_lock(ctx->record);
	if (name) {
		int i = item_index(ctx, name);
		if (i >= 0) {
			ctx->record->reported[i] = true;
			/* skip and error apply to either kind of item */
			if (ctx->probe->items[i].kind == AW_OBSERVATION && type == 'C' &&
			    strcmp(status, "fail") != 0 && strcmp(status, "pass") != 0)
				type = 'O';
		}
	}
	char *line = aw_wire_line(type, name, status, text);
	/* A lost report shows up as an unreported item, so there is nothing
	 * better to do with a write error here. */
	(void)aw_write_all(ctx->fd, line, strlen(line));
	pthread_mutex_unlock(&ctx->record->lock);
	free(line);
}

static void send_vf(struct aw_ctx *ctx, char type, const char *name,
		    const char *status, const char *fmt, va_list ap)
{
	char *text = xvasprintf(fmt, ap);
	aw_report_line(ctx, type, name, status, text);
	free(text);
}

void aw_pass(struct aw_ctx *ctx, const char *check)
{
	aw_report_line(ctx, 'C', check, "pass", NULL);
}

#define AW_REPORT_FN(fn, type, status)                                        \
	void fn(struct aw_ctx *ctx, const char *name, const char *fmt, ...)   \
	{                                                                     \
		va_list ap;                                                   \
		va_start(ap, fmt);                                            \
		send_vf(ctx, type, name, status, fmt, ap);                    \
		va_end(ap);                                                   \
	}

AW_REPORT_FN(aw_fail, 'C', "fail")
AW_REPORT_FN(aw_skip, 'C', "skip")
AW_REPORT_FN(aw_error, 'C', "error")
AW_REPORT_FN(aw_observe, 'O', "pass")
AW_REPORT_FN(aw_unobserved, 'O', "skip")

static void report_rest(struct aw_ctx *ctx, const char *status, const char *fmt, va_list ap)
{
	char *text = xvasprintf(fmt, ap);
	for (int i = 0; ctx->probe->items[i].name; i++) {
		const struct aw_item *it = &ctx->probe->items[i];
		/* a pattern has no name of its own to report */
		if (!ctx->record->reported[i] && !aw_item_is_pattern(it))
			aw_report_line(ctx, it->kind == AW_CHECK ? 'C' : 'O', it->name, status, text);
	}
	free(text);
}

void aw_skip_rest(struct aw_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report_rest(ctx, "skip", fmt, ap);
	va_end(ap);
}

/* "needs CAUSE: " and the formatted reason; a cause outside the list of
 * core/status.h is a bug of the caller's, caught by the tests. */
static char *caused_text(const char *cause, const char *fmt, va_list ap)
{
	char *why = xvasprintf(fmt, ap);
	if (!aw_cause_valid(cause, strlen(cause))) {
		fprintf(stderr, "abiwatch: bug: '%s' is not a cause (core/status.h)\n", cause);
		abort();
	}
	char *text = aw_cause_reason(cause, why);
	free(why);
	return text;
}

void aw_skip_cause(struct aw_ctx *ctx, const char *item, const char *cause, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *text = caused_text(cause, fmt, ap);
	va_end(ap);
	/* an observation's skip is its 'O' line, as aw_skip_rest() writes it */
	const struct aw_item *it = aw_probe_item(ctx->probe, item);
	aw_report_line(ctx, it && it->kind == AW_OBSERVATION ? 'O' : 'C', item, "skip", text);
	free(text);
}

void aw_skip_rest_cause(struct aw_ctx *ctx, const char *cause, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *text = caused_text(cause, fmt, ap);
	va_end(ap);
	aw_skip_rest(ctx, "%s", text);
	free(text);
}

void aw_error_rest(struct aw_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report_rest(ctx, "error", fmt, ap);
	va_end(ap);
}

bool aw_expect(struct aw_ctx *ctx, const char *check, bool cond, const char *fmt, ...)
{
	if (cond) {
		aw_pass(ctx, check);
		return true;
	}
	va_list ap;
	va_start(ap, fmt);
	send_vf(ctx, 'C', check, "fail", fmt, ap);
	va_end(ap);
	return false;
}

bool aw_reported(const struct aw_ctx *ctx, const char *item)
{
	int i = item_index(ctx, item);
	return i >= 0 && ctx->record->reported[i];
}

void aw_observe_long(struct aw_ctx *ctx, const char *obs, long long value)
{
	aw_observe(ctx, obs, "%lld", value);
}

void aw_note(struct aw_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	send_vf(ctx, 'N', NULL, NULL, fmt, ap);
	va_end(ap);
}

const void *aw_probe_data(const struct aw_ctx *ctx)
{
	return ctx->data;
}

int aw_host_dirfd(const struct aw_ctx *ctx)
{
	return ctx->host_dirfd;
}

int aw_run_dirfd(const struct aw_ctx *ctx)
{
	return ctx->run_dirfd;
}

const char *aw_host_dirname(const struct aw_ctx *ctx)
{
	return ctx->host_dirname;
}

const char *aw_tmpdir(const struct aw_ctx *ctx)
{
	return ctx->tmpdir;
}

bool aw_private_ipc(const struct aw_ctx *ctx)
{
	return aw_private_ns(ctx, AW_SCOPE_IPC);
}

bool aw_vm_guest(const struct aw_ctx *ctx)
{
	return ctx->vm_guest;
}

/* Whether what it declares it needs is here. */
static bool needs_met(const struct aw_ctx *ctx, const struct aw_item *it)
{
	return !it->vm_guest || ctx->vm_guest;
}

bool aw_item_needs_met(const struct aw_ctx *ctx, const char *item)
{
	const struct aw_item *it = aw_probe_item(ctx->probe, item);
	return !it || needs_met(ctx, it);
}

void aw_report_unmet_items(struct aw_ctx *ctx)
{
	for (const struct aw_item *it = ctx->probe->items; it->name; it++) {
		if (needs_met(ctx, it) || aw_item_is_pattern(it))
			continue;
		char *why = aw_cause_reason("vm", it->vm_guest);
		aw_report_line(ctx, it->kind == AW_CHECK ? 'C' : 'O', it->name, "skip", why);
		free(why);
	}
}
