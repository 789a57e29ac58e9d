// SPDX-License-Identifier: GPL-2.0-or-later
#include "stuck.h"
#include "lib/util.h"
#include "lib/mountinfo.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define FUSECTL "/sys/fs/fuse/connections"

/* The "major:minor" of every FUSE mount in a mountinfo file. */
static size_t fuse_devices(const char *mountinfo, char devs[][32], size_t max)
{
	struct aw_mount *m;
	size_t n, found = 0;

	if (aw_mountinfo_read(mountinfo, &m, &n) != 0)
		return 0;
	for (size_t i = 0; i < n && found < max; i++)
		if (strcmp(m[i].fstype, "fuse") == 0 || strncmp(m[i].fstype, "fuse.", 5) == 0 ||
		    strcmp(m[i].fstype, "fuseblk") == 0)
			snprintf(devs[found++], sizeof(devs[0]), "%u:%u", m[i].major, m[i].minor);
	aw_mountinfo_free(m, n);
	return found;
}

static bool listed(char devs[][32], size_t n, const char *dev)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(devs[i], dev) == 0)
			return true;
	return false;
}

/* In a child with a mount namespace of its own, so that mounting fusectl
 * changes nothing outside: write to each connection's abort file. */
static int abort_connections(char devs[][32], size_t n)
{
	pid_t pid = fork();
	if (pid < 0)
		return 0;
	if (pid == 0) {
		if (unshare(CLONE_NEWNS) != 0 ||
		    mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) != 0)
			_exit(0);
		/* Already mounted on the host, or mounted here now. */
		(void)mount("fusectl", FUSECTL, "fusectl", 0, NULL);
		int done = 0;
		for (size_t i = 0; i < n; i++) {
			unsigned minor;
			if (sscanf(devs[i], "%*u:%u", &minor) != 1)
				continue;
			char path[96];
			snprintf(path, sizeof(path), FUSECTL "/%u/abort", minor);
			int fd = open(path, O_WRONLY | O_CLOEXEC);
			if (fd >= 0 && write(fd, "1", 1) == 1)
				done++;
			if (fd >= 0)
				close(fd);
		}
		_exit(done > 255 ? 255 : done);
	}
	int status;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 0;
	return WEXITSTATUS(status);
}

int aw_abort_own_fuse(pid_t pid)
{
	static char theirs[64][32], ours[256][32], own[64][32];
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/mountinfo", (int)pid);
	size_t nt = fuse_devices(path, theirs, 64);
	size_t no = fuse_devices("/proc/self/mountinfo", ours, 256);
	size_t n = 0;
	for (size_t i = 0; i < nt; i++)
		if (!listed(ours, no, theirs[i]))
			memcpy(own[n++], theirs[i], sizeof(own[0]));
	return n ? abort_connections(own, n) : 0;
}

static bool same_pidns(pid_t a, const struct stat *ns)
{
	char path[64];
	struct stat st;
	snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int)a);
	return stat(path, &st) == 0 && st.st_ino == ns->st_ino && st.st_dev == ns->st_dev;
}

/* State letter, name and CPU ticks (utime + stime) of a process, from
 * /proc/PID/stat. */
static bool proc_stat(pid_t pid, char *state, char *comm, size_t len, unsigned long long *ticks)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	char *open = strchr(buf, '('), *close = strrchr(buf, ')');
	if (!open || !close || close[1] != ' ')
		return false;
	snprintf(comm, len, "%.*s", (int)(close - open - 1), open + 1);
	*state = close[2];
	/* After the state: ppid pgrp session tty_nr tpgid flags minflt
	 * cminflt majflt cmajflt utime stime (proc(5), fields 4 to 15). */
	unsigned long long utime = 0, stime = 0;
	if (sscanf(close + 3, "%*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime,
		   &stime) != 2)
		utime = stime = 0;
	*ticks = utime + stime;
	return true;
}


static char *wchan(pid_t pid)
{
	char path[64], buf[128] = "";
	snprintf(path, sizeof(path), "/proc/%d/wchan", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t n = read(fd, buf, sizeof(buf) - 1);
		buf[n > 0 ? n : 0] = '\0';
		close(fd);
	}
	return xstrdup(buf[0] && strcmp(buf, "0") != 0 ? buf : "?");
}

char *aw_describe_stuck(pid_t pid)
{
	char path[64];
	struct stat ns;
	snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int)pid);
	if (stat(path, &ns) != 0)
		return NULL;
	DIR *d = opendir("/proc");
	if (!d)
		return NULL;
	char *out = NULL;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		pid_t p = (pid_t)atoi(e->d_name);
		char state, comm[64];
		unsigned long long ticks;
		if (!same_pidns(p, &ns) || !proc_stat(p, &state, comm, sizeof(comm), &ticks) ||
		    state != 'D')
			continue;
		char *w = wchan(p);
		char *more = xasprintf("%s%spid %d (%s) in uninterruptible sleep in %s",
				       out ? out : "", out ? "; " : "", (int)p, comm, w);
		free(w);
		free(out);
		out = more;
	}
	closedir(d);
	return out;
}

struct aw_pidns_activity aw_pidns_activity(pid_t pid)
{
	struct aw_pidns_activity a = { 0 };
	char path[64];
	struct stat ns;
	snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int)pid);
	DIR *d = stat(path, &ns) == 0 ? opendir("/proc") : NULL;
	if (!d)
		return a;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		pid_t p = (pid_t)atoi(e->d_name);
		char state, comm[64];
		unsigned long long ticks;
		if (!same_pidns(p, &ns) || !proc_stat(p, &state, comm, sizeof(comm), &ticks))
			continue;
		a.ticks += ticks;
		a.runnable |= state == 'R';
	}
	closedir(d);
	return a;
}
