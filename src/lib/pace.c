// SPDX-License-Identifier: GPL-2.0-or-later
#include "pace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The unit of work.  Probes mostly make processes, call the kernel and
 * fault in memory, and an emulated CPU slows each of those by its own
 * factor, so the unit has some of each rather than a loop alone. */
#define PACE_FORKS 8
#define PACE_SYSCALLS 2000
#define PACE_PAGES 256
#define PACE_ROUNDS 200000
#define PACE_SAMPLES_MAX 15

static double monotonic(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int forks(void)
{
	for (int i = 0; i < PACE_FORKS; i++) {
		pid_t pid = fork();
		if (pid == 0)
			_exit(0);
		if (pid < 0)
			return -1;
		while (waitpid(pid, NULL, 0) < 0)
			if (errno != EINTR)
				return -1;
	}
	return 0;
}

static void syscalls(void)
{
	for (int i = 0; i < PACE_SYSCALLS; i++)
		(void)syscall(SYS_getppid);
}

static int pages(void)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)(page > 0 ? page : 4096) * PACE_PAGES;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	for (size_t off = 0; off < len; off += (size_t)(page > 0 ? page : 4096))
		p[off] = 1;
	munmap(p, len);
	return 0;
}

static void arithmetic(void)
{
	volatile unsigned long x = 1;
	for (unsigned long i = 0; i < PACE_ROUNDS; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
}

double aw_pace_sample(void)
{
	double start = monotonic();
	if (forks() != 0)
		return 0;
	syscalls();
	if (pages() != 0)
		return 0;
	arithmetic();
	double took = monotonic() - start;
	return took > 0 ? took : 0;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double aw_pace_measure(unsigned n)
{
	double v[PACE_SAMPLES_MAX];
	unsigned got = 0;
	if (n < 1)
		n = 1;
	if (n > PACE_SAMPLES_MAX)
		n = PACE_SAMPLES_MAX;
	for (unsigned i = 0; i < n; i++) {
		double s = aw_pace_sample();
		if (s > 0)
			v[got++] = s;
	}
	if (got == 0)
		return 0;
	qsort(v, got, sizeof(v[0]), by_value);
	return v[got / 2];
}

long long aw_pace_cpu_stall_us(void)
{
	char buf[256];
	int fd = open("/proc/pressure/cpu", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* "some avg10=0.00 avg60=0.00 avg300=0.00 total=12345" */
	const char *t = strstr(buf, "total=");
	if (strncmp(buf, "some ", 5) != 0 || !t)
		return -1;
	return strtoll(t + 6, NULL, 10);
}
