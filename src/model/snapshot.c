// SPDX-License-Identifier: GPL-2.0-or-later
#include "snapshot.h"
#include "lib/textfile.h"
#include "lib/outfile.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char header_word[] = "abiwatch-snapshot";

/* ---- records ---- */

static const struct {
	const char *prefix;
	enum aw_key_class cls;
} classes[] = {
	{ "env.", AW_KEY_ENV }, { "probe.", AW_KEY_PROBE }, { "check.", AW_KEY_CHECK },
	{ "obs.", AW_KEY_OBS }, { "unobserved.", AW_KEY_UNOBSERVED },
};

const char *aw_key_class_prefix(enum aw_key_class cls)
{
	for (size_t i = 0; i < AW_ARRAY_SIZE(classes); i++)
		if (classes[i].cls == cls)
			return classes[i].prefix;
	return "";
}

/* The status a record's value holds, by what it is the status of. */
static void parse_status(struct aw_record *r, enum aw_subject subject)
{
	if (aw_status_value_parse(r->value, subject, &r->status, &r->reason) != 0)
		r->status = AW_ST_NONE; /* refused by the reader's validation */
}

/* Class, name and status from the key and value.  A value that does not
 * hold the status its class needs leaves status NONE. */
static void classify(struct aw_record *r)
{
	r->cls = AW_KEY_OTHER;
	r->name = r->key;
	r->status = AW_ST_NONE;
	r->reason = NULL;
	for (size_t i = 0; i < AW_ARRAY_SIZE(classes); i++) {
		size_t n = strlen(classes[i].prefix);
		if (strncmp(r->key, classes[i].prefix, n) == 0) {
			r->cls = classes[i].cls;
			r->name = r->key + n;
			break;
		}
	}
	if (r->cls == AW_KEY_PROBE)
		parse_status(r, AW_OF_PROBE);
	else if (r->cls == AW_KEY_CHECK)
		parse_status(r, AW_OF_CHECK);
	else if (r->cls == AW_KEY_UNOBSERVED)
		parse_status(r, AW_OF_OBSERVATION);
	else if (r->cls == AW_KEY_OBS)
		r->status = AW_ST_PASS;
}

/* Append a record made of key and value (both taken over); xgrow() keeps
 * reading a large snapshot linear. */
static struct aw_record *add(struct aw_snapshot *s, char *key, char *value)
{
	s->records = xgrow(s->records, s->n, sizeof(*s->records));
	struct aw_record *r = &s->records[s->n++];
	r->key = key;
	r->value = value;
	classify(r);
	return r;
}

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct aw_record *)a)->key, ((const struct aw_record *)b)->key);
}

static void add_item(struct aw_snapshot *s, const struct aw_item_result *it)
{
	if (it->item->kind == AW_CHECK)
		add(s, xasprintf("check.%s", it->fullname),
		    aw_status_value_format(it->status, it->text, AW_OF_CHECK));
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
	if (s->n) /* qsort's base must not be NULL, even for nothing */
		qsort(s->records, s->n, sizeof(*s->records), by_key);
}

/* The record of a whole key.  A snapshot without records is not
 * searched: bsearch() on its NULL array is undefined behaviour. */
static struct aw_record *find_key(const struct aw_snapshot *s, const char *key)
{
	struct aw_record want = { .key = (char *)key };
	return s->n ? bsearch(&want, s->records, s->n, sizeof(*s->records), by_key) : NULL;
}

const char *aw_snapshot_get(const struct aw_snapshot *s, const char *key)
{
	const struct aw_record *r = find_key(s, key);
	return r ? r->value : NULL;
}

const struct aw_record *aw_snapshot_record(const struct aw_snapshot *s, const char *key)
{
	return find_key(s, key);
}

const struct aw_record *aw_snapshot_find(const struct aw_snapshot *s, enum aw_key_class cls,
					 const char *name)
{
	char *key = xasprintf("%s%s", aw_key_class_prefix(cls), name);
	const struct aw_record *r = find_key(s, key);
	free(key);
	return r && r->cls == cls ? r : NULL;
}

const struct aw_record *aw_snapshot_observation(const struct aw_snapshot *s, const char *name)
{
	const struct aw_record *made = aw_snapshot_find(s, AW_KEY_OBS, name);
	return made ? made : aw_snapshot_find(s, AW_KEY_UNOBSERVED, name);
}

/* Where key belongs among the sorted records: the first not below it. */
static size_t position_of(const struct aw_snapshot *s, const char *key)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(s->records[mid].key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void aw_snapshot_set_env(struct aw_snapshot *s, const char *name, const char *value)
{
	char *key = xasprintf("env.%s", name);
	struct aw_record *same = find_key(s, key);
	if (same) {
		free(key);
		free(same->value);
		same->value = xstrdup(value);
		return;
	}
	size_t at = position_of(s, key);
	struct aw_record made = *add(s, key, xstrdup(value));
	memmove(&s->records[at + 1], &s->records[at], (s->n - 1 - at) * sizeof(*s->records));
	s->records[at] = made;
}

void aw_snapshot_free(struct aw_snapshot *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->records[i].key);
		free(s->records[i].value);
	}
	free(s->records);
	memset(s, 0, sizeof(*s));
}

int aw_snapshot_write(const struct aw_snapshot *s, FILE *out)
{
	fprintf(out, "%s %u.%u\n", header_word, s->major, s->minor);
	for (size_t i = 0; i < s->n; i++) {
		char *v = aw_escape(s->records[i].value);
		fprintf(out, "%s = %s\n", s->records[i].key, v);
		free(v);
	}
	return ferror(out) ? -1 : 0;
}

/* Write the snapshot to a temporary file beside path and rename it into
 * place (lib/outfile.h: a device such as /dev/null is written in place);
 * 0, or -1 with *err set. */
static int write_and_rename(const struct aw_snapshot *s, const char *path, char **err)
{
	struct aw_outfile o;
	if (aw_outfile_open(&o, path) != 0) {
		*err = xasprintf("%s: cannot write the snapshot: %s", path, strerror(errno));
		return -1;
	}
	if (aw_snapshot_write(s, o.f) != 0) {
		int e = errno;
		aw_outfile_abort(&o);
		*err = xasprintf("%s: cannot write the snapshot: %s", path, strerror(e));
		return -1;
	}
	if (aw_outfile_commit(&o) != 0) {
		*err = xasprintf("%s: cannot write the snapshot: %s", path, strerror(errno));
		return -1;
	}
	return 0;
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

/* "key = value": the key's length, or -1 after the error. */
static int split_entry(struct parser *p, const char *line, size_t *key_len)
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
	*key_len = (size_t)(k - line);
	return 0;
}

/* Keys come sorted and once each: key goes after the last record. */
static int check_order(struct parser *p, const struct aw_snapshot *s, const char *key)
{
	int cmp = s->n ? strcmp(s->records[s->n - 1].key, key) : -1;
	if (cmp == 0)
		return parse_error(p, "key '%s' appears twice", key);
	if (cmp > 0)
		return parse_error(p, "key '%s' is out of order: keys are sorted "
				   "(LC_ALL=C sort)", key);
	return 0;
}

static int parse_entry(struct parser *p, const char *line, struct aw_snapshot *s)
{
	size_t key_len = 0;
	if (split_entry(p, line, &key_len) != 0)
		return -1;
	const char *raw = line + key_len + 3;
	char *key = strndup(line, key_len);
	char *value = aw_unescape(raw);
	int rc = value ? check_order(p, s, key)
		       : parse_error(p, "bad escape in value '%.80s' (only \\\\, \\n and \\xHH)", raw);
	if (rc != 0) {
		free(key);
		free(value);
		return rc;
	}
	const struct aw_record *r = add(s, key, value);
	if (r->cls == AW_KEY_CHECK && r->status == AW_ST_NONE)
		return parse_error(p, "a check's value must be %s; got '%.80s'",
				   aw_status_value_rule(AW_OF_CHECK), raw);
	return 0;
}

/* What the commands rely on beyond the syntax, once every line is read:
 * a status in every probe.* and unobserved.* value, and never both obs.X
 * and unobserved.X.  Record i is on line i + 2, after the header. */
static int validate(struct parser *p, const struct aw_snapshot *s)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct aw_record *r = &s->records[i];
		bool probe = r->cls == AW_KEY_PROBE, unobserved = r->cls == AW_KEY_UNOBSERVED;
		p->line = (unsigned)i + 2;
		if ((probe || unobserved) && r->status == AW_ST_NONE) {
			char *v = aw_escape(r->value);
			parse_error(p, "the value of %s must be %s; got '%.80s'", r->key,
				    aw_status_value_rule(probe ? AW_OF_PROBE : AW_OF_OBSERVATION), v);
			free(v);
			return -1;
		}
		if (unobserved && aw_snapshot_find(s, AW_KEY_OBS, r->name))
			return parse_error(p, "%s, but the observation was also made (obs.%s): "
					   "a snapshot records one or the other", r->key, r->name);
	}
	return 0;
}

/* Every line, the header first. */
static int parse_lines(struct parser *p, const char *text, size_t len, struct aw_snapshot *s)
{
	const char *pos = text, *end = text + len;
	if (len == 0) {
		p->line = 1;
		return parse_error(p, "expected the header 'abiwatch-snapshot MAJOR.MINOR', "
				   "got an empty file");
	}
	while (pos < end) {
		const char *nl = memchr(pos, '\n', (size_t)(end - pos));
		p->line++;
		if (!nl)
			return parse_error(p, "expected a newline at the end of the last line");
		char *line = strndup(pos, (size_t)(nl - pos));
		int rc = p->line == 1 ? parse_header(p, line, s) : parse_entry(p, line, s);
		free(line);
		if (rc != 0)
			return -1;
		pos = nl + 1;
	}
	return 0;
}

int aw_snapshot_parse(const char *text, size_t len, const char *name,
		      struct aw_snapshot *s, char **err)
{
	struct parser p = { .name = name, .line = 0, .err = err };

	memset(s, 0, sizeof(*s));
	if (memchr(text, '\0', len)) {
		*err = xasprintf("%s: a NUL byte: not a text snapshot", name);
		return -1;
	}
	if (parse_lines(&p, text, len, s) != 0 || validate(&p, s) != 0) {
		aw_snapshot_free(s);
		return -1;
	}
	return 0;
}

int aw_snapshot_load(const char *path, struct aw_snapshot *s, char **err)
{
	char *text;
	size_t len;

	memset(s, 0, sizeof(*s));
	if (aw_textfile_read(path, "snapshot", AW_TEXTFILE_MAX, &text, &len, err) != 0)
		return -1;
	int rc = aw_snapshot_parse(text, len, path, s, err);
	free(text);
	return rc;
}
