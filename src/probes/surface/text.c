// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * surface.text: the shape of the text files tools parse and no other
 * family covers: the keys of /proc/self/status and /proc/meminfo (proc(5):
 * "fields ... may be added" and ps, top, free, psutil read them by name),
 * the field count of /proc/self/stat (proc(5) lists 52 fields since 3.5;
 * parsers that index by position break when one is inserted), the entries
 * of /proc/self/ (proc(5)), the columns of /proc/self/mountinfo (proc(5):
 * six fixed fields, optional fields, a "-", three more), the auxiliary
 * vector's keys (getauxval(3): AT_RSEQ_FEATURE_SIZE and AT_RSEQ_ALIGN came
 * in 6.3, AT_HWCAP3/4 in 6.16) and the files of
 * /sys/kernel/mm/transparent_hugepage/ (the kernel's
 * Documentation/admin-guide/mm/transhuge.rst: hugepages-<size>kB/
 * directories for multi-size THP since 6.8).  Each value is the key set
 * in the file's own order (sorted for directories), so that a key that
 * appears or vanishes is a diff line naming it.
 */
#include "surface.h"
#include "lib/errname.h"
#include "lib/procfs.h"
#include "lib/util.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct aw_item text_items[] = {
	AW_OBS_ITEM("proc_status.keys", "the keys of /proc/self/status, in order",
		    .change = "a key appeared or vanished (or moved): tools that read it by name or position see it",
		    .witness = &surface_text_witness),
	AW_OBS_ITEM("meminfo.keys", "the keys of /proc/meminfo, in order",
		    .change = "a key appeared or vanished: free, top and monitoring agents read them by name",
		    .witness = &surface_text_witness),
	AW_OBS_ITEM("proc_stat.fields", "the number of fields of /proc/self/stat", .unit = "fields",
		    .change = "a field was added or removed: parsers that index by position read the wrong one"),
	AW_OBS_ITEM("proc_self.entries", "the entries of /proc/self/, sorted",
		    .change = "a per-process file appeared or vanished",
		    .witness = &surface_text_witness),
	AW_OBS_ITEM("mountinfo.columns", "fields of the probe's own (private) mount in /proc/self/mountinfo: before the \"-\" and after, as B+A",
		    .change = "mountinfo gained or lost a column: parsers that count fields break"),
	AW_OBS_ITEM("auxv.keys", "the AT_* keys of the auxiliary vector (/proc/self/auxv), in order",
		    .change = "the kernel passes an auxv entry it did not (or no longer does): getauxval() of it answers differently"),
	AW_OBS_ITEM("thp.files", "the entries of /sys/kernel/mm/transparent_hugepage/ and its khugepaged/, sorted; absent without THP",
		    .change = "a THP control file appeared or vanished: tuning scripts that write it fail or gain a knob"),
	AW_ITEMS_END
};

/* A growing comma-separated list. */
struct list {
	char *text;
	size_t len, cap;
};

static void list_add(struct list *l, const char *word, size_t n)
{
	if (l->len + n + 2 > l->cap) {
		l->cap = (l->len + n + 2) * 2;
		l->text = xrealloc(l->text, l->cap);
	}
	if (l->len)
		l->text[l->len++] = ',';
	memcpy(l->text + l->len, word, n);
	l->len += n;
	l->text[l->len] = '\0';
}

/* The "Key:" names of a file of such lines, in order. */
static void observe_keys(struct aw_ctx *ctx, const char *item, const char *path)
{
	char *text;
	size_t len;
	int rc = aw_file_slurp(path, &text, &len);
	if (rc) {
		aw_error(ctx, item, "reading %s: %s", path, aw_errname(rc));
		return;
	}
	struct list l = { 0 };
	for (char *line = text; line < text + len;) {
		char *end = memchr(line, '\n', (size_t)(text + len - line));
		if (!end)
			end = text + len;
		char *colon = memchr(line, ':', (size_t)(end - line));
		if (colon)
			list_add(&l, line, (size_t)(colon - line));
		line = end + 1;
	}
	aw_observe(ctx, item, "%s", l.text ? l.text : "none");
	free(l.text);
	free(text);
}

static void observe_stat_fields(struct aw_ctx *ctx)
{
	char *text;
	size_t len;
	int rc = aw_file_slurp("/proc/self/stat", &text, &len);
	if (rc) {
		aw_error(ctx, "proc_stat.fields", "reading /proc/self/stat: %s", aw_errname(rc));
		return;
	}
	/* pid (comm) then space-separated fields; comm may hold anything */
	char *paren = NULL;
	for (size_t i = 0; i < len; i++)
		if (text[i] == ')')
			paren = text + i;
	if (!paren) {
		aw_error(ctx, "proc_stat.fields", "no \")\" in /proc/self/stat");
		free(text);
		return;
	}
	long n = 2;
	for (char *p = paren + 1; p < text + len; p++)
		if (*p == ' ' && p + 1 < text + len && p[1] != ' ' && p[1] != '\n')
			n++;
	aw_observe_long(ctx, "proc_stat.fields", n);
	free(text);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted entries of dir (prefix before each name, "/" after a
 * directory) added to l; 0 or -errno. */
static int add_dir(struct list *l, const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	if (!d)
		return -errno;
	char **names = NULL;
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		names = xgrow(names, n, sizeof(*names));
		names[n++] = xasprintf("%s%s%s", prefix, e->d_name, e->d_type == DT_DIR ? "/" : "");
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n; i++) {
		list_add(l, names[i], strlen(names[i]));
		free(names[i]);
	}
	free(names);
	return 0;
}

static void observe_dir(struct aw_ctx *ctx, const char *item, const char *dir, const char *sub)
{
	struct list l = { 0 };
	int rc = add_dir(&l, dir, "");
	if (rc == 0 && sub) {
		char *path = xasprintf("%s/%s", dir, sub), *prefix = xasprintf("%s/", sub);
		rc = add_dir(&l, path, prefix);
		if (rc == -ENOENT)
			rc = 0;
		free(path);
		free(prefix);
	}
	if (rc == -ENOENT)
		aw_observe(ctx, item, "absent");
	else if (rc)
		aw_error(ctx, item, "reading %s: %s", dir, aw_errname(rc));
	else
		aw_observe(ctx, item, "%s", l.text ? l.text : "none");
	free(l.text);
}

static void observe_mountinfo(struct aw_ctx *ctx)
{
	char *text;
	size_t len;
	int rc = aw_file_slurp("/proc/self/mountinfo", &text, &len);
	if (rc) {
		aw_error(ctx, "mountinfo.columns", "reading /proc/self/mountinfo: %s", aw_errname(rc));
		return;
	}
	const char *want = aw_tmpdir(ctx);
	bool found = false;
	for (char *line = strtok(text, "\n"); line && !found; line = strtok(NULL, "\n")) {
		char *save, *f[64];
		int n = 0, dash = -1;
		for (char *t = strtok_r(line, " ", &save); t && n < 64; t = strtok_r(NULL, " ", &save)) {
			if (strcmp(t, "-") == 0 && dash < 0)
				dash = n;
			f[n++] = t;
		}
		if (n < 5 || dash < 0 || strcmp(f[4], want) != 0)
			continue;
		aw_observe(ctx, "mountinfo.columns", "%d+%d", dash, n - dash - 1);
		found = true;
	}
	if (!found)
		aw_error(ctx, "mountinfo.columns", "no line for %s in /proc/self/mountinfo", want);
	free(text);
}

static void observe_auxv(struct aw_ctx *ctx)
{
	static const char *const names[] = {
		[3] = "PHDR", [4] = "PHENT", [5] = "PHNUM", [6] = "PAGESZ", [7] = "BASE", [8] = "FLAGS",
		[9] = "ENTRY", [10] = "NOTELF", [11] = "UID", [12] = "EUID", [13] = "GID", [14] = "EGID",
		[15] = "PLATFORM", [16] = "HWCAP", [17] = "CLKTCK", [23] = "SECURE", [24] = "BASE_PLATFORM",
		[25] = "RANDOM", [26] = "HWCAP2", [27] = "RSEQ_FEATURE_SIZE", [28] = "RSEQ_ALIGN",
		[29] = "HWCAP3", [30] = "HWCAP4", [31] = "EXECFN", [32] = "SYSINFO", [33] = "SYSINFO_EHDR",
		[51] = "MINSIGSTKSZ",
	};
	char *text;
	size_t len;
	int rc = aw_file_slurp("/proc/self/auxv", &text, &len);
	if (rc) {
		aw_error(ctx, "auxv.keys", "reading /proc/self/auxv: %s", aw_errname(rc));
		return;
	}
	struct list l = { 0 };
	for (size_t off = 0; off + 2 * sizeof(unsigned long) <= len; off += 2 * sizeof(unsigned long)) {
		unsigned long key;
		memcpy(&key, text + off, sizeof(key));
		if (key == 0)
			break;
		char buf[32];
		const char *name = key < AW_ARRAY_SIZE(names) && names[key] ? names[key] : NULL;
		if (!name) {
			snprintf(buf, sizeof(buf), "%lu", key);
			name = buf;
		}
		list_add(&l, name, strlen(name));
	}
	aw_observe(ctx, "auxv.keys", "%s", l.text ? l.text : "none");
	free(l.text);
	free(text);
}

static void text_run(struct aw_ctx *ctx)
{
	observe_keys(ctx, "proc_status.keys", "/proc/self/status");
	observe_keys(ctx, "meminfo.keys", "/proc/meminfo");
	observe_stat_fields(ctx);
	observe_dir(ctx, "proc_self.entries", "/proc/self", NULL);
	observe_mountinfo(ctx);
	observe_auxv(ctx);
	observe_dir(ctx, "thp.files", "/sys/kernel/mm/transparent_hugepage", "khugepaged");
}

static const char *const tags[] = { "man:proc(5)", "man:getauxval(3)", NULL };

const struct aw_probe surface_text_probes[] = {
	{
		.name = "text",
		.summary = "the key sets of /proc/self/status, /proc/meminfo, /proc/self/, mountinfo, auxv and the THP files",
		.run = text_run,
		.items = text_items,
		.tags = tags,
	},
	AW_PROBES_END,
};
