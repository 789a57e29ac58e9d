// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /init of the initramfs that `abiwatch vm` boots: a static program, built
 * apart from abiwatch (build/vm/abiwatch-init), that
 *
 *   1. mounts /proc, /sys, /dev (devtmpfs), /tmp, /run, /dev/shm, /dev/mqueue,
 *      keeping in the new /tmp and /run what the initramfs holds there (a
 *      --setup program or --file at its host path under /tmp);
 *   2. loads the modules listed in /vm/modules, in order, with finit_module(2)
 *      (the others when the kernel asks: as /sbin/modprobe, this program
 *      loads what /vm/modprobe lists for a name);
 *   3. runs the --setup commands of /vm/setup, each to its end (a FUSE
 *      daemon they fork keeps running), and then
 *      `abiwatch run ARGS -o /vm-out/snapshot` as root with every
 *      capability, its standard output kept, its standard error on the
 *      console, stopped at the deadline the host gave;
 *   4. sends what happened, the output and the snapshot back on /dev/ttyS1
 *      (see ../guest.h), and powers the machine off.
 *
 * Whatever goes wrong, it still reports and powers off: a hang is the
 * host's timeout, never this program's.
 */
#include "vm/guest.h"
#include "lib/pace.h"
#include "lib/steady.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define MAX_ARGS 256
#define MAX_ENV 32

static int port = -1;

static double uptime(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("abiwatch-init: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static void send_all(const void *buf, size_t len)
{
	const char *p = buf;
	while (port >= 0 && len > 0) {
		ssize_t n = write(port, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			say("writing to %s: %s", AW_GUEST_PORT, strerror(errno));
			port = -1;
			return;
		}
		p += n;
		len -= (size_t)n;
	}
}

static void send_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void send_line(const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(buf) - 2)
		n = (int)sizeof(buf) - 2;
	/* One line: no newline inside. */
	for (int i = 0; i < n; i++)
		if (buf[i] == '\n' || buf[i] == '\r')
			buf[i] = ' ';
	buf[n++] = '\n';
	send_all(buf, (size_t)n);
}

static char *slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap + 1);
	for (;;) {
		if (!buf) {
			close(fd);
			return NULL;
		}
		if (n == cap) {
			cap *= 2;
			char *nb = realloc(buf, cap + 1);
			if (!nb) {
				free(buf);
				close(fd);
				return NULL;
			}
			buf = nb;
		}
		ssize_t r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static void send_file(const char *name, const char *path)
{
	size_t len = 0;
	char *data = slurp(path, &len);
	if (!data)
		return;
	send_line("file %s %zu", name, len);
	send_all(data, len);
	send_all("\n", 1);
	free(data);
}

static void mount_one(const char *src, const char *dir, const char *type, unsigned long flags,
		      const char *data)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, flags, data) != 0)
		say("mount %s on %s: %s", type, dir, strerror(errno));
}

static int copy_contents(int from, int to, const char *name, const struct stat *st)
{
	int in = openat(from, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	int out = openat(to, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	off_t left = st->st_size;
	while (in >= 0 && out >= 0 && left > 0) {
		ssize_t n = sendfile(out, in, NULL, (size_t)left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO; /* shorter than it said */
			break;
		}
		left -= n;
	}
	int e = errno, rc = in >= 0 && out >= 0 && left == 0 ? 0 : -1;
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	errno = e;
	return rc;
}

static void move_entries(int from, int to, const char *shown);

/* One entry of the hidden directory from, made again in to, with its
 * mode, and then removed from the initramfs (it would only cost memory). */
static int move_entry(int from, int to, const char *name, const char *shown)
{
	struct stat st;
	int rc;
	if (fstatat(from, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return -1;
	if (S_ISDIR(st.st_mode)) {
		rc = mkdirat(to, name, 0700);
		int f = rc == 0 ? openat(from, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
		int t = f >= 0 ? openat(to, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
		if (t >= 0)
			move_entries(f, t, shown);
		else
			rc = -1;
		if (f >= 0)
			close(f);
		if (t >= 0)
			close(t);
	} else if (S_ISREG(st.st_mode)) {
		rc = copy_contents(from, to, name, &st);
	} else {
		errno = EOPNOTSUPP; /* the host writes only files and directories here */
		rc = -1;
	}
	if (rc == 0)
		rc = fchmodat(to, name, st.st_mode & 07777, 0);
	if (rc == 0)
		rc = unlinkat(from, name, S_ISDIR(st.st_mode) ? AT_REMOVEDIR : 0);
	return rc;
}

static void move_entries(int from, int to, const char *shown)
{
	DIR *d = fdopendir(dup(from));
	if (!d) {
		say("reading %s of the initramfs: %s", shown, strerror(errno));
		return;
	}
	for (struct dirent *e; (e = readdir(d));) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		char path[PATH_MAX];
		snprintf(path, sizeof(path), "%s/%s", shown, e->d_name);
		if (move_entry(from, to, e->d_name, path) != 0)
			say("keeping %s of the initramfs: %s", path, strerror(errno));
	}
	closedir(d);
}

/* A fresh tmpfs on dir that holds what the initramfs has beneath dir
 * (copied through a descriptor of the directory opened before the mount
 * hid it), so that a program there keeps its host path, and with it its
 * rpath and anything that names its own directory. */
static void mount_keeping(const char *dir, const char *data)
{
	mkdir(dir, 0755);
	int old = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (mount("tmpfs", dir, "tmpfs", MS_NOSUID | MS_NODEV, data) != 0) {
		say("mount tmpfs on %s: %s", dir, strerror(errno));
	} else if (old >= 0) {
		int new = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (new >= 0) {
			move_entries(old, new, dir);
			close(new);
		}
	}
	if (old >= 0)
		close(old);
}

static void mount_all(void)
{
	mount_one("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	mount_one("sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	/* As systemd does: the list of active security modules
	 * (/sys/kernel/security/lsm) on kernels before lsm_list_modules(2). */
	mount_one("securityfs", "/sys/kernel/security", "securityfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	mount_one("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, "mode=0755");
	mount_keeping("/tmp", "mode=1777");
	mount_keeping("/run", "mode=0755");
	mount_one("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777");
	mount_one("mqueue", "/dev/mqueue", "mqueue", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	mount_one("devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC, "mode=0620,ptmxmode=0666");
	mount_one("tmpfs", "/vm-out", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755");
}

/* Load one module file; 0 when it is loaded (also: was already). */
static int load_one(const char *dir, const char *rel, char *err, size_t errlen)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	int rc = 0;
	if (syscall(SYS_finit_module, fd, "", 0) != 0 && errno != EEXIST) {
		snprintf(err, errlen, "%s", strerror(errno));
		rc = -1;
	}
	close(fd);
	return rc;
}

/* "kernel/fs/xfs/xfs.ko" -> "xfs" */
static void module_name(const char *rel, char *out, size_t len)
{
	const char *base = strrchr(rel, '/');
	snprintf(out, len, "%s", base ? base + 1 : rel);
	char *dot = strstr(out, ".ko");
	if (dot)
		*dot = '\0';
}

static void load_modules(const char *dir)
{
	size_t len;
	char *list = slurp("/" AW_GUEST_MODULES, &len);
	if (!list || !dir)
		return;
	char *save = NULL;
	for (char *rel = strtok_r(list, "\n", &save); rel; rel = strtok_r(NULL, "\n", &save)) {
		char name[128], err[128];
		module_name(rel, name, sizeof(name));
		if (load_one(dir, rel, err, sizeof(err)) != 0)
			send_line("module %s error: %s", name, err);
		else
			send_line("module %s ok", name);
	}
	free(list);
}

/* Names compare with '-' and '_' alike, as module names do. */
static bool same_name(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (*a != *b && !((*a == '-' || *a == '_') && (*b == '-' || *b == '_')))
			return false;
	return *a == *b;
}

/* /sbin/modprobe [-q] [--] NAME, as the kernel's request_module() runs
 * it: load what vm/modprobe lists for NAME. */
static int modprobe(int argc, char **argv)
{
	const char *name = NULL;
	for (int i = 1; i < argc && !name; i++) {
		if (strcmp(argv[i], "--") == 0)
			name = i + 1 < argc ? argv[i + 1] : NULL;
		else if (argv[i][0] != '-')
			name = argv[i];
	}
	if (!name)
		return 1;
	size_t len;
	char *cfg = slurp("/" AW_GUEST_CONFIG, &len), *dir = NULL, *save = NULL;
	for (char *line = cfg ? strtok_r(cfg, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save))
		if (strncmp(line, "modules ", 8) == 0)
			dir = strdup(line + 8);
	free(cfg);
	char *map = slurp("/" AW_GUEST_MODPROBE, &len);
	int rc = 1;
	save = NULL;
	for (char *line = map ? strtok_r(map, "\n", &save) : NULL; line && dir; line = strtok_r(NULL, "\n", &save)) {
		char *s2 = NULL, *key = strtok_r(line, " ", &s2);
		if (!key || !same_name(key, name))
			continue;
		rc = 0;
		for (char *rel = strtok_r(NULL, " ", &s2); rel; rel = strtok_r(NULL, " ", &s2)) {
			char err[128];
			if (load_one(dir, rel, err, sizeof(err)) != 0) {
				int k = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
				if (k >= 0) {
					dprintf(k, "<4>abiwatch modprobe %s: %s: %s\n", name, rel, err);
					close(k);
				}
				rc = 1;
			}
		}
		break;
	}
	free(map);
	free(dir);
	return rc;
}

struct config {
	/* Uptime on the steady clock (lib/steady.h), which does not take
	 * the leaps of a guest's clock on a busy host. */
	double deadline;
	bool stretch;
	char *modules;
	char *env[MAX_ENV + 1];
	size_t nenv;
};

static void read_config(struct config *c)
{
	size_t len;
	char *text = slurp("/" AW_GUEST_CONFIG, &len);
	c->deadline = 0;
	if (!text)
		return;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "deadline ", 9) == 0)
			c->deadline = strtod(line + 9, NULL);
		else if (strcmp(line, "stretch 1") == 0)
			c->stretch = true;
		else if (strncmp(line, "modules ", 8) == 0)
			c->modules = strdup(line + 8);
		else if (strncmp(line, "env ", 4) == 0 && c->nenv < MAX_ENV)
			c->env[c->nenv++] = strdup(line + 4);
	}
	c->env[c->nenv] = NULL;
	free(text);
}

static int open_port(void)
{
	int fd = open(AW_GUEST_PORT, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		say("%s: %s", AW_GUEST_PORT, strerror(errno));
		return -1;
	}
	struct termios t;
	if (tcgetattr(fd, &t) == 0) {
		cfmakeraw(&t);
		cfsetospeed(&t, B115200);
		cfsetispeed(&t, B115200);
		tcsetattr(fd, TCSANOW, &t);
	}
	return fd;
}

/* The random pool as init found it first thing, and when it was first
 * seen ready (core/guest.h): for the time family's boot probe. */
static char rng_first[32] = "unknown", rng_ready[32] = "no";
static double rng_started;

static bool rng_poll(void)
{
	char buf[16];
	long r = syscall(SYS_getrandom, buf, sizeof(buf), 1 /* GRND_NONBLOCK */);
	return r == (long)sizeof(buf);
}

static void rng_first_look(void)
{
	char buf[16];
	rng_started = uptime();
	long r = syscall(SYS_getrandom, buf, sizeof(buf), 1 /* GRND_NONBLOCK */);
	if (r == (long)sizeof(buf)) {
		snprintf(rng_first, sizeof(rng_first), "ok");
		snprintf(rng_ready, sizeof(rng_ready), "0");
	} else {
		snprintf(rng_first, sizeof(rng_first), "%s", r < 0 && errno == EAGAIN ? "EAGAIN" :
			 r < 0 && errno == ENOSYS ? "ENOSYS" : "error");
	}
}

/* Before the run: ready now, if it was not at first. */
static void rng_second_look(void)
{
	if (strcmp(rng_ready, "no") == 0 && rng_poll())
		snprintf(rng_ready, sizeof(rng_ready), "%.2f", uptime() - rng_started);
}

/* How many times slower than an idle guest this one is (core/guest.h),
 * from the pace measured at boot. */
static double slowness_of(double pace)
{
	double s = pace / AW_PACE_IDLE_GUEST_S;
	return !(s > 1) ? 1 : s > AW_SLOWNESS_MAX ? AW_SLOWNESS_MAX : s;
}

/* The time the run leaves itself, once its budget is up, to settle what
 * did not end and write the snapshot, at an idle guest's speed. */
#define WRAP_UP_S 3.0

static __attribute__((noreturn)) void run_child(char **args, size_t nargs, struct config *c,
						double budget)
{
	char *argv[MAX_ARGS + 8];
	char jobs[24], budget_s[32];
	size_t n = 0;
	/* A probe per vCPU at a time; a --jobs of the user's comes later
	 * and wins. */
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	snprintf(jobs, sizeof(jobs), "%ld", cpus > 0 ? cpus : 1);
	argv[n++] = "abiwatch";
	argv[n++] = "run";
	argv[n++] = "-o";
	argv[n++] = AW_GUEST_SNAPSHOT;
	argv[n++] = "--jobs";
	argv[n++] = jobs;
	for (size_t i = 0; i < nargs && i < MAX_ARGS; i++)
		argv[n++] = args[i];
	argv[n] = NULL;

	setsid();
	int in = open("/dev/null", O_RDONLY);
	int out = open(AW_GUEST_KTAP, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (in >= 0)
		dup2(in, 0);
	if (out >= 0)
		dup2(out, 1);
	clearenv();
	setenv("PATH", "/usr/sbin:/usr/bin:/sbin:/bin", 1);
	setenv("HOME", "/", 1);
	setenv("TMPDIR", "/tmp", 1);
	setenv(AW_GUEST_GETRANDOM_ENV, rng_first, 1);
	setenv(AW_GUEST_GETRANDOM_READY_ENV, rng_ready, 1);
	if (budget > 0) {
		snprintf(budget_s, sizeof(budget_s), "%.1f", budget);
		setenv(AW_GUEST_BUDGET_ENV, budget_s, 1);
	}
	for (size_t i = 0; i < c->nenv; i++)
		putenv(c->env[i]);
	chdir("/");
	execv("/" AW_GUEST_ABIWATCH, argv);
	say("cannot run /%s: %s", AW_GUEST_ABIWATCH, strerror(errno));
	_exit(127);
}

/* One --setup command, split at spaces: its exit status as the stream
 * says it ("0", "1", "signal 9", "exec ENOENT", "timeout"); true for 0. */
static bool run_setup(char *line, double deadline)
{
	char *argv[MAX_ARGS + 1], *save = NULL;
	size_t n = 0;
	char *shown = strdup(line);
	for (char *a = strtok_r(line, " ", &save); a && n < MAX_ARGS; a = strtok_r(NULL, " ", &save))
		argv[n++] = a;
	argv[n] = NULL;
	if (n == 0) {
		free(shown);
		return true;
	}
	int errpipe[2];
	if (pipe2(errpipe, O_CLOEXEC) != 0) {
		send_line("setup pipe %s %s", strerror(errno), shown);
		free(shown);
		return false;
	}
	pid_t pid = fork();
	if (pid == 0) {
		int in = open("/dev/null", O_RDONLY);
		if (in >= 0)
			dup2(in, 0);
		/* Its output goes to the console, where messages are read. */
		dup2(2, 1);
		chdir("/");
		execv(argv[0], argv);
		int e = errno;
		(void)!write(errpipe[1], &e, sizeof(e));
		_exit(127);
	}
	close(errpipe[1]);
	int err = 0;
	bool exec_failed = pid > 0 && read(errpipe[0], &err, sizeof(err)) == (ssize_t)sizeof(err);
	close(errpipe[0]);
	int status = 0;
	bool ended = false;
	while (pid > 0 && !ended) {
		pid_t w = waitpid(pid, &status, WNOHANG);
		ended = w == pid || (w < 0 && errno != EINTR);
		if (!ended && deadline > 0 && aw_steady_now() >= deadline)
			break;
		if (!ended) {
			struct timespec ts = { 0, 10 * 1000 * 1000 };
			nanosleep(&ts, NULL);
		}
	}
	bool ok = false;
	if (pid < 0)
		send_line("setup fork %s %s", strerror(errno), shown);
	else if (exec_failed)
		send_line("setup exec %s %s", strerror(err), shown);
	else if (!ended)
		send_line("setup timeout %s", shown);
	else if (WIFSIGNALED(status))
		send_line("setup signal %d %s", WTERMSIG(status), shown);
	else
		send_line("setup %d %s", WEXITSTATUS(status), shown), ok = WEXITSTATUS(status) == 0;
	free(shown);
	return ok;
}

/* The --setup commands in order; false at the first that fails. */
static bool run_setups(double deadline)
{
	size_t len = 0;
	char *text = slurp("/" AW_GUEST_SETUP, &len);
	bool ok = true;
	char *save = NULL;
	for (char *line = text ? strtok_r(text, "\n", &save) : NULL; line && ok;
	     line = strtok_r(NULL, "\n", &save))
		ok = run_setup(line, deadline);
	free(text);
	return ok;
}

/* The families the run ended since the last look: the top-level lines
 * of its KTAP ("ok 3 mqueue", "not ok 5 net"; subtests are indented),
 * each sent as "family LINE", so that the host can show each as it ends.
 * *seen is how far the file was read, to the last whole line. */
static void announce_families(off_t *seen)
{
	int fd = open(AW_GUEST_KTAP, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	char buf[65536];
	ssize_t n;
	while ((n = pread(fd, buf, sizeof(buf) - 1, *seen)) > 0) {
		buf[n] = '\0';
		char *line = buf, *nl;
		while ((nl = memchr(line, '\n', (size_t)(buf + n - line)))) {
			*nl = '\0';
			if (strncmp(line, "ok ", 3) == 0 || strncmp(line, "not ok ", 7) == 0)
				send_line("family %s", line);
			line = nl + 1;
		}
		if (line == buf && (size_t)n == sizeof(buf) - 1)
			line = buf + n; /* a line longer than buf: not a family's */
		*seen += line - buf;
		if (line < buf + n)
			break; /* a line still being written */
	}
	close(fd);
}

/* Reap everything; return when the run ends or the deadline passes. */
static void wait_run(pid_t pid, double deadline)
{
	off_t seen = 0;
	for (;;) {
		int status;
		pid_t w = waitpid(-1, &status, WNOHANG);
		announce_families(&seen);
		if (w == pid) {
			if (WIFEXITED(status))
				send_line("exit %d", WEXITSTATUS(status));
			else
				send_line("exit signal %d", WTERMSIG(status));
			return;
		}
		if (w > 0)
			continue;
		if (w < 0 && errno == ECHILD) {
			send_line("exit lost");
			return;
		}
		if (deadline > 0 && aw_steady_now() >= deadline) {
			say("the run did not end by %.0f s of uptime: stopping it", deadline);
			kill(-1, SIGKILL); /* everything but init */
			while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
				;
			send_line("exit timeout");
			return;
		}
		struct timespec ts = { 0, 20 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
}

int main(int argc, char **argv)
{
	double started = uptime();
	struct config config = { 0 };
	const char *base = strrchr(argv[0], '/');

	if (strcmp(base ? base + 1 : argv[0], "modprobe") == 0)
		return modprobe(argc, argv);
	if (getpid() != 1) {
		say("this is the /init of an abiwatch VM; it runs as PID 1 only");
		return 2;
	}
	/* Before anything else can feed or wait for the pool. */
	rng_first_look();

	mount_all();
	/* The kernel gave init /dev/console from the initramfs; be sure. */
	if (fcntl(2, F_GETFD) < 0) {
		int con = open("/dev/console", O_RDWR);
		if (con >= 0) {
			dup2(con, 0);
			dup2(con, 1);
			dup2(con, 2);
		}
	}
	setvbuf(stderr, NULL, _IONBF, 0);
	port = open_port();
	send_line("%s", AW_GUEST_MAGIC);
	send_line("boot %.2f", started);
	read_config(&config);
	/* Before anything else runs: the guest's own speed, which the
	 * deadlines follow where the host's timeout was its default. */
	double pace = aw_pace_measure(5);
	double slowness = slowness_of(pace);
	send_line("pace %.4f", pace);
	if (config.stretch && config.deadline > 0)
		config.deadline *= slowness;
	load_modules(config.modules);

	size_t len = 0, nargs = 0;
	char *argtext = slurp("/" AW_GUEST_ARGS, &len);
	char *args[MAX_ARGS];
	for (size_t i = 0; argtext && i < len && nargs < MAX_ARGS; i += strlen(argtext + i) + 1)
		args[nargs++] = argtext + i;

	if (!run_setups(config.deadline)) {
		send_line("exit setup failed");
	} else {
		send_line("run %.2f", uptime());
		rng_second_look();
		/* What the run may use so that it ends, snapshot written,
		 * before the deadline: the rest is settled as starved. */
		double budget = config.deadline > 0
			? config.deadline - aw_steady_now() - WRAP_UP_S * slowness : 0;
		if (config.deadline > 0 && budget < 1)
			budget = 1;
		pid_t pid = fork();
		if (pid == 0)
			run_child(args, nargs, &config, budget);
		if (pid < 0)
			send_line("exit fork: %s", strerror(errno));
		else
			wait_run(pid, config.deadline);
	}

	send_file("stdout", AW_GUEST_KTAP);
	send_file("snapshot", AW_GUEST_SNAPSHOT);
	send_line("end %.2f", uptime());
	if (port >= 0)
		tcdrain(port);
	sync();
	reboot(RB_POWER_OFF);
	/* Not reached; if it were, the kernel must not see init exit. */
	for (;;)
		pause();
}
