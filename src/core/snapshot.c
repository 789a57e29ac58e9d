// SPDX-License-Identifier: GPL-2.0-or-later
#include "snapshot.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char header_word[] = "abiwatch-snapshot";

/* The array doubles when full (when n is a power of two), so that reading
 * a large snapshot stays linear where realloc() moves the block, as the
 * ASan build's always does. */
static void add(struct aw_snapshot *s, char *key, char *value)
{
	if ((s->n & (s->n - 1)) == 0) /* 0, 1, 2, 4, ...: full */
		s->kv = xrealloc(s->kv, (s->n ? 2 * s->n : 1) * sizeof(*s->kv));
	s->kv[s->n].key = key;
	s->kv[s->n].value = value;
	s->n++;
}

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct aw_kv *)a)->key, ((const struct aw_kv *)b)->key);
}

static void add_item(struct aw_snapshot *s, const struct aw_item_result *it)
{
	if (it->item->kind == AW_CHECK)
		add(s, xasprintf("check.%s", it->fullname), aw_status_value_format(it->status, it->text, AW_OF_CHECK));
	else if (it->status == AW_ST_PASS)
		add(s, xasprintf("obs.%s", it->fullname), xstrdup(it->text ? it->text : ""));
	else
		add(s, xasprintf("unobserved.%s", it->fullname),
		    aw_status_value_format(it->status, it->text ? it->text : "no reason given",
					   AW_OF_OBSERVATION));
}

void aw_snapshot_from_run(const struct aw_run *run, struct aw_snapshot *s)
{
	memset(s, 0, sizeof(*s));
	s->major = AW_SNAPSHOT_MAJOR;
	s->minor = AW_SNAPSHOT_MINOR;
	for (size_t i = 0; i < run->env.n; i++)
		add(s, xasprintf("env.%s", run->env.entries[i].key),
		    xstrdup(run->env.entries[i].value));
	for (size_t p = 0; p < run->nprobes; p++) {
		const struct aw_probe_result *r = &run->probes[p];
		add(s, xasprintf("probe.%s", r->fullname),
		    aw_status_value_format(r->status, r->reason, AW_OF_PROBE));
		for (size_t i = 0; i < r->nitems; i++)
			add_item(s, &r->items[i]);
	}
	qsort(s->kv, s->n, sizeof(*s->kv), by_key);
}

const char *aw_snapshot_get(const struct aw_snapshot *s, const char *key)
{
	struct aw_kv probe = { .key = (char *)key };
	struct aw_kv *hit = bsearch(&probe, s->kv, s->n, sizeof(*s->kv), by_key);
	return hit ? hit->value : NULL;
}

void aw_snapshot_free(struct aw_snapshot *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->kv[i].key);
		free(s->kv[i].value);
	}
	free(s->kv);
	memset(s, 0, sizeof(*s));
}

int aw_snapshot_write(const struct aw_snapshot *s, FILE *out)
{
	fprintf(out, "%s %u.%u\n", header_word, s->major, s->minor);
	for (size_t i = 0; i < s->n; i++) {
		char *v = aw_escape(s->kv[i].value);
		fprintf(out, "%s = %s\n", s->kv[i].key, v);
		free(v);
	}
	return ferror(out) ? -1 : 0;
}

/* Write the snapshot to a temporary file beside path and rename it into
 * place; 0, or -1 with *err set. */
static int write_and_rename(const struct aw_snapshot *s, const char *path, char **err)
{
	char *dir_copy = xstrdup(path);
	char *tmp = xasprintf("%s/.abiwatch-snapshot.XXXXXX", dirname(dir_copy));
	int fd = mkstemp(tmp);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	int rc = -1;

	free(dir_copy);
	if (!f) {
		*err = xasprintf("%s: cannot write the snapshot: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		free(tmp);
		return -1;
	}
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask); /* as if created by open(2) */
	bool ok = aw_snapshot_write(s, f) == 0;
	ok = fclose(f) == 0 && ok;
	if (ok && rename(tmp, path) == 0)
		rc = 0;
	else
		*err = xasprintf("%s: cannot write the snapshot: %s", path, strerror(errno));
	if (rc != 0)
		unlink(tmp);
	free(tmp);
	return rc;
}

/*
 * The temporary file must not outlive a kill of abiwatch, so the writing
 * is done by a child in a session of its own that ignores the signals
 * people send: killing abiwatch (or its process group) leaves the child to
 * finish the rename in a moment, and no half-written file or temporary
 * name remains.  Errors come back through a pipe.
 */
int aw_snapshot_save(const struct aw_snapshot *s, const char *path, char **err)
{
	int pipefd[2];
	if (pipe2(pipefd, O_CLOEXEC) != 0)
		return write_and_rename(s, path, err);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return write_and_rename(s, path, err);
	}
	if (pid == 0) {
		setsid();
		signal(SIGINT, SIG_IGN);
		signal(SIGTERM, SIG_IGN);
		signal(SIGHUP, SIG_IGN);
		close(pipefd[0]);
		char *why = NULL;
		int rc = write_and_rename(s, path, &why);
		if (why)
			(void)aw_write_all(pipefd[1], why, strlen(why));
		_exit(rc == 0 ? 0 : 1);
	}
	close(pipefd[1]);
	char buf[1024];
	ssize_t n = read(pipefd[0], buf, sizeof(buf) - 1);
	close(pipefd[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	buf[n > 0 ? n : 0] = '\0';
	*err = xstrdup(n > 0 ? buf : "cannot write the snapshot: the writer died");
	return -1;
}

/* ---- reading ---- */

static bool key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '-' || c == '+';
}

struct parser {
	const char *name;
	unsigned line;
	char **err;
};

static int __attribute__((format(printf, 2, 3)))
parse_error(struct parser *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *what = xvasprintf(fmt, ap);
	va_end(ap);
	*p->err = xasprintf("%s:%u: %s", p->name, p->line, what);
	free(what);
	return -1;
}

static int parse_header(struct parser *p, const char *line, struct aw_snapshot *s)
{
	char word[32], tail;
	unsigned major, minor;
	if (sscanf(line, "%31s %u.%u%c", word, &major, &minor, &tail) != 3 ||
	    strcmp(word, header_word) != 0)
		return parse_error(p, "expected the header 'abiwatch-snapshot MAJOR.MINOR', got '%.80s'",
				   line);
	char canonical[64];
	snprintf(canonical, sizeof(canonical), "%s %u.%u", header_word, major, minor);
	if (strcmp(canonical, line) != 0)
		return parse_error(p, "expected the header 'abiwatch-snapshot MAJOR.MINOR', got '%.80s'",
				   line);
	if (major != AW_SNAPSHOT_MAJOR) {
		char *v = xasprintf("%u.%u", major, minor);
		int rc = parse_error(p, "snapshot format %s is not readable by this abiwatch, "
				     "which reads format 1.x", v);
		free(v);
		return rc;
	}
	s->major = major;
	s->minor = minor;
	return 0;
}

static int parse_entry(struct parser *p, const char *line, struct aw_snapshot *s)
{
	const char *k = line;
	while (key_char(*k))
		k++;
	if (k == line || strncmp(k, " = ", 3) != 0)
		return parse_error(p, "expected 'key = value' with a key of letters, digits and "
				   "'_.-+', got '%.80s'", line);
	for (const unsigned char *c = (const unsigned char *)k + 3; *c; c++)
		if (*c < 0x20 || *c == 0x7f)
			return parse_error(p, "a raw control character 0x%02x in a value: "
					   "it must be written as \\x%02x", *c, *c);
	char *key = strndup(line, (size_t)(k - line));
	char *value = aw_unescape(k + 3);
	if (!value) {
		free(key);
		return parse_error(p, "bad escape in value '%.80s' (only \\\\, \\n and \\xHH)", k + 3);
	}
	if (s->n && strcmp(s->kv[s->n - 1].key, key) >= 0) {
		bool twice = strcmp(s->kv[s->n - 1].key, key) == 0;
		int rc = twice ? parse_error(p, "key '%s' appears twice", key)
			       : parse_error(p, "key '%s' is out of order: keys are sorted "
					     "(LC_ALL=C sort)", key);
		free(key);
		free(value);
		return rc;
	}
	enum aw_status st;
	const char *why;
	if (strncmp(key, "check.", 6) == 0 &&
	    aw_status_value_parse(value, AW_OF_CHECK, &st, &why) != 0) {
		free(key);
		free(value);
		return parse_error(p, "a check's value must be %s; got '%.80s'",
				   aw_status_value_rule(AW_OF_CHECK), k + 3);
	}
	add(s, key, value);
	return 0;
}

int aw_snapshot_parse(const char *text, size_t len, const char *name,
		      struct aw_snapshot *s, char **err)
{
	struct parser p = { .name = name, .line = 0, .err = err };
	const char *pos = text, *end = text + len;

	memset(s, 0, sizeof(*s));
	if (memchr(text, '\0', len)) {
		*err = xasprintf("%s: a NUL byte: not a text snapshot", name);
		return -1;
	}
	if (len == 0) {
		p.line = 1;
		return parse_error(&p, "expected the header 'abiwatch-snapshot MAJOR.MINOR', "
				   "got an empty file");
	}
	while (pos < end) {
		const char *nl = memchr(pos, '\n', (size_t)(end - pos));
		p.line++;
		if (!nl) {
			aw_snapshot_free(s);
			return parse_error(&p, "expected a newline at the end of the last line");
		}
		char *line = strndup(pos, (size_t)(nl - pos));
		int rc = p.line == 1 ? parse_header(&p, line, s) : parse_entry(&p, line, s);
		free(line);
		if (rc != 0) {
			aw_snapshot_free(s);
			return -1;
		}
		pos = nl + 1;
	}
	return 0;
}

int aw_snapshot_load(const char *path, struct aw_snapshot *s, char **err)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		*err = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	char *text = NULL;
	size_t len = 0, cap = 0, n;
	char buf[65536];
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		if (len + n > cap) {
			cap = (len + n) * 2;
			text = xrealloc(text, cap);
		}
		memcpy(text + len, buf, n);
		len += n;
	}
	bool bad = ferror(f);
	fclose(f);
	if (bad) {
		free(text);
		*err = xasprintf("%s: read error", path);
		return -1;
	}
	int rc = aw_snapshot_parse(text ? text : "", len, path, s, err);
	free(text);
	return rc;
}
