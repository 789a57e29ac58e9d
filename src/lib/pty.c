// SPDX-License-Identifier: GPL-2.0-or-later
/* Pseudo-terminals from a devpts instance of the caller's own (lib/pty.h). */
#include "lib/pty.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

int aw_devpts_mount(const char *dir, const char *extra)
{
	char opts[256];

	if (mkdir(dir, 0755) != 0 && errno != EEXIST)
		return -errno;
	int n = snprintf(opts, sizeof(opts), "newinstance,ptmxmode=0666,mode=0620%s%s",
			 extra ? "," : "", extra ? extra : "");
	if (n < 0 || (size_t)n >= sizeof(opts))
		return -E2BIG;
	if (mount("devpts", dir, "devpts", MS_NOSUID | MS_NOEXEC, opts) != 0)
		return -errno;
	return 0;
}

int aw_pty_path(const char *dir, int index, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/%d", dir, index);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int aw_pty_open(const char *dir, int flags, int *master, int *slave, int *index)
{
	char path[512];
	int ptn = -1, unlock = 0, m, s;

	int n = snprintf(path, sizeof(path), "%s/ptmx", dir);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	m = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC | flags);
	if (m < 0)
		return -errno;
	if (ioctl(m, TIOCSPTLCK, &unlock) != 0 || ioctl(m, TIOCGPTN, &ptn) != 0) {
		int e = -errno;
		close(m);
		return e;
	}
	aw_pty_path(dir, ptn, path, sizeof(path));
	s = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC | flags);
	if (s < 0) {
		int e = -errno;
		close(m);
		return e;
	}
	*master = m;
	*slave = s;
	if (index)
		*index = ptn;
	return 0;
}

int aw_pty_raw(int fd)
{
	struct termios t;

	if (tcgetattr(fd, &t) != 0)
		return -errno;
	cfmakeraw(&t);
	return tcsetattr(fd, TCSANOW, &t) == 0 ? 0 : -errno;
}
