// SPDX-License-Identifier: GPL-2.0-or-later
/* Several kernels at once: see matrix.h. */
#include "matrix.h"
#include "kernel.h"
#include "lib/debver.h"
#include "lib/proc.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

/* How many jobs run at once. */
static unsigned matrix_limit(const struct aw_matrix *m)
{
	return m->max_jobs ? m->max_jobs : aw_cpus_usable();
}

char *aw_matrix_file(const struct aw_matrix *m, const char *label, const char *ext)
{
	return xasprintf("%s/%s.%s", m->dir, label, ext);
}

int aw_matrix_add_kernel(struct aw_matrix *m, const char *spec, char **err)
{
	struct aw_kernel_spec k;
	if (aw_kernel_spec_parse(spec, true, &k, err) != 0)
		return -1;
	struct aw_matrix_job j = { .spec = xstrdup(spec), .pipe_fd = -1, .kernel = k.kernel,
				   .deb = k.deb, .modules = k.modules, .release = k.release,
				   .package = k.package, .version = k.version };
	m->jobs = xgrow(m->jobs, m->njobs, sizeof(*m->jobs));
	m->jobs[m->njobs++] = j;
	return 0;
}

void aw_matrix_add_host(struct aw_matrix *m)
{
	struct utsname u;
	struct aw_matrix_job j = { .spec = xstrdup("host"), .host = true, .pipe_fd = -1 };
	j.release = xstrdup(uname(&u) == 0 ? u.release : "unknown");
	m->jobs = xgrow(m->jobs, m->njobs, sizeof(*m->jobs));
	m->jobs[m->njobs++] = j;
}

/* Version order: two packages as Debian orders their versions
 * (6.1.192-2 before 6.1.192-3, of one release), anything else by release
 * (strverscmp), the host among the others by its release. */
static int by_release(const void *a, const void *b)
{
	const struct aw_matrix_job *x = a, *y = b;
	int c = x->version && y->version ? aw_debver_cmp(x->version, y->version) : 0;
	if (c == 0)
		c = strverscmp(x->release, y->release);
	return c ? c : (int)x->host - (int)y->host;
}

char *aw_matrix_package_id(const struct aw_matrix_job *j)
{
	return j->package && j->version ? xasprintf("%s %s", j->package, j->version) : NULL;
}

static bool same_file(const char *a, const char *b)
{
	char *ra = realpath(a, NULL), *rb = realpath(b, NULL);
	bool same = ra && rb && strcmp(ra, rb) == 0;
	free(ra);
	free(rb);
	return same;
}

bool aw_matrix_same_kernel(const struct aw_matrix *m, size_t *a, size_t *b)
{
	for (size_t i = 0; i < m->njobs; i++)
		for (size_t k = i + 1; k < m->njobs; k++) {
			const struct aw_matrix_job *x = &m->jobs[i], *y = &m->jobs[k];
			if (x->host || y->host)
				continue;
			char *px = aw_matrix_package_id(x), *py = aw_matrix_package_id(y);
			bool same = (px && py && strcmp(px, py) == 0) || same_file(x->spec, y->spec);
			free(px);
			free(py);
			if (same) {
				*a = i;
				*b = k;
				return true;
			}
		}
	return false;
}

/* File names: the release, made unique. */
static void label_jobs(struct aw_matrix *m)
{
	for (size_t i = 0; i < m->njobs; i++) {
		struct aw_matrix_job *j = &m->jobs[i];
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

void aw_matrix_order(struct aw_matrix *m)
{
	qsort(m->jobs, m->njobs, sizeof(*m->jobs), by_release);
	label_jobs(m);
}

static void write_report(int fd, const struct aw_matrix_outcome *o)
{
	(void)aw_write_all(fd, o, sizeof(*o));
}

static void copy_text(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

/* What a VM's result says, in the report's fixed-size form. */
static void take_result(const struct aw_vm_result *r, struct aw_matrix_outcome *out)
{
	out->outcome = (int)r->outcome;
	out->run_status = r->run_status;
	out->t_total = r->t_total;
	out->t_prepare = r->t_prepare;
	out->t_kernel = r->t_kernel;
	out->t_boot = r->t_boot;
	out->t_run = r->t_run;
	copy_text(out->accel, sizeof(out->accel), r->accel);
	copy_text(out->why, sizeof(out->why), r->why);
}

/* Write data to DIR/LABEL.EXT; a failure becomes the outcome's why. */
static void write_job_file(const struct aw_matrix *m, const struct aw_matrix_job *j,
			   const char *ext, const char *data, size_t len,
			   struct aw_matrix_outcome *out)
{
	char *path = aw_matrix_file(m, j->label, ext), *err = NULL;
	if (data && aw_vm_write_text(path, data, len, &err) != 0)
		copy_text(out->why, sizeof(out->why), err);
	free(err);
	free(path);
}

/* The guest's snapshot, or why there is none. */
static void save_snapshot(const struct aw_matrix *m, const struct aw_matrix_job *j,
			  const struct aw_vm_result *r, struct aw_matrix_outcome *out)
{
	char *path = aw_matrix_file(m, j->label, "snapshot"), *err = NULL;
	if (r->outcome == AW_VM_OK && !r->has_snapshot) {
		out->outcome = AW_VM_NO_RESULT;
		snprintf(out->why, sizeof(out->why), "the guest's run wrote no snapshot (it ended: %s)",
			 r->run_end ? r->run_end : "?");
	} else if (r->has_snapshot && aw_snapshot_save(&r->snapshot, path, &err) != 0) {
		out->outcome = AW_VM_SETUP;
		copy_text(out->why, sizeof(out->why), err);
	}
	free(err);
	free(path);
}

/* In a worker: one kernel in QEMU. */
static __attribute__((noreturn)) void vm_worker(const struct aw_matrix *m,
						 const struct aw_matrix_job *j, int fd)
{
	struct aw_vm_opts o = m->vm;
	struct aw_vm_result r;
	struct aw_matrix_outcome out = { .run_status = -1 };

	o.kernel = j->kernel;
	o.deb = j->deb;
	o.modules = j->modules;
	o.verbose = false;
	aw_vm_run(&o, &r);
	char *id = aw_matrix_package_id(j);
	if (id && r.has_snapshot)
		aw_snapshot_set_env(&r.snapshot, "vm.package", id);
	free(id);
	take_result(&r, &out);
	write_job_file(m, j, "ktap", r.stdout_data, r.stdout_len, &out);
	write_job_file(m, j, "console", r.console, r.console_len, &out);
	save_snapshot(m, j, &r, &out);
	write_report(fd, &out);
	aw_vm_result_free(&r);
	_exit(0);
}

/* In a worker: `abiwatch run` here, with this binary. */
static __attribute__((noreturn)) void host_worker(const struct aw_matrix *m,
						   const struct aw_matrix_job *j, int fd)
{
	struct aw_matrix_outcome out = { .run_status = -1 };
	char *ktap = aw_matrix_file(m, j->label, "ktap"), *snap = aw_matrix_file(m, j->label, "snapshot");
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

static int start_job(struct aw_matrix *m, struct aw_matrix_job *j)
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

static void finish_job(struct aw_matrix_job *j, int status)
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

/* A job that could not even be forked ends at once. */
static void fork_failed(struct aw_matrix_job *j)
{
	j->done = true;
	j->out.outcome = AW_VM_SETUP;
	j->out.run_status = -1;
	snprintf(j->out.why, sizeof(j->out.why), "fork: %s", strerror(errno));
}

/* Start jobs from *next on while fewer than the limit run. */
static void start_more(struct aw_matrix *m, size_t *next, size_t *running, size_t *finished)
{
	unsigned limit = matrix_limit(m);
	while (*next < m->njobs && *running < limit) {
		struct aw_matrix_job *j = &m->jobs[(*next)++];
		if (j->reused) {
			(*finished)++;
			continue;
		}
		if (start_job(m, j) != 0) {
			fork_failed(j);
			(*finished)++;
			continue;
		}
		(*running)++;
		if (m->started)
			m->started(j, m->arg);
	}
}

/* The job whose worker pid ended, or NULL. */
static struct aw_matrix_job *job_of(struct aw_matrix *m, pid_t pid)
{
	for (size_t i = 0; i < m->njobs; i++)
		if (m->jobs[i].pid == pid && !m->jobs[i].done)
			return &m->jobs[i];
	return NULL;
}

void aw_matrix_run(struct aw_matrix *m)
{
	size_t next = 0, running = 0, finished = 0;
	/* One number of vCPUs for every guest, so that their values sized
	 * from the CPUs compare: the CPUs shared among the guests that run
	 * at once. */
	if (!m->vm.cpus) {
		unsigned at_once = matrix_limit(m), to_run = 0;
		for (size_t i = 0; i < m->njobs; i++)
			to_run += !m->jobs[i].reused;
		m->vm.cpus = aw_vm_auto_cpus(at_once < to_run ? at_once : (to_run ? to_run : 1));
	}
	while (finished < m->njobs) {
		start_more(m, &next, &running, &finished);
		if (running == 0)
			continue;
		int status;
		pid_t pid = waitpid(-1, &status, 0);
		if (pid < 0 && errno == EINTR)
			continue;
		if (pid < 0)
			break;
		struct aw_matrix_job *j = job_of(m, pid);
		if (!j)
			continue;
		finish_job(j, status);
		running--;
		finished++;
		if (m->finished)
			m->finished(j, finished, m->njobs, m->arg);
	}
}

void aw_matrix_free(struct aw_matrix *m)
{
	for (size_t i = 0; i < m->njobs; i++) {
		struct aw_matrix_job *j = &m->jobs[i];
		free(j->spec);
		free(j->kernel);
		free(j->deb);
		free(j->modules);
		free(j->release);
		free(j->package);
		free(j->version);
		free(j->label);
	}
	free(m->jobs);
	m->jobs = NULL;
	m->njobs = 0;
}
