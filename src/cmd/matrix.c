// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * abiwatch matrix: the VM step for several kernels (and the host, if
 * asked), in parallel up to the number of CPUs, one snapshot per kernel
 * and the diffs between neighbours (kernels in version order).
 *
 * Each kernel is a forked worker that calls aw_vm_run() and writes its
 * files; the host is `abiwatch run` of this very binary.  Workers and
 * their QEMUs have PR_SET_PDEATHSIG: killing matrix kills them all.
 */
#include "commands.h"
#include "vm_commands.h"
#include "guest_options.h"
#include "core/diff.h"
#include "core/snapshot.h"
#include "core/util.h"
#include "vm/kernel.h"
#include "lib/proc.h"
#include "vm/vm.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

static const char matrix_usage[] =
	"Usage: abiwatch matrix [OPTION...] -o DIR KERNEL... [-- RUN-ARGS]\n"
	"Run 'abiwatch run RUN-ARGS' on each kernel in QEMU (as 'abiwatch vm'\n"
	"does), and on this machine's kernel with --host, several at a time, and\n"
	"write into DIR one snapshot per kernel and the diffs between neighbours\n"
	"(the kernels in version order).\n"
	"\n"
	"A KERNEL is a linux-image .deb, a bzImage, or BZIMAGE:MODULES_DIR.\n"
	"\n"
	"Options:\n"
	"  -o, --output DIR     where the results go (made if missing):\n"
	"                       RELEASE.snapshot, RELEASE.ktap, RELEASE.console,\n"
	"                       OLD--NEW.diff, and matrix.txt, a table of outcomes\n"
	"                       and times\n"
	"      --host           also run on this machine's kernel, not in a VM\n"
	"  -j, --jobs N         at most N at a time (default: the number of CPUs)\n"
	;

/* Then aw_guest_options_help, then: */
static const char matrix_usage_more[] =
	"  -q, --quiet          no progress on stderr\n"
	"  -h, --help           show this help and exit\n"
	"\n"
	"Then 'abiwatch report DIR/*.snapshot -o report.html' shows them side by\n"
	"side.  Exit status: 0 every run passed, 1 a run failed or a VM timed out,\n"
	"panicked or sent no result, 4 every check was skipped, 2 bad usage.\n";

enum { OPT_HOST = 0x100 };

static const struct option matrix_options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "host", no_argument, NULL, OPT_HOST },
	{ "jobs", required_argument, NULL, 'j' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* What a worker tells the parent when it is done. */
struct outcome {
	int outcome;      /* enum aw_vm_outcome; AW_VM_OK for the host */
	int run_status;   /* -1: none */
	double t_total, t_prepare, t_kernel, t_boot, t_run;
	char accel[8];
	char why[1024];
};

struct job {
	char *spec;       /* as given */
	char *kernel, *deb, *modules;
	bool host;
	char *release;
	char *label;      /* file names in DIR */
	pid_t pid;
	int pipe_fd;      /* read end of the worker's report */
	bool done;
	struct outcome out;
};

struct matrix {
	const char *dir;
	struct job *jobs;
	size_t njobs;
	unsigned max_jobs;
	bool host, quiet;
	struct aw_vm_opts vm;
};

static unsigned cpus(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

static char *dir_file(const struct matrix *m, const char *label, const char *ext)
{
	return xasprintf("%s/%s.%s", m->dir, label, ext);
}

static int add_job(struct matrix *m, const char *spec)
{
	struct job j = { .spec = xstrdup(spec), .pipe_fd = -1 };
	char *err = NULL;
	if (access(spec, F_OK) != 0 && strchr(spec, ':')) {
		const char *colon = strrchr(spec, ':');
		j.kernel = strndup(spec, (size_t)(colon - spec));
		j.modules = xstrdup(colon + 1);
	} else if (aw_is_deb(spec)) {
		j.deb = xstrdup(spec);
	} else {
		j.kernel = xstrdup(spec);
	}
	j.release = aw_vm_kernel_release(j.deb ? j.deb : j.kernel, &err);
	if (!j.release) {
		int rc = usage_error("matrix", "%s", err);
		free(err);
		free(j.spec);
		free(j.kernel);
		free(j.deb);
		free(j.modules);
		return rc;
	}
	m->jobs = xrealloc(m->jobs, (m->njobs + 1) * sizeof(*m->jobs));
	m->jobs[m->njobs++] = j;
	return 0;
}

static int parse_jobs(const char *arg, unsigned *out)
{
	char *end;
	long n = strtol(arg, &end, 10);
	if (*end || end == arg || n < 1 || n > 256)
		return usage_error("matrix", "--jobs takes a number in [1, 256], not '%s'", arg);
	*out = (unsigned)n;
	return 0;
}

static int parse(int argc, char **argv, struct matrix *m)
{
	struct option *options = aw_guest_options_join(matrix_options);
	int opt, rc = 0;
	optind = 1;
	opterr = 0;
	/* Kernels and options mix; "--" starts RUN-ARGS. */
	while (rc == 0 && (opt = getopt_long(argc, argv, "-:o:j:qh", options, NULL)) != -1) {
		switch (opt) {
		case 1: rc = add_job(m, optarg); break;
		case 'o': m->dir = optarg; break;
		case OPT_HOST: m->host = true; break;
		case 'j': rc = parse_jobs(optarg, &m->max_jobs); break;
		case 'q': m->quiet = true; break;
		case 'h':
			fputs(matrix_usage, stdout);
			fputs(aw_guest_options_help, stdout);
			fputs(matrix_usage_more, stdout);
			rc = -1;
			break;
		case ':':
			rc = usage_error("matrix", "option '%s' needs a value", argv[optind - 1]);
			break;
		default:
			rc = aw_guest_option("matrix", opt, optarg, &m->vm);
			if (rc == AW_GUEST_NOT_MINE)
				rc = usage_error("matrix", "unknown option '%s'", argv[optind - 1]);
			break;
		}
	}
	free(options);
	if (rc != 0)
		return rc;
	m->vm.run_args = argv + optind;
	m->vm.nrun_args = (size_t)(argc - optind);
	if (!m->dir)
		return usage_error("matrix", "-o DIR is needed");
	if (m->njobs == 0 && !m->host)
		return usage_error("matrix", "no kernel given (and no --host)");
	return aw_vm_check_run_args("matrix", m->vm.run_args, m->vm.nrun_args);
}

/* Version order (strverscmp), the host among the others by its release. */
static int by_release(const void *a, const void *b)
{
	const struct job *x = a, *y = b;
	int c = strverscmp(x->release, y->release);
	return c ? c : (int)x->host - (int)y->host;
}

/* File names: the release, made unique. */
static void label_jobs(struct matrix *m)
{
	for (size_t i = 0; i < m->njobs; i++) {
		struct job *j = &m->jobs[i];
		char *base = j->host ? xasprintf("host-%s", j->release) : xstrdup(j->release);
		for (char *p = base; *p; p++)
			if (*p == '/' || *p == ' ')
				*p = '_';
		unsigned n = 1;
		j->label = xstrdup(base);
		for (bool clash = true; clash;) {
			clash = false;
			for (size_t k = 0; k < i && !clash; k++)
				clash = strcmp(m->jobs[k].label, j->label) == 0;
			if (clash) {
				free(j->label);
				j->label = xasprintf("%s-%u", base, ++n);
			}
		}
		free(base);
	}
}

static void write_report(int fd, const struct outcome *o)
{
	(void)aw_write_all(fd, o, sizeof(*o));
}

static void copy_text(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

/* In a worker: one kernel in QEMU. */
static __attribute__((noreturn)) void vm_worker(const struct matrix *m, const struct job *j, int fd)
{
	struct aw_vm_opts o = m->vm;
	struct aw_vm_result r;
	struct outcome out = { .run_status = -1 };
	char *err = NULL;

	o.kernel = j->kernel;
	o.deb = j->deb;
	o.modules = j->modules;
	o.verbose = false;
	aw_vm_run(&o, &r);
	out.outcome = (int)r.outcome;
	out.run_status = r.run_status;
	out.t_total = r.t_total;
	out.t_prepare = r.t_prepare;
	out.t_kernel = r.t_kernel;
	out.t_boot = r.t_boot;
	out.t_run = r.t_run;
	copy_text(out.accel, sizeof(out.accel), r.accel);
	copy_text(out.why, sizeof(out.why), r.why);

	char *ktap = dir_file(m, j->label, "ktap"), *con = dir_file(m, j->label, "console");
	char *snap = dir_file(m, j->label, "snapshot");
	if (r.stdout_data && aw_vm_write_text(ktap, r.stdout_data, r.stdout_len, &err) != 0) {
		copy_text(out.why, sizeof(out.why), err);
		free(err);
		err = NULL;
	}
	if (r.console && aw_vm_write_text(con, r.console, r.console_len, &err) != 0) {
		copy_text(out.why, sizeof(out.why), err);
		free(err);
		err = NULL;
	}
	if (r.outcome == AW_VM_OK && !r.has_snapshot) {
		out.outcome = AW_VM_NO_RESULT;
		snprintf(out.why, sizeof(out.why), "the guest's run wrote no snapshot (it ended: %s)",
			 r.run_end ? r.run_end : "?");
	} else if (r.has_snapshot && aw_snapshot_save(&r.snapshot, snap, &err) != 0) {
		out.outcome = AW_VM_SETUP;
		copy_text(out.why, sizeof(out.why), err);
	}
	write_report(fd, &out);
	free(err);
	free(ktap);
	free(con);
	free(snap);
	aw_vm_result_free(&r);
	_exit(0);
}

/* In a worker: `abiwatch run` here, with this binary. */
static __attribute__((noreturn)) void host_worker(const struct matrix *m, const struct job *j, int fd)
{
	struct outcome out = { .run_status = -1 };
	char *ktap = dir_file(m, j->label, "ktap"), *snap = dir_file(m, j->label, "snapshot");
	int out_fd = open(ktap, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	double start = aw_now();
	const char **argv = xcalloc(m->vm.nrun_args + 5, sizeof(*argv));
	size_t n = 0;
	argv[n++] = "/proc/self/exe";
	argv[n++] = "run";
	argv[n++] = "-o";
	argv[n++] = snap;
	for (size_t i = 0; i < m->vm.nrun_args; i++)
		argv[n++] = m->vm.run_args[i];
	int st = out_fd < 0 ? -1 : aw_run_wait(argv, -1, out_fd, NULL);
	out.outcome = AW_VM_OK;
	out.run_status = st;
	out.t_total = aw_now() - start;
	copy_text(out.accel, sizeof(out.accel), "host");
	if (st < 0) {
		out.outcome = AW_VM_SETUP;
		snprintf(out.why, sizeof(out.why), "abiwatch run could not be run here: %s",
			 out_fd < 0 ? strerror(errno) : "killed");
	}
	write_report(fd, &out);
	free(argv);
	free(ktap);
	free(snap);
	_exit(0);
}

static int start_job(struct matrix *m, struct job *j)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) != 0)
		return -1;
	fflush(NULL);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		close(p[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
		if (j->host)
			host_worker(m, j, p[1]);
		vm_worker(m, j, p[1]);
	}
	close(p[1]);
	j->pid = pid;
	j->pipe_fd = p[0];
	return 0;
}

static void finish_job(struct job *j, int status)
{
	ssize_t n = read(j->pipe_fd, &j->out, sizeof(j->out));
	close(j->pipe_fd);
	j->pipe_fd = -1;
	j->done = true;
	if (n != (ssize_t)sizeof(j->out)) {
		memset(&j->out, 0, sizeof(j->out));
		j->out.outcome = AW_VM_NO_RESULT;
		j->out.run_status = -1;
		snprintf(j->out.why, sizeof(j->out.why), "the worker died (%s %d)",
			 WIFSIGNALED(status) ? "signal" : "exit status",
			 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	}
}

static char *job_line(const struct job *j)
{
	const struct outcome *o = &j->out;
	const char *what = aw_vm_outcome_name((enum aw_vm_outcome)o->outcome);
	if (o->outcome != AW_VM_OK)
		return xasprintf("%s (%s): %s after %.1f s: %s", j->label, o->accel[0] ? o->accel : "-",
				 what, o->t_total, o->why);
	if (j->host)
		return xasprintf("%s: run exit %d in %.1f s", j->label, o->run_status, o->t_total);
	return xasprintf("%s (%s): run exit %d in %.1f s (boot %.1f s, run %.1f s)", j->label, o->accel,
			 o->run_status, o->t_total, o->t_boot, o->t_run);
}

static void run_all(struct matrix *m)
{
	size_t next = 0, running = 0, finished = 0;
	while (finished < m->njobs) {
		while (next < m->njobs && running < m->max_jobs) {
			struct job *j = &m->jobs[next++];
			if (start_job(m, j) != 0) {
				j->done = true;
				j->out.outcome = AW_VM_SETUP;
				j->out.run_status = -1;
				snprintf(j->out.why, sizeof(j->out.why), "fork: %s", strerror(errno));
				finished++;
				continue;
			}
			running++;
			if (!m->quiet)
				fprintf(stderr, "abiwatch matrix: started %s%s\n", j->label,
					j->host ? " (here)" : "");
		}
		if (running == 0)
			continue;
		int status;
		pid_t pid = waitpid(-1, &status, 0);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (size_t i = 0; i < m->njobs; i++) {
			struct job *j = &m->jobs[i];
			if (j->pid != pid || j->done)
				continue;
			finish_job(j, status);
			running--;
			finished++;
			if (!m->quiet) {
				char *line = job_line(j);
				fprintf(stderr, "abiwatch matrix: [%zu/%zu] %s\n", finished, m->njobs, line);
				free(line);
			}
		}
	}
}

/* The neighbour diff, with the diff of `abiwatch diff`.  0 written, 1 no
 * snapshots to compare, -1 error (*err). */
static int neighbour_diff(const char *old_path, const char *new_path, const char *out_path,
			  const char *old_name, const char *new_name, char **err)
{
	struct aw_snapshot a, b;
	if (access(old_path, R_OK) != 0 || access(new_path, R_OK) != 0)
		return 1;
	if (aw_snapshot_load(old_path, &a, err) != 0)
		return -1;
	if (aw_snapshot_load(new_path, &b, err) != 0) {
		aw_snapshot_free(&a);
		return -1;
	}
	struct aw_diff d;
	struct aw_diff_opts opts = { 0 };
	aw_diff_compute(&a, &b, &opts, &d);
	FILE *f = fopen(out_path, "we");
	int rc = 0;
	if (!f) {
		*err = xasprintf("%s: %s", out_path, strerror(errno));
		rc = -1;
	} else {
		aw_diff_text(f, &d, old_name, new_name);
		if (fclose(f) != 0) {
			*err = xasprintf("%s: %s", out_path, strerror(errno));
			rc = -1;
		}
	}
	aw_diff_free(&d);
	aw_snapshot_free(&a);
	aw_snapshot_free(&b);
	return rc;
}

static void write_diffs(const struct matrix *m)
{
	for (size_t i = 0; i + 1 < m->njobs; i++) {
		const struct job *a = &m->jobs[i], *b = &m->jobs[i + 1];
		char *pa = dir_file(m, a->label, "snapshot"), *pb = dir_file(m, b->label, "snapshot");
		char *name = xasprintf("%s--%s", a->label, b->label);
		char *out = dir_file(m, name, "diff"), *err = NULL;
		char *na = xasprintf("%s.snapshot", a->label), *nb = xasprintf("%s.snapshot", b->label);
		if (neighbour_diff(pa, pb, out, na, nb, &err) < 0) {
			fprintf(stderr, "abiwatch matrix: %s\n", err);
			free(err);
		}
		free(pa);
		free(pb);
		free(name);
		free(out);
		free(na);
		free(nb);
	}
}

/* matrix.txt: one line per kernel, for people and for `make bench`. */
static int write_table(const struct matrix *m, char **err)
{
	char *path = xasprintf("%s/matrix.txt", m->dir);
	FILE *f = fopen(path, "we");
	if (!f) {
		*err = xasprintf("%s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	fprintf(f, "# label where outcome exit total_s boot_s run_s source\n");
	for (size_t i = 0; i < m->njobs; i++) {
		const struct job *j = &m->jobs[i];
		const struct outcome *o = &j->out;
		char *what = xstrdup(aw_vm_outcome_name((enum aw_vm_outcome)o->outcome));
		for (char *p = what; *p; p++)
			if (*p == ' ')
				*p = '_';
		fprintf(f, "%s %s %s %d %.2f %.2f %.2f %s\n", j->label, o->accel[0] ? o->accel : "-", what,
			o->run_status, o->t_total, o->t_boot, o->t_run, j->host ? "host" : j->spec);
		if (o->outcome != AW_VM_OK)
			fprintf(f, "#   %s: %s\n", j->label, o->why);
		free(what);
	}
	bool ok = fclose(f) == 0;
	if (!ok)
		*err = xasprintf("%s: %s", path, strerror(errno));
	free(path);
	return ok ? 0 : -1;
}

/* mkdir -p */
static int mkdir_p(const char *dir)
{
	char *copy = xstrdup(dir);
	int rc = 0;
	for (char *p = copy + 1; rc == 0 && *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(copy, 0777) != 0 && errno != EEXIST)
			rc = -1;
		*p = '/';
	}
	if (rc == 0 && mkdir(copy, 0777) != 0 && errno != EEXIST)
		rc = -1;
	free(copy);
	return rc;
}

static int exit_status(const struct matrix *m)
{
	bool failed = false, passed = false;
	for (size_t i = 0; i < m->njobs; i++) {
		const struct outcome *o = &m->jobs[i].out;
		if (o->outcome != AW_VM_OK || (o->run_status != 0 && o->run_status != AW_EXIT_SKIP))
			failed = true;
		else if (o->run_status == 0)
			passed = true;
	}
	return failed ? AW_EXIT_FAIL : passed ? AW_EXIT_PASS : AW_EXIT_SKIP;
}

static void free_matrix(struct matrix *m)
{
	for (size_t i = 0; i < m->njobs; i++) {
		struct job *j = &m->jobs[i];
		free(j->spec);
		free(j->kernel);
		free(j->deb);
		free(j->modules);
		free(j->release);
		free(j->label);
	}
	free(m->jobs);
	aw_guest_opts_free(&m->vm);
}

int cmd_matrix(int argc, char **argv)
{
	struct matrix m = { 0 };
	aw_guest_opts_init(&m.vm);
	char *err = NULL, *accel_why = NULL;
	int rc = parse(argc, argv, &m);
	if (rc != 0)
		goto out;
	if (m.host) {
		struct utsname u;
		struct job j = { .spec = xstrdup("host"), .host = true, .pipe_fd = -1 };
		j.release = xstrdup(uname(&u) == 0 ? u.release : "unknown");
		m.jobs = xrealloc(m.jobs, (m.njobs + 1) * sizeof(*m.jobs));
		m.jobs[m.njobs++] = j;
	}
	if (!m.max_jobs)
		m.max_jobs = cpus();
	if (mkdir_p(m.dir) != 0) {
		rc = usage_error("matrix", "cannot make '%s': %s", m.dir, strerror(errno));
		goto out;
	}
	if (access(m.dir, W_OK | X_OK) != 0) {
		rc = usage_error("matrix", "cannot write in '%s': %s", m.dir, strerror(errno));
		goto out;
	}
	qsort(m.jobs, m.njobs, sizeof(*m.jobs), by_release);
	label_jobs(&m);
	/* One decision for every VM, not one KVM test each. */
	if (strcmp(m.vm.accel, "auto") == 0) {
		accel_why = aw_kvm_unusable();
		m.vm.accel = accel_why ? "tcg" : "kvm";
		if (accel_why && !m.quiet)
			fprintf(stderr, "abiwatch matrix: TCG: KVM unusable (%s)\n", accel_why);
	}
	run_all(&m);
	write_diffs(&m);
	if (write_table(&m, &err) != 0) {
		fprintf(stderr, "abiwatch matrix: %s\n", err);
		rc = AW_EXIT_USAGE;
		goto out;
	}
	rc = exit_status(&m);
	if (!m.quiet)
		fprintf(stderr, "abiwatch matrix: results in %s (matrix.txt, *.snapshot, *.diff)\n", m.dir);
out:
	free(err);
	free(accel_why);
	free_matrix(&m);
	return rc < 0 ? AW_EXIT_PASS : rc;
}
