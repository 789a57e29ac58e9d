// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The time family: clocks, posix timers, the vDSO, time namespaces,
 * randomness at boot and the clock-adjustment interfaces, read-only on a
 * host.  Time broke user space in ways that take weeks to notice:
 * CLOCK_MONOTONIC counted suspend for three weeks of 4.17-rc (d6ed449afdb3,
 * reverted by a3ed0e4393d6) and systemd's watchdogs fired after resume;
 * CRIU relies on posix timer ids handed out in order, so 6.15 added
 * PR_TIMER_CREATE_RESTORE_IDS (ec2d0c04624b) instead of changing the
 * allocation; boot hung in getrandom() twice (reverted by 72dbcf721566
 * and 0313bc278dac); 6.11 put getrandom into the vDSO.  No item is
 * decided by timing: what depends on it is a bound (never backwards
 * within N reads, an overrun of at least one) or a coarse bucket
 * (docs/catalogue.md, "time").
 */
#include "time.h"
#include "lib/errname.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

const char *const time_clock_names[TIME_NCLOCKS] = {
	"realtime", "monotonic", "process_cputime", "thread_cputime", "monotonic_raw",
	"realtime_coarse", "monotonic_coarse", "boottime", "realtime_alarm", "boottime_alarm",
	"sgi_cycle", "tai", "12", "13", "14", "15",
};

const char *time_res(char buf[TIME_RES_LEN], long long rc, int err)
{
	if (rc < 0)
		return aw_errname(err);
	snprintf(buf, TIME_RES_LEN, "%lld", rc);
	return buf;
}

const char *time_ok(long rc, int err)
{
	return rc == 0 ? "ok" : aw_errname(err);
}

void time_wait_readable(int fd)
{
	char c;
	while (read(fd, &c, 1) < 0 && errno == EINTR)
		;
}

pid_t time_waiting_child(int *gate, const char **what)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) != 0) {
		*what = "pipe";
		return -errno;
	}
	pid_t pid = fork();
	if (pid == 0) {
		close(p[1]);
		time_wait_readable(p[0]);
		_exit(0);
	}
	int err = errno;
	close(p[0]);
	if (pid < 0) {
		close(p[1]);
		*what = "fork";
		return -err;
	}
	*gate = p[1];
	return pid;
}

void time_child_release(pid_t pid, int gate)
{
	close(gate);
	waitpid(pid, NULL, 0);
}

long long time_ns(const struct timespec *ts)
{
	return (long long)ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

long long time_secs(long long ns)
{
	return (ns + (ns >= 0 ? 500000000LL : -500000000LL)) / 1000000000LL;
}

static const struct aw_probe *const tables[] = {
	time_clock_probes, time_timer_probes, time_vdso_probes, time_timens_probes,
	time_random_probes, time_adjust_probes, time_compat_probes, NULL,
};

static const struct aw_family time_family = {
	.name = "time",
	.summary = "clocks, posix timers, the vDSO, time namespaces, getrandom and boot entropy, adjtimex",
	.tables = tables,
	.helper32 = TIME_HELPER,
};

AW_FAMILY(time_family);
