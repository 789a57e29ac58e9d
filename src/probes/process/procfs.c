// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/PID text that ps, top, debuggers and monitoring agents parse
 * (proc(5), Documentation/filesystems/proc.rst):
 * - the keys of /proc/self/status, each an item of its own, so that a
 *   key that appears or vanishes is one line of the diff (untag_mask came
 *   with x86 LAM in 6.4, f7d304343b9d; x86_Thread_features and
 *   x86_Thread_features_locked with shadow stacks in 6.6, d21da223567e;
 *   Kthread in 6.10, "fs/proc: add Kthread flag to /proc/$pid/status");
 * - the number of fields of /proc/self/stat (52 since 3.5's exit_code);
 * - /proc/self/cmdline after a setproctitle()-style rewrite that fills
 *   the argument area and spills into the environment: 5ab827189965
 *   (4.18) rewrote the reader and cut such titles; 3d712546d8ba (5.3,
 *   Linus's rewrite of the special case) reads on into the environment when the last byte of the
 *   argument area is not NUL;
 * - the bracketed names of special mappings in /proc/self/maps ([stack],
 *   [vdso], [vvar], and [vvar_vclock] of later kernels), in address
 *   order, which 3c6539b4c177 (6.9, "x86/vdso: Move vDSO to mmap
 *   region") changed: the vDSO lies below the stack since;
 * - [anon:NAME] after prctl(PR_SET_VMA, PR_SET_VMA_ANON_NAME)
 *   (5.17, CONFIG_ANON_VMA_NAME), and [anon_shmem:NAME] for
 *   shared anonymous memory (d09e8ca6cb93, 6.2; EBADF before).
 */
#include "process.h"
#include "lib/child.h"
#include "lib/errname.h"
#include "lib/maps.h"
#include "lib/procfs.h"
#include "lib/util.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#ifndef PR_SET_VMA
#define PR_SET_VMA 0x53564d41
#define PR_SET_VMA_ANON_NAME 0
#endif

static const char *const name_refused[] = { "EINVAL", NULL };
static const char *const shmem_refused[] = { "EINVAL", "EBADF", NULL };

/* Status keys printed only under a configuration option
 * (aw_status_config_keys), which surface.kconfig records: without it, no
 * key, which is the configuration's doing, not a removal. */
#define STATUS_KEY "process.procfs.status.key."

static bool status_key_witness(const char *name, const char *release, const char *version, struct aw_witness *out)
{
	(void)release;
	(void)version;
	if (strncmp(name, STATUS_KEY, strlen(STATUS_KEY)) != 0)
		return false;
	for (size_t i = 0; i < aw_nstatus_config_keys; i++) {
		const struct aw_config_name *k = &aw_status_config_keys[i];
		if (strcmp(name + strlen(STATUS_KEY), k->name) != 0)
			continue;
		memset(out, 0, sizeof(*out));
		out->kind = AW_WITNESS_CONFIG;
		snprintf(out->cause, sizeof(out->cause), "config:%s", k->option);
		snprintf(out->key, sizeof(out->key), "surface.kconfig.%s", k->option);
		out->why = k->source;
		return true;
	}
	return false;
}

static const struct aw_witness_rule status_witness = { .find = status_key_witness };

static const struct aw_item procfs_items[] = {
	AW_OBS_ITEM("status.keys", "how many keys /proc/self/status has", .unit = "keys",
		    .change = "tools parsing status by line number break; see the status.key.* items", .object = "status"),
	AW_OBS_ITEM("status.key.*", "a key of /proc/self/status: present",
		    .change = "a key tools read (ps, container agents, seccomp checkers) appeared or vanished", .object = "status",
		    .witness = &status_witness),
	AW_OBS_ITEM("stat.fields", "the number of space-separated fields of /proc/self/stat", .unit = "fields",
		    .change = "parsers expecting a fixed field count (old ps, monitoring agents) break", .object = "stat"),
	AW_OBS_ITEM("cmdline.setproctitle", "/proc/self/cmdline after a title that fills the argument area and spills into the environment",
		    .change = "process titles set by setproctitle() (nginx, postgres, sshd) show cut or garbled", .object = "cmdline"),
	AW_OBS_ITEM("maps.special", "the bracketed names of the special mappings in /proc/self/maps, in address order ([heap] and [anon:] apart)",
		    .change = "a name that appeared or vanished: tools locating the vDSO or the stack by name "
			      "(debuggers, CRIU, sanitizers) miss it; the same names in another order: the kernel "
			      "places them elsewhere relative to each other (3c6539b4c177, 6.9, moved the vDSO "
			      "into the mmap region, below the stack), which only code assuming a layout sees", .object = "maps"),
	AW_OBS_ITEM("maps.anon_name", "the name /proc/self/maps shows for private anonymous memory named \"abiwatch\" with PR_SET_VMA_ANON_NAME, or the errno",
		    .change = "EINVAL: no anonymous VMA names (before 5.17, or CONFIG_ANON_VMA_NAME off); allocators' and runtimes' named heaps show anonymous",
		    .object = "maps.anon_name", .absent = name_refused),
	AW_OBS_ITEM("maps.anon_shmem_name", "the same for shared anonymous memory, or the errno",
		    .change = "EBADF: shared anonymous memory cannot be named (before 6.2)", .object = "maps.anon_name",
		    .absent = shmem_refused),
	AW_ITEMS_END
};

static struct aw_ctx *fctx;

/* A status key as an item name component: letters, digits and '_'. */
static bool key_word(const char *k, size_t n)
{
	if (n == 0 || n > 64)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)k[i]) && k[i] != '_')
			return false;
	return true;
}

static void status_items(struct aw_ctx *ctx)
{
	char *text = NULL;
	size_t len = 0;
	if (aw_file_slurp("/proc/self/status", &text, &len) != 0) {
		aw_error(ctx, "status.keys", "reading /proc/self/status: %s", aw_errname(errno));
		return;
	}
	long keys = 0;
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n'), *colon = strchr(line, ':');
		if (colon && (!nl || colon < nl)) {
			keys++;
			size_t n = (size_t)(colon - line);
			if (key_word(line, n)) {
				char item[96];
				snprintf(item, sizeof(item), "status.key.%.*s", (int)n, line);
				aw_observe(ctx, item, "present");
			} else {
				aw_note(ctx, "a status key that is no item name: %.*s", (int)n, line);
			}
		}
		line = nl ? nl + 1 : NULL;
	}
	aw_observe_long(ctx, "status.keys", keys);
	free(text);
}

/* The fields after the command's closing parenthesis, and the two
 * before it: 0 with *n and fields 48..51 (arg and env areas) if any. */
static int stat_fields(long *n, unsigned long area[4])
{
	char *text = NULL;
	size_t len = 0;
	if (aw_file_slurp("/proc/self/stat", &text, &len) != 0)
		return -errno;
	char *p = strrchr(text, ')');
	if (!p) {
		free(text);
		return -EINVAL;
	}
	long count = 2;
	char *save = NULL;
	for (char *w = strtok_r(p + 1, " \n", &save); w; w = strtok_r(NULL, " \n", &save)) {
		count++;
		if (count >= 48 && count <= 51)
			area[count - 48] = strtoul(w, NULL, 10);
	}
	*n = count;
	free(text);
	return 0;
}

static int cmdline_child(void *arg)
{
	(void)arg;
	const char *item = "cmdline.setproctitle";
	unsigned long a[4] = { 0 };
	long n;
	int rc = stat_fields(&n, a);
	if (rc || n < 51 || a[1] <= a[0] || a[3] <= a[2] + 8 || a[2] < a[1]) {
		aw_unobserved(fctx, item, "no argument and environment areas in /proc/self/stat (%s)", aw_errname(rc));
		return 0;
	}
	/* fill the argument area to its last byte, then "SPILL" and a NUL
	 * in the environment (the environment's strings are copies the C
	 * library no longer reads from there: environ points at them, but
	 * the child reads nothing of it from now on) */
	char *args = (char *)(uintptr_t)a[0], *env = (char *)(uintptr_t)a[2];
	size_t alen = a[1] - a[0];
	memset(args, 'T', alen);
	memcpy(env, "SPILL", 6);
	char *text = NULL;
	size_t len = 0;
	if (aw_file_slurp("/proc/self/cmdline", &text, &len) != 0) {
		aw_error(fctx, item, "reading /proc/self/cmdline: %s", aw_errname(errno));
		return 0;
	}
	size_t ts = 0;
	while (ts < len && text[ts] == 'T')
		ts++;
	const char *word;
	if (ts == alen && len >= alen + 5 && memcmp(text + alen, "SPILL", 5) == 0)
		word = "the whole title";
	else if (ts == alen && (len == alen || (len == alen + 1 && text[alen] == '\0')))
		word = "cut at the end of the argument area";
	else if (ts < alen)
		word = "cut inside the argument area";
	else
		word = "other";
	aw_observe(fctx, item, "%s", word);
	free(text);
	return 0;
}

static void maps_items(struct aw_ctx *ctx)
{
	char *text = NULL;
	size_t len = 0;
	long page = sysconf(_SC_PAGESIZE);
	void *priv = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void *shared = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int priv_rc = priv == MAP_FAILED ? -ENOMEM :
		prctl(PR_SET_VMA, PR_SET_VMA_ANON_NAME, (unsigned long)priv, (unsigned long)page, "abiwatch") ? -errno : 0;
	int shared_rc = shared == MAP_FAILED ? -ENOMEM :
		prctl(PR_SET_VMA, PR_SET_VMA_ANON_NAME, (unsigned long)shared, (unsigned long)page, "abiwatch") ? -errno : 0;
	if (aw_file_slurp("/proc/self/maps", &text, &len) != 0) {
		aw_error(ctx, "maps.special", "reading /proc/self/maps: %s", aw_errname(errno));
		aw_error(ctx, "maps.anon_name", "reading /proc/self/maps");
		aw_error(ctx, "maps.anon_shmem_name", "reading /proc/self/maps");
		return;
	}
	char special[256] = "";
	size_t used = 0;
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');
		struct aw_map m;
		size_t n = nl ? (size_t)(nl - line) : strlen(line);
		if (aw_maps_by_addr(line, n, strtoul(line, NULL, 16), &m) == 0 && m.name[0] == '[' &&
		    strncmp(m.name, "[anon", 5) != 0 && strcmp(m.name, "[heap]") != 0 &&
		    used + strlen(m.name) + 2 < sizeof(special))
			used += (size_t)snprintf(special + used, sizeof(special) - used, "%s%s", used ? " " : "", m.name);
		line = nl ? nl + 1 : NULL;
	}
	aw_observe(ctx, "maps.special", "%s", special);
	struct aw_map m;
	if (priv_rc)
		aw_observe(ctx, "maps.anon_name", "%s", aw_errname(priv_rc));
	else if (aw_maps_by_addr(text, len, (unsigned long)priv, &m) == 0)
		aw_observe(ctx, "maps.anon_name", "%s", m.name[0] ? m.name : "none");
	else
		aw_error(ctx, "maps.anon_name", "the mapping is not in /proc/self/maps");
	if (shared_rc)
		aw_observe(ctx, "maps.anon_shmem_name", "%s", aw_errname(shared_rc));
	else if (aw_maps_by_addr(text, len, (unsigned long)shared, &m) == 0)
		aw_observe(ctx, "maps.anon_shmem_name", "%s", m.name[0] ? m.name : "none");
	else
		aw_error(ctx, "maps.anon_shmem_name", "the mapping is not in /proc/self/maps");
	free(text);
	if (priv != MAP_FAILED)
		munmap(priv, (size_t)page);
	if (shared != MAP_FAILED)
		munmap(shared, (size_t)page);
}

static void procfs_run(struct aw_ctx *ctx)
{
	fctx = ctx;
	status_items(ctx);
	long n;
	unsigned long area[4];
	int rc = stat_fields(&n, area);
	if (rc)
		aw_error(ctx, "stat.fields", "reading /proc/self/stat: %s", aw_errname(rc));
	else
		aw_observe_long(ctx, "stat.fields", n);
	rc = aw_child_run(cmdline_child, NULL, PROCESS_CHILD_MS);
	if (rc && !aw_reported(ctx, "cmdline.setproctitle"))
		aw_error(ctx, "cmdline.setproctitle", "the child ended with %d", rc);
	maps_items(ctx);
}

static const char *const procfs_tags[] = {
	"linux-git:5ab827189965", "linux-git:3d712546d8ba",
	"linux-git:d09e8ca6cb93", "linux-git:3c6539b4c177", "linux-git:f7d304343b9d",
	"linux-git:d21da223567e", "man:proc(5)", NULL,
};

const struct aw_probe process_procfs_probes[] = {
	{
		.name = "procfs",
		.summary = "/proc/PID text tools parse: status keys, stat fields, a setproctitle() cmdline, maps names",
		.run = procfs_run,
		.items = procfs_items,
		.tags = procfs_tags,
	},
	AW_PROBES_END,
};
