// SPDX-License-Identifier: GPL-2.0-or-later
/* One kernel in QEMU, from its files to its snapshot: see vm.h. */
#include "vm.h"
#include "core/registry.h"
#include "core/load.h"
#include "guest.h"
#include "initramfs.h"
#include "bzimage.h"
#include "deb.h"
#include "kvm.h"
#include "modules.h"
#include "lib/proc.h"
#include "backends/backend.h"
#include "lib/util.h"
#include "lib/procfs.h"
#include "lib/tsc.h"

#include <ctype.h>
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Modules loaded at boot: their /dev nodes must exist before a probe opens
 * them.  The filesystems (each backend's "fs-" alias) load when the kernel
 * asks for them at mount time, so a run of the mqueue family does not pay
 * for xfs and btrfs under TCG.  Names the kernel lacks are only notes. */
static const char *const boot_modules[] = { "loop", "fuse" };
/* After "end", how long the guest may take to power off. */
#define POWEROFF_GRACE_S 5.0
/* Time the guest keeps for sending its results after its deadline, at
 * least. */
#define SEND_MARGIN_S 3.0

const char *aw_vm_outcome_name(enum aw_vm_outcome o)
{
	switch (o) {
	case AW_VM_OK: return "ok";
	case AW_VM_TIMEOUT: return "timeout";
	case AW_VM_PANIC: return "panic";
	case AW_VM_NO_RESULT: return "no result";
	case AW_VM_SETUP: return "not started";
	}
	return "?";
}

static void add_note(struct aw_vm_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_note(struct aw_vm_result *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	r->notes = xgrow(r->notes, r->nnotes, sizeof(*r->notes));
	r->notes[r->nnotes++] = xvasprintf(fmt, ap);
	va_end(ap);
}

void aw_vm_result_free(struct aw_vm_result *r)
{
	free(r->why);
	free(r->release);
	free(r->accel);
	free(r->accel_why);
	free(r->run_end);
	free(r->stdout_data);
	free(r->console);
	if (r->has_snapshot)
		aw_snapshot_free(&r->snapshot);
	for (size_t i = 0; i < r->nnotes; i++)
		free(r->notes[i]);
	free(r->notes);
	memset(r, 0, sizeof(*r));
}

/* ---- finding what abiwatch ships ---- */

/* The directories searched, in order, for files of build/SUB/. */
static char **search_dirs(const char *sub, size_t *n)
{
	char *dir = aw_exe_dir();
	const char *env = getenv("ABIWATCH_HELPER_DIR");
	char **dirs = xcalloc(4, sizeof(*dirs));
	*n = 0;
	if (env && *env)
		dirs[(*n)++] = xstrdup(env);
	if (dir) {
		dirs[(*n)++] = xasprintf("%s/build/%s", dir, sub);
		dirs[(*n)++] = xasprintf("%s/../%s", dir, sub);
		dirs[(*n)++] = xasprintf("%s/../libexec/abiwatch", dir);
	}
	free(dir);
	return dirs;
}

static void free_dirs(char **dirs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
}

char *aw_vm_find(const char *sub, const char *name)
{
	size_t n;
	char **dirs = search_dirs(sub, &n), *found = NULL;
	for (size_t i = 0; i < n && !found; i++) {
		char *cand = xasprintf("%s/%s", dirs[i], name);
		struct stat st;
		if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0)
			found = cand;
		else
			free(cand);
	}
	free_dirs(dirs, n);
	return found;
}

/* Whether the running abiwatch is itself static (an installed static
 * build needs no second copy). */
static bool self_is_static(void)
{
	char data[8192];
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	ssize_t got = fd >= 0 ? pread(fd, data, sizeof(data), 0) : -1;
	if (fd >= 0)
		close(fd);
	if (got <= 0)
		return false;
	size_t len = (size_t)got;
	bool stat = false;
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)data;
	if (len >= sizeof(*eh) && memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0 &&
	    eh->e_ident[EI_CLASS] == ELFCLASS64 && eh->e_phoff < len &&
	    (size_t)eh->e_phnum * sizeof(Elf64_Phdr) <= len - eh->e_phoff) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(data + eh->e_phoff);
		stat = true;
		for (unsigned i = 0; i < eh->e_phnum; i++)
			if (ph[i].p_type == PT_INTERP)
				stat = false;
	}
	return stat;
}

/* The helpers (abiwatch-*-m32) of the first directory that has any. */
static char **find_helpers(void)
{
	size_t n, nh = 0;
	char **dirs = search_dirs("m32", &n);
	char **helpers = xcalloc(1, sizeof(*helpers));
	for (size_t i = 0; i < n && nh == 0; i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *e;
		while (d && (e = readdir(d))) {
			if (fnmatch("abiwatch-*-m32", e->d_name, 0) != 0)
				continue;
			char *path = xasprintf("%s/%s", dirs[i], e->d_name);
			if (access(path, X_OK) != 0) {
				free(path);
				continue;
			}
			helpers = xrealloc(helpers, (nh + 2) * sizeof(*helpers));
			helpers[nh++] = path;
			helpers[nh] = NULL;
		}
		if (d)
			closedir(d);
	}
	free_dirs(dirs, n);
	return helpers;
}

static void free_list(char **list)
{
	for (char **p = list; p && *p; p++)
		free(*p);
	free(list);
}

/* ---- the kernel and its modules ---- */

/* lib/modules/RELEASE below dir, or dir itself. */
static char *modules_dir(const char *dir, const char *release)
{
	char *cand = xasprintf("%s/lib/modules/%s", dir, release);
	struct stat st;
	if (stat(cand, &st) == 0 && S_ISDIR(st.st_mode))
		return cand;
	free(cand);
	return xstrdup(dir);
}

static int prepare_kernel(const struct aw_vm_opts *o, struct aw_vm_result *r, int *kernel_fd,
			  struct aw_modtree *tree, bool *have_tree, struct aw_deb_boot *boot)
{
	char *err = NULL;
	*have_tree = false;
	if (o->deb) {
		if (aw_deb_read(o->deb, kernel_fd, tree, boot, &err) != 0) {
			r->why = err;
			return -1;
		}
		*have_tree = true;
		char *why = NULL;
		r->release = aw_bzimage_release(*kernel_fd, &why);
		if (!r->release) {
			r->why = xasprintf("%s: its vmlinuz: %s", o->deb, why);
			free(why);
			return -1;
		}
		if (strcmp(r->release, tree->release) != 0)
			add_note(r, "the kernel says %s, its modules are for %s", r->release, tree->release);
		return 0;
	}
	*kernel_fd = open(o->kernel, O_RDONLY | O_CLOEXEC);
	if (*kernel_fd < 0) {
		r->why = xasprintf("%s: %s", o->kernel, strerror(errno));
		return -1;
	}
	r->release = aw_bzimage_release(*kernel_fd, &err);
	if (!r->release) {
		r->why = xasprintf("%s: %s", o->kernel, err);
		free(err);
		return -1;
	}
	char *dir = NULL;
	if (o->modules) {
		dir = modules_dir(o->modules, r->release);
	} else {
		char *installed = xasprintf("/lib/modules/%s", r->release);
		if (access(installed, R_OK | X_OK) == 0)
			dir = installed;
		else
			free(installed);
	}
	if (!dir) {
		add_note(r, "no modules for %s (give --modules DIR): what is built in only", r->release);
		return 0;
	}
	if (aw_modtree_from_dir(tree, dir, &err) != 0) {
		r->why = err;
		free(dir);
		return -1;
	}
	tree->release = xstrdup(r->release);
	*have_tree = true;
	free(dir);
	return 0;
}

/* Names of the modules to load: the defaults, the filesystem of every
 * backend ("fs-" aliases), and --module. */
static char **wanted_modules(const struct aw_vm_opts *o, size_t *n)
{
	char **w = NULL;
	*n = 0;
	for (size_t i = 0; i < AW_ARRAY_SIZE(boot_modules); i++) {
		w = xgrow(w, *n, sizeof(*w));
		w[(*n)++] = xstrdup(boot_modules[i]);
	}
	/* Filesystems that cannot be modules (bool in Kconfig). */
	static const char *const never_modules[] = { "tmpfs", "ramfs", "proc", "sysfs" };
	for (const struct aw_backend *const *b = aw_backends; *b; b++) {
		bool builtin = false;
		for (size_t i = 0; (*b)->fstype && i < AW_ARRAY_SIZE(never_modules); i++)
			builtin = builtin || strcmp((*b)->fstype, never_modules[i]) == 0;
		if (!(*b)->fstype || builtin)
			continue;
		w = xgrow(w, *n, sizeof(*w));
		w[(*n)++] = xasprintf("fs-%s", (*b)->fstype);
	}
	/* What the probes' calls load on demand (struct aw_needs.modules). */
	const struct aw_family *const *fams;
	size_t nfam = aw_families(&fams);
	for (size_t f = 0; f < nfam; f++) {
		const struct aw_probe *const *probes;
		size_t np = aw_family_probes(fams[f], &probes);
		for (size_t i = 0; i < np; i++)
			for (const char *const *m = probes[i]->needs.modules; m && *m; m++) {
				w = xgrow(w, *n, sizeof(*w));
				w[(*n)++] = xstrdup(*m);
			}
	}
	for (size_t i = 0; i < o->nextra_modules; i++) {
		w = xgrow(w, *n, sizeof(*w));
		w[(*n)++] = xstrdup(o->extra_modules[i]);
	}
	return w;
}

/* The programs the backends run (mkfs.*), each once. */
static const char **wanted_programs(void)
{
	size_t n = 0;
	const char **p = xcalloc(1, sizeof(*p));
	for (const struct aw_backend *const *b = aw_backends; *b; b++) {
		if (!(*b)->mkfs)
			continue;
		bool seen = false;
		for (size_t i = 0; i < n && !seen; i++)
			seen = strcmp(p[i], (*b)->mkfs) == 0;
		if (seen)
			continue;
		p = xrealloc(p, (n + 2) * sizeof(*p));
		p[n++] = (*b)->mkfs;
		p[n] = NULL;
	}
	return p;
}

static int build_initramfs(const struct aw_vm_opts *o, struct aw_vm_result *r,
			   struct aw_modtree *tree, bool have_tree, const struct aw_deb_boot *boot, int fd)
{
	struct aw_modplan plan = { 0 };
	char *err = NULL;
	int rc = -1;
	char *init = aw_vm_find("vm", "abiwatch-init");
	char *abiwatch = self_is_static() ? xstrdup("/proc/self/exe") : aw_vm_find("static", "abiwatch");
	char **helpers = find_helpers();
	const char **programs = wanted_programs();
	size_t nwanted = 0;
	char **wanted = wanted_modules(o, &nwanted);

	if (!init || !abiwatch) {
		r->why = xasprintf("cannot find %s (build it with 'make vm'; looked beside the abiwatch "
				   "binary in build/%s/, ../%s/ and ../libexec/abiwatch/)",
				   !init ? "abiwatch-init" : "a static abiwatch",
				   !init ? "vm" : "static", !init ? "vm" : "static");
		goto out;
	}
	if (have_tree && aw_modules_resolve(tree, (const char *const *)wanted, nwanted, &plan, &err) != 0) {
		r->why = err;
		goto out;
	}
	for (size_t i = 0; i < plan.nnotes; i++)
		add_note(r, "module %s", plan.notes[i]);

	/* In the guest's uptime, which starts after QEMU's own start-up and
	 * the firmware: a fifth of the time (3 to 30 s) is kept for those and
	 * for sending the results, since on a loaded host they took over 3 s. */
	double margin = o->timeout_s * 0.2;
	margin = margin < SEND_MARGIN_S ? SEND_MARGIN_S : margin > 30 ? 30 : margin;
	double deadline = o->timeout_s - margin;
	/* Loaded at boot: the device modules and every --module. */
	const char **eager = xcalloc(AW_ARRAY_SIZE(boot_modules) + o->nextra_modules + 1, sizeof(*eager));
	size_t neager = 0;
	for (size_t i = 0; i < AW_ARRAY_SIZE(boot_modules); i++)
		eager[neager++] = boot_modules[i];
	for (size_t i = 0; i < o->nextra_modules; i++)
		eager[neager++] = o->extra_modules[i];
	struct aw_initramfs_opts io = {
		.init = init, .abiwatch = abiwatch, .helpers = (const char *const *)helpers,
		.tree = have_tree ? tree : NULL, .plan = have_tree ? &plan : NULL, .eager = eager,
		.run_args = o->run_args, .nrun_args = o->nrun_args, .deadline = deadline,
		.stretch = o->timeout_stretches,
		.programs = programs, .files = o->files, .nfiles = o->nfiles,
		.setups = o->setups, .nsetups = o->nsetups,
		.package_path = boot->config_path, .package_data = boot->config,
		.package_len = boot->config_len,
	};
	struct aw_initramfs_info info;
	int built = aw_initramfs_build(&io, fd, &info, &err);
	free(eager);
	if (built != 0) {
		r->why = err;
		aw_initramfs_info_free(&info);
		goto out;
	}
	for (size_t i = 0; i < info.nnotes; i++)
		add_note(r, "%s", info.notes[i]);
	r->initramfs_bytes = info.bytes;
	r->nmodules = info.nmodules;
	aw_initramfs_info_free(&info);
	rc = 0;
out:
	aw_modplan_free(&plan);
	for (size_t i = 0; i < nwanted; i++)
		free(wanted[i]);
	free(wanted);
	free(programs);
	free_list(helpers);
	free(init);
	free(abiwatch);
	return rc;
}

/* ---- QEMU ---- */

static const char *qboot(void)
{
	static const char *const paths[] = { "/usr/share/qemu/qboot.rom",
					     "/usr/share/seabios/qboot.rom" };
	for (size_t i = 0; i < AW_ARRAY_SIZE(paths); i++)
		if (access(paths[i], R_OK) == 0)
			return paths[i];
	return NULL;
}

/* When (host time) the guest's stream first showed init starting, the run
 * starting, and its end: the guest's own clock is no good for this under
 * TCG on a loaded host (it calibrates its TSC against a timer that the
 * load delays, and runs slow). */
struct marks {
	double init, run, end;
	double pace; /* what the guest measured of itself; 0 before it says */
	size_t families; /* "family" lines already shown as progress */
};

/* Each family the guest's run ended since the last look, as progress:
 * the stream's "family" lines after the first m->families of them. */
static void show_families(const struct aw_vm_opts *o, const char *release, const char *text,
			  struct marks *m)
{
	size_t n = 0;
	for (const char *p = strstr(text, "\nfamily "); p; p = strstr(p + 1, "\nfamily ")) {
		const char *line = p + 8, *nl = strchr(line, '\n');
		if (!nl)
			break; /* still coming */
		if (n++ < m->families)
			continue;
		aw_say(&o->progress, "%s: %.*s (%.0f s)", release, (int)(nl - line), line,
		       aw_now() - m->run);
		m->families = n;
	}
}

static void scan_marks(const struct aw_vm_opts *o, const char *release, int data_fd,
		       struct marks *m)
{
	char *text;
	size_t len;
	if (m->end > 0 || aw_fd_slurp(data_fd, &text, &len) != 0)
		return;
	double now = aw_now();
	if (m->init == 0 && strstr(text, "\nboot "))
		m->init = now;
	if (m->run == 0 && strstr(text, "\nrun ")) {
		m->run = now;
		aw_say(&o->progress, "%s: booted; the probes run", release);
	}
	if (m->run > 0 && o->progress.on)
		show_families(o, release, text, m);
	const char *pace = m->pace == 0 ? strstr(text, "\npace ") : NULL;
	if (pace && strchr(pace + 1, '\n'))
		m->pace = strtod(pace + 6, NULL);
	/* The last line: "end UPTIME\n". */
	if (len >= 5 && text[len - 1] == '\n') {
		char *prev = len >= 2 ? memrchr(text, '\n', len - 1) : NULL;
		const char *last = prev ? prev + 1 : text;
		if (strncmp(last, "end ", 4) == 0)
			m->end = now;
	}
	free(text);
}

/* " tsc_early_khz=N" for a TCG guest, or "": TCG gives the guest this
 * machine's TSC, whose frequency the guest's kernel otherwise calibrates
 * against the emulated PIT and HPET, which a loaded host delays: a 6.12
 * guest took its 2.6 GHz counter for 278 MHz ("PIT calibration deviates
 * from HPET: 278044 2594698 ... Using PIT calibration value"), and its
 * clocks ran 9 to 34 times fast, ending every deadline early.  With the
 * frequency given, the kernel skips the early calibration, and its later
 * refinement accepts only a value within 1 % of it
 * (arch/x86/kernel/tsc.c, tsc_early_khz=: kernel-parameters.txt). */
static char *tcg_tsc_param(const char *accel)
{
	unsigned long khz = strcmp(accel, "kvm") != 0 ? aw_tsc_khz() : 0;
	return khz ? xasprintf(" tsc_early_khz=%lu", khz) : xstrdup("");
}

/* How far the VM's time limit stretches: by the slowness the guest
 * measured of itself, where the limit was the default. */
static double vm_stretch(const struct aw_vm_opts *o, const struct marks *m)
{
	return o->timeout_stretches && m->pace > 0 ? aw_slowness_of(m->pace) : 1;
}

struct qemu_run {
	bool timed_out;
	int status;
	double start, seconds;
	struct marks marks;
};

static int run_qemu(const struct aw_vm_opts *o, struct aw_vm_result *r, int kernel_fd, int initrd_fd,
		    int console_fd, int data_fd, int qemu_err_fd, struct qemu_run *q)
{
	char *kernel = aw_fd_path(kernel_fd), *initrd = aw_fd_path(initrd_fd);
	char *console = xasprintf("file:/proc/self/fd/%d", console_fd);
	char *data = xasprintf("file:/proc/self/fd/%d", data_fd);
	const char *machine = "pc";
	char *memory = xasprintf("%u", o->memory_mb);
	unsigned ncpus = o->cpus ? o->cpus : aw_vm_auto_cpus(1);
	char *cpus = xasprintf("%u", ncpus);
	/* thread=multi: a host thread per vCPU, so that the guest's probes
	 * run side by side (TCG's default for x86 on x86, said here). */
	const char *accel = strcmp(r->accel, "kvm") == 0 ? "kvm" : "tcg,thread=multi";
	const char *cpu = strcmp(r->accel, "kvm") == 0 ? "host" : "max";
	const char *bios = qboot();
	/* panic=-1 and -no-reboot: a panic ends QEMU at once.  mitigations=off:
	 * under TCG page-table isolation and retpolines make every system call
	 * dear (a third of a dirent run), and no user-visible behaviour the
	 * probes look at depends on them; --append mitigations=auto undoes it.
	 * no_timer_check: the boot's check that the timer interrupt arrives
	 * (check_timer()) counts on it arriving within a few of the guest's
	 * ticks; TCG on a busy host misses that window and the kernel panics
	 * with "IO-APIC + timer doesn't work!" (seen with 6.1 at a load of
	 * 15 on 2 CPUs), as virtualized guests commonly do without it
	 * (Documentation/admin-guide/kernel-parameters.txt).  tsc=reliable,
	 * with several vCPUs only: under TCG the boot's TSC warp check
	 * between them fails and the kernel falls back to the HPET, whose
	 * every read traps and which the vDSO cannot serve, though TCG's TSC
	 * is one clock for all vCPUs (with one vCPU there is no check, and
	 * the parameter would only keep 6.1 on tsc-early). */
	char *tsc = tcg_tsc_param(r->accel);
	char *append = xasprintf("console=ttyS0 panic=-1 quiet loglevel=4 no_timer_check " AW_GUEST_RDINIT
				 " 8250.nr_uarts=2 i8042.noaux i8042.nomux i8042.nopnp i8042.dumbkbd"
				 " random.trust_cpu=on mitigations=off%s%s%s%s",
				 ncpus > 1 ? " tsc=reliable" : "", tsc, o->append ? " " : "",
				 o->append ? o->append : "");
	free(tsc);
	const char *argv[40];
	size_t n = 0;
	argv[n++] = o->qemu;
	argv[n++] = "-nodefaults";
	argv[n++] = "-nographic";
	argv[n++] = "-no-reboot";
	argv[n++] = "-machine";
	argv[n++] = machine;
	argv[n++] = "-accel";
	argv[n++] = accel;
	argv[n++] = "-cpu";
	argv[n++] = cpu;
	argv[n++] = "-smp";
	argv[n++] = cpus;
	argv[n++] = "-m";
	argv[n++] = memory;
	if (bios) {
		argv[n++] = "-bios";
		argv[n++] = bios;
	}
	argv[n++] = "-kernel";
	argv[n++] = kernel;
	argv[n++] = "-initrd";
	argv[n++] = initrd;
	argv[n++] = "-append";
	argv[n++] = append;
	argv[n++] = "-serial";
	argv[n++] = console;
	argv[n++] = "-serial";
	argv[n++] = data;
	argv[n++] = "-monitor";
	argv[n++] = "none";
	argv[n] = NULL;

	const int keep[] = { kernel_fd, initrd_fd, console_fd, data_fd, -1 };
	struct aw_spawn how = { .in = -1, .out = qemu_err_fd, .err = qemu_err_fd, .keep = keep,
				.own_pgrp = true };
	double start = aw_now();
	int rc = 0;
	pid_t pid = aw_spawn(argv, &how);
	if (pid < 0) {
		r->why = xasprintf("cannot run %s: %s", o->qemu, strerror(errno));
		rc = -1;
		goto out;
	}
	aw_say(&o->progress, "%s: booting (%s)", r->release, r->accel);
	q->timed_out = false;
	q->start = start;
	for (;;) {
		double deadline = start + o->timeout_s * vm_stretch(o, &q->marks);
		double until = aw_now() + 0.05;
		double limit = q->marks.end > 0 ? q->marks.end + POWEROFF_GRACE_S : deadline;
		if (until > limit)
			until = limit;
		if (aw_wait_until(pid, until, &q->status) == 1)
			break;
		bool paced = q->marks.pace > 0;
		scan_marks(o, r->release, data_fd, &q->marks);
		if (!paced && q->marks.pace > 0)
			aw_say(&o->progress, "%s: pace %.4f s, %.1fx an idle guest's%s", r->release, q->marks.pace,
				 aw_slowness_of(q->marks.pace),
				 o->timeout_stretches ? ", which the time limit follows" : "");
		if (aw_now() >= limit) {
			/* Results complete but no power-off: still a result. */
			q->timed_out = q->marks.end == 0;
			aw_kill_reap(pid);
			q->status = 0;
			break;
		}
	}
	scan_marks(o, r->release, data_fd, &q->marks);
	q->seconds = aw_now() - start;
out:
	free(kernel);
	free(initrd);
	free(console);
	free(data);
	free(memory);
	free(cpus);
	free(append);
	return rc;
}

/* ---- what came back ---- */

/* The console without escape sequences and carriage returns. */
static char *clean_console(const char *s, size_t len)
{
	char *out = xmalloc(len + 1), *p = out;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == 0x1b) { /* ESC [ ... letter, or ESC c */
			if (i + 1 < len && s[i + 1] == '[') {
				i += 2;
				while (i < len && !isalpha((unsigned char)s[i]))
					i++;
			} else {
				i++;
			}
			continue;
		}
		if (c == '\r' || (c < 0x20 && c != '\n' && c != '\t'))
			continue;
		*p++ = (char)c;
	}
	*p = '\0';
	return out;
}

/* The last n lines of text, malloc'd, each indented. */
static char *tail_lines(const char *text, int n)
{
	const char *end = text + strlen(text), *p = end;
	while (p > text && p[-1] == '\n')
		p--;
	const char *stop = p;
	int lines = 0;
	while (p > text && lines < n) {
		p--;
		if (*p == '\n')
			lines++;
	}
	if (*p == '\n')
		p++;
	char *out = xstrdup("");
	while (p < stop) {
		const char *nl = memchr(p, '\n', (size_t)(stop - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(stop - p);
		char *old = out;
		out = xasprintf("%s\n    %.*s", old, (int)l, p);
		free(old);
		p += l + (nl ? 1 : 0);
	}
	return out;
}

static char *find_line(const char *text, const char *needle)
{
	const char *hit = strstr(text, needle);
	if (!hit)
		return NULL;
	const char *start = hit;
	while (start > text && start[-1] != '\n')
		start--;
	return strndup(start, strcspn(start, "\n"));
}

/* Read the guest's stream: lines, and "file NAME LEN" blocks. */
static void parse_stream(const struct aw_vm_opts *o, struct aw_vm_result *r, const char *s,
			 size_t len, bool *ended)
{
	size_t i = 0;
	double run_at = -1;
	bool magic = false;
	*ended = false;
	while (i < len) {
		const char *nl = memchr(s + i, '\n', len - i);
		if (!nl)
			break;
		char *line = strndup(s + i, (size_t)(nl - (s + i)));
		if (!line)
			abort();
		i = (size_t)(nl - s) + 1;
		char name[32];
		size_t flen;
		if (!magic) {
			magic = strcmp(line, AW_GUEST_MAGIC) == 0;
		} else if (sscanf(line, "file %31s %zu", name, &flen) == 2) {
			if (flen > len - i) {
				free(line);
				break;
			}
			if (strcmp(name, "stdout") == 0) {
				r->stdout_data = strndup(s + i, flen);
				r->stdout_len = flen;
			} else if (strcmp(name, "snapshot") == 0) {
				char *err = NULL;
				if (aw_snapshot_parse(s + i, flen, "the guest's snapshot", &r->snapshot, &err) == 0)
					r->has_snapshot = true;
				else
					add_note(r, "%s", err);
				free(err);
			}
			i += flen + 1;
		} else if (strncmp(line, "boot ", 5) == 0) {
			r->guest_init_uptime = strtod(line + 5, NULL);
		} else if (strncmp(line, "run ", 4) == 0) {
			run_at = strtod(line + 4, NULL);
		} else if (strncmp(line, "exit ", 5) == 0) {
			free(r->run_end);
			r->run_end = xstrdup(line + 5);
			char *end;
			long st = strtol(line + 5, &end, 10);
			r->run_status = *end == '\0' && end != line + 5 ? (int)st : -1;
		} else if (strncmp(line, "module ", 7) == 0) {
			if (strstr(line, " error: "))
				add_note(r, "%s", line);
		} else if (strncmp(line, "setup ", 6) == 0) {
			if (strncmp(line + 6, "0 ", 2) != 0)
				add_note(r, "%s", line);
		} else if (strncmp(line, "note ", 5) == 0) {
			add_note(r, "%s", line + 5);
		} else if (strncmp(line, "end ", 4) == 0) {
			*ended = true;
			if (run_at >= 0)
				r->guest_run_uptime = strtod(line + 4, NULL) - run_at;
		}
		free(line);
	}
	if (r->has_snapshot) {
		const char *image = o->deb ? o->deb : o->kernel;
		const char *base = strrchr(image, '/') ? strrchr(image, '/') + 1 : image;
		aw_snapshot_set_env(&r->snapshot, "vm.accel", r->accel);
		aw_snapshot_set_env(&r->snapshot, "vm.image", base);
	}
}

static void collect(const struct aw_vm_opts *o, struct aw_vm_result *r, int console_fd, int data_fd,
		    int qemu_err_fd, const struct qemu_run *q)
{
	char *raw = NULL, *data = NULL, *qerr = NULL;
	size_t raw_len = 0, data_len = 0, qerr_len = 0;
	bool ended = false;

	if (aw_fd_slurp(console_fd, &raw, &raw_len) == 0) {
		r->console = clean_console(raw, raw_len);
		r->console_len = strlen(r->console);
	} else {
		r->console = xstrdup("");
	}
	free(raw);
	if (aw_fd_slurp(data_fd, &data, &data_len) == 0)
		parse_stream(o, r, data, data_len, &ended);
	/* Host seconds from QEMU's start; a mark not seen is 0. */
	const struct marks *mk = &q->marks;
	r->t_kernel = mk->init > 0 ? mk->init - q->start : 0;
	r->t_boot = mk->run > 0 ? mk->run - q->start : 0;
	r->t_run = mk->end > 0 && mk->run > 0 ? mk->end - mk->run : 0;
	r->t_qemu = q->seconds;
	free(data);
	if (aw_fd_slurp(qemu_err_fd, &qerr, &qerr_len) != 0)
		qerr = xstrdup("");

	char *panic = find_line(r->console, "Kernel panic - not syncing");
	char *tail = tail_lines(r->console, 12);
	if (ended && r->run_end && strcmp(r->run_end, "timeout") == 0) {
		r->outcome = AW_VM_TIMEOUT;
		r->why = xasprintf("the run did not end within %.0f s: the guest stopped it after %.1f s "
				   "and sent what it had printed", o->timeout_s * vm_stretch(o, mk), r->t_run);
	} else if (ended) {
		r->outcome = AW_VM_OK;
	} else if (panic) {
		r->outcome = AW_VM_PANIC;
		r->why = xasprintf("the kernel panicked: %s; the console's end:%s", panic, tail);
	} else if (q->timed_out) {
		r->outcome = AW_VM_TIMEOUT;
		r->why = xasprintf("no result within %.0f s (%s); the console's end:%s",
				   o->timeout_s * vm_stretch(o, mk),
				   r->run_end ? "the run ended but its results did not arrive"
				   : r->t_boot > 0 ? "the run had started" : "the run had not started",
				   *tail ? tail : " (empty)");
	} else if (WIFEXITED(q->status) && WEXITSTATUS(q->status) != 0) {
		r->outcome = AW_VM_NO_RESULT;
		qerr[strcspn(qerr, "\n")] = '\0';
		r->why = xasprintf("QEMU failed (exit status %d): %s", WEXITSTATUS(q->status),
				   *qerr ? qerr : "no message");
	} else {
		r->outcome = AW_VM_NO_RESULT;
		r->why = xasprintf("the guest stopped without sending its results; the console's end:%s",
				   *tail ? tail : " (empty)");
	}
	free(panic);
	free(tail);
	free(qerr);
}

unsigned aw_vm_auto_cpus(unsigned guests_at_once)
{
	unsigned share = aw_cpus_usable() / (guests_at_once ? guests_at_once : 1);
	return share < 1 ? 1 : share > AW_VM_AUTO_CPUS_MAX ? AW_VM_AUTO_CPUS_MAX : share;
}

enum aw_vm_outcome aw_vm_run(const struct aw_vm_opts *o, struct aw_vm_result *r)
{
	double start = aw_now();
	int kernel_fd = -1, initrd_fd = -1, console_fd = -1, data_fd = -1, qerr_fd = -1;
	struct aw_modtree tree;
	struct aw_deb_boot boot = { 0 };
	bool have_tree = false;

	memset(r, 0, sizeof(*r));
	r->run_status = -1;
	r->outcome = AW_VM_SETUP;
	aw_modtree_init(&tree);

	char *qemu = aw_which(o->qemu);
	if (!qemu) {
		r->why = xasprintf("%s not found (Debian: apt-get install qemu-system-x86)", o->qemu);
		goto out;
	}
	free(qemu);
	if (prepare_kernel(o, r, &kernel_fd, &tree, &have_tree, &boot) != 0)
		goto out;
	aw_say(&o->progress, "%s: building the initramfs", r->release);
	initrd_fd = aw_anon_file("initramfs");
	console_fd = aw_anon_file("console");
	data_fd = aw_anon_file("results");
	qerr_fd = aw_anon_file("qemu-stderr");
	if (initrd_fd < 0 || console_fd < 0 || data_fd < 0 || qerr_fd < 0) {
		r->why = xasprintf("cannot make a temporary file: %s", strerror(errno));
		goto out;
	}
	if (build_initramfs(o, r, &tree, have_tree, &boot, initrd_fd) != 0)
		goto out;
	aw_deb_boot_free(&boot);
	aw_modtree_free(&tree);
	have_tree = false;
	if (o->save_initramfs) {
		int fd = open(o->save_initramfs, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		struct stat st;
		if (fd < 0 || fstat(initrd_fd, &st) != 0 || aw_fd_copy(fd, initrd_fd, 0, (size_t)st.st_size) != 0) {
			r->why = xasprintf("%s: %s", o->save_initramfs, strerror(errno));
			if (fd >= 0)
				close(fd);
			goto out;
		}
		close(fd);
	}

	if (strcmp(o->accel, "auto") == 0) {
		r->accel_why = aw_kvm_unusable();
		r->accel = xstrdup(r->accel_why ? "tcg" : "kvm");
		if (r->accel_why)
			aw_say(&o->progress, "KVM unusable (%s): TCG", r->accel_why);
	} else {
		r->accel = xstrdup(o->accel);
	}
	r->t_prepare = aw_now() - start;

	struct qemu_run q = { 0 };
	if (run_qemu(o, r, kernel_fd, initrd_fd, console_fd, data_fd, qerr_fd, &q) != 0)
		goto out;
	collect(o, r, console_fd, data_fd, qerr_fd, &q);
	aw_say(&o->progress, "%s: the guest's clock: init at %.2f s, run for %.2f s", r->release,
		 r->guest_init_uptime, r->guest_run_uptime);
out:
	if (have_tree)
		aw_modtree_free(&tree);
	aw_deb_boot_free(&boot);
	int fds[] = { kernel_fd, initrd_fd, console_fd, data_fd, qerr_fd };
	for (size_t i = 0; i < AW_ARRAY_SIZE(fds); i++)
		if (fds[i] >= 0)
			close(fds[i]);
	r->t_total = aw_now() - start;
	return r->outcome;
}

char *aw_vm_summary(const struct aw_vm_result *r)
{
	const char *rel = r->release ? r->release : "?";
	if (r->outcome == AW_VM_SETUP)
		return xasprintf("%s: not started: %s", rel, r->why ? r->why : "?");
	if (r->outcome != AW_VM_OK)
		return xasprintf("%s (%s): %s after %.1f s: %s", rel, r->accel ? r->accel : "?",
				 aw_vm_outcome_name(r->outcome), r->t_total, r->why ? r->why : "?");
	return xasprintf("%s (%s): run exit %s in %.1f s (prepare %.1f s; QEMU %.1f s: init at %.1f s, "
			 "run from %.1f s for %.1f s; %zu modules, initramfs %.1f MiB)",
			 rel, r->accel, r->run_end ? r->run_end : "?", r->t_total, r->t_prepare,
			 r->t_qemu, r->t_kernel, r->t_boot, r->t_run, r->nmodules,
			 (double)r->initramfs_bytes / 1048576.0);
}

int aw_vm_write_text(const char *path, const char *data, size_t len, char **err)
{
	FILE *f = fopen(path, "we");
	if (!f) {
		*err = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	bool ok = fwrite(data, 1, len, f) == len;
	ok = fclose(f) == 0 && ok;
	if (!ok) {
		*err = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
