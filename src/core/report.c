// SPDX-License-Identifier: GPL-2.0-or-later
/* The probe side of the protocol: what aw_pass() and friends write. */
#include "context.h"
#include "probe.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void send_line(struct aw_ctx *ctx, char type, const char *name,
		      const char *status, const char *text)
{
	char *esc = text ? aw_escape(text) : NULL;
	char *line;

	if (name)
		line = xasprintf("%c %s %s%s%s\n", type, name, status,
				 esc ? " " : "", esc ? esc : "");
	else
		line = xasprintf("%c %s\n", type, esc ? esc : "");
	/* A lost report shows up as an unreported item, so there is nothing
	 * better to do with a write error here. */
	(void)aw_write_all(ctx->fd, line, strlen(line));
	free(line);
	free(esc);
}

static void send_vf(struct aw_ctx *ctx, char type, const char *name,
		    const char *status, const char *fmt, va_list ap)
{
	char *text = xvasprintf(fmt, ap);
	send_line(ctx, type, name, status, text);
	free(text);
}

void aw_pass(struct aw_ctx *ctx, const char *check)
{
	send_line(ctx, 'C', check, "pass", NULL);
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

const char *aw_tmpdir(const struct aw_ctx *ctx)
{
	return ctx->tmpdir;
}

bool aw_private_ipc(const struct aw_ctx *ctx)
{
	struct stat st;
	return ctx->host_ipc_ino != 0 && stat("/proc/self/ns/ipc", &st) == 0 &&
	       st.st_ino != ctx->host_ipc_ino;
}
