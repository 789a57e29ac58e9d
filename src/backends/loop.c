// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sparse images on loop devices that detach themselves.
 *
 * LOOP_CONFIGURE (5.8) attaches the file and sets LO_FLAGS_AUTOCLEAR in
 * one step, so no moment exists in which a SIGKILL could leave a device
 * attached without autoclear; older kernels get LOOP_SET_FD followed by
 * LOOP_SET_STATUS64.  With autoclear the device detaches when its last
 * opener goes: the mount, once made, or our descriptor if the mount fails.
 */
#include "backend.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define ATTACH_TRIES 8

int aw_make_image(const char *path, unsigned long long size)
{
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)size) != 0) {
		int e = -errno;
		close(fd);
		unlink(path);
		return e;
	}
	close(fd);
	return 0;
}

static bool loop_exists(int nr)
{
	char path[64];
	snprintf(path, sizeof(path), "/sys/block/loop%d", nr);
	return access(path, F_OK) == 0;
}

/* One try: a free device, then the image on it.  The descriptor, or -1
 * with *why, or -2 when another process took the device first. */
static int attach_once(int ctl, int backing, const char *image, char **dev, char **why)
{
	int nr = ioctl(ctl, LOOP_CTL_GET_FREE);
	if (nr < 0) {
		int e = errno;
		*why = xasprintf("LOOP_CTL_GET_FREE: %s", strerror(e));
		errno = e;
		return -1;
	}
	char path[64];
	snprintf(path, sizeof(path), "/dev/loop%d", nr);
	int fd = -1;
	for (int i = 0; i < 50 && fd < 0; i++) {
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0 && errno == ENOENT) /* udev-less /dev: the node may lag */
			nanosleep(&(struct timespec){ 0, 2000000 }, NULL);
		else if (fd < 0)
			break;
	}
	if (fd < 0) {
		int e = errno;
		*why = xasprintf("opening %s: %s", path, strerror(e));
		errno = e;
		return -1;
	}

	struct loop_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	cfg.fd = (unsigned)backing;
	cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR;
	snprintf((char *)cfg.info.lo_file_name, sizeof(cfg.info.lo_file_name), "%s", image);
	if (ioctl(fd, LOOP_CONFIGURE, &cfg) == 0) {
		*dev = xstrdup(path);
		return fd;
	}
	if (errno == EBUSY) { /* another process took it meanwhile */
		close(fd);
		errno = EBUSY;
		return -2;
	}
	if (errno != EINVAL && errno != ENOTTY) {
		int e = errno;
		*why = xasprintf("LOOP_CONFIGURE on %s: %s", path, strerror(e));
		close(fd);
		errno = e;
		return -1;
	}
	/* Before 5.8. */
	if (ioctl(fd, LOOP_SET_FD, backing) != 0) {
		int e = errno;
		close(fd);
		if (e == EBUSY)
			return -2;
		*why = xasprintf("LOOP_SET_FD on %s: %s", path, strerror(e));
		return -1;
	}
	struct loop_info64 info;
	memset(&info, 0, sizeof(info));
	info.lo_flags = LO_FLAGS_AUTOCLEAR;
	snprintf((char *)info.lo_file_name, sizeof(info.lo_file_name), "%s", image);
	if (ioctl(fd, LOOP_SET_STATUS64, &info) != 0) {
		*why = xasprintf("LOOP_SET_STATUS64 on %s: %s", path, strerror(errno));
		ioctl(fd, LOOP_CLR_FD, 0);
		close(fd);
		return -1;
	}
	*dev = xstrdup(path);
	return fd;
}

/* The loop devices that exist now, as a bitmap of the first 1024. */
static void existing(unsigned char map[128])
{
	memset(map, 0, 128);
	for (int nr = 0; nr < 1024; nr++)
		if (loop_exists(nr))
			map[nr / 8] |= (unsigned char)(1u << (nr % 8));
}

int aw_loop_attach(const char *image, char **dev, int *created, char **why)
{
	unsigned char before[128];
	*created = -1;
	*dev = NULL;

	int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		int e = errno;
		*why = xasprintf("opening /dev/loop-control: %s", strerror(e));
		errno = e;
		return -1;
	}
	int backing = open(image, O_RDWR | O_CLOEXEC);
	if (backing < 0) {
		*why = xasprintf("opening %s: %s", image, strerror(errno));
		close(ctl);
		return -1;
	}
	int fd = -1;
	for (int i = 0; i < ATTACH_TRIES; i++) {
		existing(before);
		fd = attach_once(ctl, backing, image, dev, why);
		if (fd != -2)
			break;
	}
	if (fd == -2)
		*why = xasprintf("no loop device stayed free in %d tries", ATTACH_TRIES);
	/* GET_FREE hands out an idle device when one exists and makes one
	 * otherwise; a device it made outlives us unless removed. */
	if (fd >= 0) {
		int nr = atoi(*dev + strlen("/dev/loop"));
		if (nr < 1024 && !(before[nr / 8] & (1u << (nr % 8))))
			*created = nr;
	}
	int e = errno;
	close(backing);
	close(ctl);
	errno = e;
	return fd < 0 ? -1 : fd;
}

void aw_loop_remove(int nr)
{
	if (nr < 0)
		return;
	int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return;
	/* The autoclear detach follows the unmount closely but not always at
	 * once: give it a moment. */
	for (int i = 0; i < 100; i++) {
		if (ioctl(ctl, LOOP_CTL_REMOVE, nr) == 0 || errno != EBUSY)
			break;
		nanosleep(&(struct timespec){ 0, 5000000 }, NULL);
	}
	close(ctl);
}
