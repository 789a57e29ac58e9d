// SPDX-License-Identifier: GPL-2.0-or-later
/* Snapshots as KCIDB I/O data (kcidb-io schema v5.3), written with json-c.
 * The schema the tests validate against is tests/data/kcidb/. */
#include "kcidb.h"
#include "core/registry.h"
#include "lib/util.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* KCIDB's statuses, lowest priority first: the status of a node of the
 * test tree is the highest of its children's (the schema's own rule for
 * summaries). */
enum kst { K_SKIP, K_DONE, K_PASS, K_MISS, K_ERROR, K_FAIL };
static const char *const kst_name[] = { "SKIP", "DONE", "PASS", "MISS", "ERROR", "FAIL" };

/* The schema's limit for log_excerpt is 16384 characters. */
#define EXCERPT_MAX 16000

/* A probe (family.probe): its own outcome and what its items add up to. */
struct node {
	char *name;
	const struct aw_record *probe; /* its probe.NAME, or NULL */
	bool has_status;
	enum kst status;        /* of its checks so far */
	json_object *observations, *unobserved;
};

struct doc {
	const struct aw_kcidb_opts *o;
	const char *origin;
	json_object *checkouts, *builds, *tests, *made; /* made: ids already added */
};

struct snap_ctx {
	struct doc *doc;
	const struct aw_snapshot *snap;
	const char *build_id;
	char *digest;           /* names this run in test ids */
	json_object *environment;
	struct node *nodes;
	size_t nnodes;
};

bool aw_kcidb_origin_ok(const char *origin)
{
	if (!origin || !*origin)
		return false;
	for (const char *p = origin; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
			return false;
	return true;
}

bool aw_kcidb_id_ok(const char *id)
{
	const char *colon = id ? strchr(id, ':') : NULL;
	if (!colon)
		return false;
	char *origin = strndup(id, (size_t)(colon - id));
	bool ok = origin && aw_kcidb_origin_ok(origin);
	free(origin);
	return ok;
}

static uint64_t fnv1a(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return (h ^ 0xff) * 0x100000001b3ULL; /* a separator, so "ab","c" != "a","bc" */
}

/* The same snapshot gives the same ids: submitting it twice updates the
 * objects instead of doubling them. */
static char *snapshot_digest(const struct aw_snapshot *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < s->n; i++)
		h = fnv1a(fnv1a(h, s->records[i].key), s->records[i].value);
	return xasprintf("%016llx", (unsigned long long)h);
}

/* Valid UTF-8 with invalid bytes as '?': a snapshot value may hold any byte. */
static char *utf8_clean(const char *s, size_t max)
{
	size_t len = strlen(s) < max ? strlen(s) : max;
	char *out = xmalloc(len + 1);
	size_t o = 0;
	for (size_t i = 0; i < len;) {
		unsigned char c = (unsigned char)s[i];
		size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
		bool ok = n > 0 && i + n <= len && !(n == 2 && c < 0xc2);
		for (size_t k = 1; ok && k < n; k++)
			ok = ((unsigned char)s[i + k] >> 6) == 2;
		if (!ok) {
			out[o++] = '?';
			i++;
			continue;
		}
		memcpy(out + o, s + i, n);
		o += n;
		i += n;
	}
	out[o] = '\0';
	return out;
}

static void add_str(json_object *o, const char *key, const char *value)
{
	char *clean = utf8_clean(value, SIZE_MAX);
	json_object_object_add(o, key, json_object_new_string(clean));
	free(clean);
}

/* "abiwatch.NAME" with anything the schema's path pattern refuses as '_'. */
static char *test_path(const char *name)
{
	char *p = *name ? xasprintf("abiwatch.%s", name) : xstrdup("abiwatch");
	for (char *c = p; *c; c++) {
		bool ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			  (*c >= '0' && *c <= '9') || *c == '_' || *c == '-' ||
			  (*c == '.' && c[1] && c[1] != '.');
		if (!ok)
			*c = '_';
	}
	return p;
}

/* KCIDB's status of one of ours: a timeout is an ERROR (the test did not
 * complete). */
static enum kst kcidb_status(enum aw_status st)
{
	switch (st) {
	case AW_ST_PASS: return K_PASS;
	case AW_ST_FAIL: return K_FAIL;
	case AW_ST_SKIP: return K_SKIP;
	case AW_ST_NONE:
	case AW_ST_ERROR:
	case AW_ST_TIMEOUT: break;
	}
	return K_ERROR;
}

/* A decimal integer a double holds exactly. */
static bool decimal_value(const char *s, int64_t *v)
{
	if (!*s || (*s != '-' && (*s < '0' || *s > '9')))
		return false;
	char *end;
	errno = 0;
	long long x = strtoll(s, &end, 10);
	if (errno || *end || x > (1LL << 53) || x < -(1LL << 53))
		return false;
	*v = x;
	return true;
}

/* ---- the probes of a snapshot ---- */

static int by_node_name(const void *a, const void *b)
{
	return strcmp(((const struct node *)a)->name, ((const struct node *)b)->name);
}

/* "family.probe" of a record's "family.probe[.item]", or NULL for env.*,
 * other keys and names without both parts. */
static char *probe_of(const struct aw_record *r)
{
	if (r->cls == AW_KEY_ENV || r->cls == AW_KEY_OTHER)
		return NULL;
	const char *p = strchr(r->name, '.');
	if (!p || p == r->name || !p[1])
		return NULL;
	const char *end = strchr(p + 1, '.');
	return end ? strndup(r->name, (size_t)(end - r->name)) : xstrdup(r->name);
}

static void collect_nodes(struct snap_ctx *c)
{
	const struct aw_snapshot *s = c->snap;
	c->nodes = xcalloc(s->n + 1, sizeof(*c->nodes));
	for (size_t i = 0; i < s->n; i++) {
		char *name = probe_of(&s->records[i]);
		if (name)
			c->nodes[c->nnodes++].name = name;
	}
	qsort(c->nodes, c->nnodes, sizeof(*c->nodes), by_node_name);
	size_t kept = 0;
	for (size_t i = 0; i < c->nnodes; i++) {
		if (kept && strcmp(c->nodes[kept - 1].name, c->nodes[i].name) == 0) {
			free(c->nodes[i].name);
			continue;
		}
		c->nodes[kept] = c->nodes[i];
		c->nodes[kept].observations = json_object_new_object();
		c->nodes[kept].unobserved = json_object_new_object();
		kept++;
	}
	c->nnodes = kept;
}

static struct node *node_of(struct snap_ctx *c, const struct aw_record *r)
{
	char *name = probe_of(r);
	if (!name)
		return NULL;
	struct node want = { .name = name };
	struct node *n = bsearch(&want, c->nodes, c->nnodes, sizeof(*c->nodes), by_node_name);
	free(name);
	return n;
}

/* "maxmsg" of "mqueue.noattr.maxmsg" in node mqueue.noattr. */
static const char *item_part(const char *name, const struct node *n)
{
	size_t len = strlen(n->name);
	return name[len] == '.' ? name + len + 1 : name;
}

static void raise_status(bool *has, enum kst *st, enum kst to)
{
	if (!*has || to > *st)
		*st = to;
	*has = true;
}

/* ---- the objects ---- */

static json_object *new_test(struct snap_ctx *c, const char *name, enum kst st, const char *excerpt)
{
	json_object *t = json_object_new_object();
	char *path = test_path(name);
	char *id = xasprintf("%s:%s:%s", c->doc->origin, c->digest, path);
	add_str(t, "id", id);
	add_str(t, "build_id", c->build_id);
	add_str(t, "origin", c->doc->origin);
	add_str(t, "path", path);
	add_str(t, "status", kst_name[st]);
	json_object_object_add(t, "environment", json_object_get(c->environment));
	if (excerpt && *excerpt) {
		char *clean = utf8_clean(excerpt, EXCERPT_MAX);
		json_object_object_add(t, "log_excerpt", json_object_new_string(clean));
		free(clean);
	}
	json_object_array_add(c->doc->tests, t);
	free(id);
	free(path);
	return t;
}

static const char *env_of(const struct aw_snapshot *s, const char *key, const char *fallback)
{
	const char *v = aw_snapshot_get(s, key);
	return v && *v ? v : fallback;
}

static json_object *make_environment(const struct aw_snapshot *s)
{
	json_object *e = json_object_new_object();
	const char *accel = aw_snapshot_get(s, "env.vm.accel");
	const char *image = aw_snapshot_get(s, "env.vm.image");
	char *comment = accel ? xasprintf("QEMU guest (%s)%s%s, root with every capability", accel,
					   image ? " booting " : "", image ? image : "")
			      : xstrdup("the machine abiwatch ran on");
	add_str(e, "comment", comment);
	free(comment);
	return e;
}

/* Every env.* of the snapshot, for the root test's environment only: the
 * capability list alone would double the document if every test had it. */
static json_object *environment_misc(const struct aw_snapshot *s)
{
	json_object *misc = json_object_new_object();
	for (size_t i = 0; i < s->n; i++)
		if (s->records[i].cls == AW_KEY_ENV)
			add_str(misc, s->records[i].name, s->records[i].value);
	return misc;
}

/* A checkout and a build standing for the snapshot's kernel: abiwatch
 * knows its release, version string and architecture, not its source. */
static char *made_build(struct doc *d, const struct aw_snapshot *s)
{
	const char *release = env_of(s, "env.kernel.release", "unknown");
	const char *version = env_of(s, "env.kernel.version", "");
	const char *arch = env_of(s, "env.arch", "");
	uint64_t h = fnv1a(fnv1a(fnv1a(0xcbf29ce484222325ULL, release), version), arch);
	char *suffix = xasprintf("%s-%012llx", release, (unsigned long long)(h >> 16));
	char *checkout_id = xasprintf("%s:checkout:%s", d->origin, suffix);
	char *build_id = xasprintf("%s:build:%s", d->origin, suffix);
	free(suffix);
	if (json_object_object_get_ex(d->made, build_id, NULL)) {
		free(checkout_id);
		return build_id;
	}
	json_object_object_add(d->made, build_id, NULL);

	json_object *co = json_object_new_object(), *b = json_object_new_object();
	char *comment = xasprintf("Linux %s %s", release, version);
	add_str(co, "id", checkout_id);
	add_str(co, "origin", d->origin);
	add_str(co, "comment", comment);
	json_object_array_add(d->checkouts, co);

	add_str(b, "id", build_id);
	add_str(b, "checkout_id", checkout_id);
	add_str(b, "origin", d->origin);
	add_str(b, "comment", comment);
	char *kcidb_arch = xstrdup(arch);
	for (char *p = kcidb_arch; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
			*p = '_';
	if (*kcidb_arch)
		add_str(b, "architecture", kcidb_arch);
	json_object *misc = json_object_new_object();
	add_str(misc, "kernel_release", release);
	add_str(misc, "kernel_version", version);
	json_object_object_add(b, "misc", misc);
	json_object_array_add(d->builds, b);
	free(kcidb_arch);
	free(comment);
	free(checkout_id);
	return build_id;
}

/* ---- the tests of one snapshot ---- */

/* A SKIP the machine caused carries its cause ("i386", "cap_sys_resource":
 * abiwatch-snapshot(5)) in misc, beside the reason in log_excerpt, so
 * that a dashboard can tell it from one the kernel caused. */
static void add_skip_cause(json_object *misc, const struct aw_record *r)
{
	char cause[AW_CAUSE_MAX];
	const char *why;
	if (r && r->status == AW_ST_SKIP && aw_reason_cause(r->reason, cause, &why))
		add_str(misc, "skip_cause", cause);
}

static void add_check(struct snap_ctx *c, const struct aw_record *r)
{
	enum kst st = kcidb_status(r->status);
	json_object *t = new_test(c, r->name, st, r->reason);
	json_object *misc = json_object_new_object();
	add_skip_cause(misc, r);
	if (json_object_object_length(misc))
		json_object_object_add(t, "misc", misc);
	else
		json_object_put(misc);
	struct node *n = node_of(c, r);
	if (n)
		raise_status(&n->has_status, &n->status, st);
}

/* Every observation goes into its probe's misc; one whose item declares a
 * unit is also a test of its own carrying the number. */
static void add_observation(struct snap_ctx *c, const struct aw_record *r)
{
	struct node *n = node_of(c, r);
	if (n)
		add_str(n->observations, item_part(r->name, n), r->value);
	const struct aw_item *item = aw_item_find(r->name);
	int64_t v;
	if (!item || !item->unit || !decimal_value(r->value, &v))
		return;
	json_object *t = new_test(c, r->name, K_DONE, NULL);
	json_object *num = json_object_new_object();
	json_object_object_add(num, "value", json_object_new_int64(v));
	add_str(num, "unit", item->unit);
	json_object_object_add(t, "number", num);
}

static void add_unobserved(struct snap_ctx *c, const struct aw_record *r)
{
	struct node *n = node_of(c, r);
	if (n)
		add_str(n->unobserved, item_part(r->name, n), r->value);
}

static void add_probe_record(struct snap_ctx *c, const struct aw_record *r)
{
	struct node *n = node_of(c, r);
	if (n)
		n->probe = r;
}

/* A probe that ran is what its checks are (DONE with none); one that did
 * not is SKIP or ERROR with its reason. */
static enum kst emit_probe(struct snap_ctx *c, struct node *n)
{
	bool ran = !n->probe || n->probe->status == AW_ST_PASS;
	enum kst st = ran ? (n->has_status ? n->status : K_DONE) : kcidb_status(n->probe->status);
	json_object *t = new_test(c, n->name, st, ran ? NULL : n->probe->reason);
	json_object *misc = json_object_new_object();
	json_object_object_add(misc, "observations", n->observations);
	json_object_object_add(misc, "unobserved", n->unobserved);
	if (!ran)
		add_skip_cause(misc, n->probe);
	n->observations = n->unobserved = NULL;
	json_object_object_add(t, "misc", misc);
	return st;
}

/* The probes, then a node per family and the root, each the highest
 * status below it. */
static void emit_tree(struct snap_ctx *c)
{
	bool root_has = false, fam_has = false;
	enum kst root = K_SKIP, fam = K_SKIP;
	for (size_t i = 0; i < c->nnodes; i++) {
		enum kst st = emit_probe(c, &c->nodes[i]);
		raise_status(&fam_has, &fam, st);
		const char *dot = strchr(c->nodes[i].name, '.');
		size_t flen = (size_t)(dot - c->nodes[i].name);
		const char *next = i + 1 < c->nnodes ? c->nodes[i + 1].name : NULL;
		if (next && strncmp(next, c->nodes[i].name, flen + 1) == 0)
			continue;
		char *family = strndup(c->nodes[i].name, flen);
		new_test(c, family, fam, NULL);
		free(family);
		raise_status(&root_has, &root, fam);
		fam_has = false;
	}
	json_object *t = new_test(c, "", root_has ? root : K_SKIP, NULL);
	json_object *env = make_environment(c->snap);
	json_object_object_add(env, "misc", environment_misc(c->snap));
	json_object_object_add(t, "environment", env);
	json_object *misc = json_object_new_object();
	char *format = xasprintf("%u.%u", c->snap->major, c->snap->minor);
	add_str(misc, "abiwatch_snapshot", format);
	free(format);
	json_object_object_add(t, "misc", misc);
}

static void add_snapshot(struct doc *d, const struct aw_snapshot *s)
{
	struct snap_ctx c = { .doc = d, .snap = s };
	char *made = d->o->build_id ? NULL : made_build(d, s);
	c.build_id = made ? made : d->o->build_id;
	c.digest = snapshot_digest(s);
	c.environment = make_environment(s);
	collect_nodes(&c);
	for (size_t i = 0; i < s->n; i++) {
		const struct aw_record *r = &s->records[i];
		if (r->cls == AW_KEY_CHECK)
			add_check(&c, r);
		else if (r->cls == AW_KEY_OBS)
			add_observation(&c, r);
		else if (r->cls == AW_KEY_UNOBSERVED)
			add_unobserved(&c, r);
		else if (r->cls == AW_KEY_PROBE)
			add_probe_record(&c, r);
	}
	emit_tree(&c);
	for (size_t i = 0; i < c.nnodes; i++)
		free(c.nodes[i].name);
	free(c.nodes);
	json_object_put(c.environment);
	free(c.digest);
	free(made);
}

int aw_kcidb_write(FILE *out, const struct aw_snapshot *const *snaps, size_t n,
		   const struct aw_kcidb_opts *o)
{
	struct doc d = {
		.o = o, .origin = o->origin ? o->origin : "abiwatch",
		.checkouts = json_object_new_array(), .builds = json_object_new_array(),
		.tests = json_object_new_array(), .made = json_object_new_object(),
	};
	for (size_t i = 0; i < n; i++)
		add_snapshot(&d, snaps[i]);

	json_object *root = json_object_new_object(), *version = json_object_new_object();
	json_object_object_add(version, "major", json_object_new_int(AW_KCIDB_MAJOR));
	json_object_object_add(version, "minor", json_object_new_int(AW_KCIDB_MINOR));
	json_object_object_add(root, "version", version);
	if (json_object_array_length(d.checkouts)) {
		json_object_object_add(root, "checkouts", d.checkouts);
		json_object_object_add(root, "builds", d.builds);
	} else {
		json_object_put(d.checkouts);
		json_object_put(d.builds);
	}
	json_object_object_add(root, "tests", d.tests);
	json_object_put(d.made);

	const char *s = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_NOSLASHESCAPE);
	int rc = fputs(s, out) < 0 || fputc('\n', out) == EOF ? -1 : 0;
	json_object_put(root);
	return rc;
}
