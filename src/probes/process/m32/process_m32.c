// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * abiwatch-process-m32: the process family's 32-bit caller, built by the
 * Makefile's m32 rule (gcc -m32 -static) into build/m32/.  Its calls
 * enter the kernel through the compat path, where the signal frame, the
 * sigaltstack minimum (COMPAT_MINSIGSTKSZ), the siginfo layout and
 * uname()'s machine are the compat ones.  It reports the compat32
 * probe's items, without the prefix, as lines of the probe protocol on
 * stdout (lib/wire.h):
 *
 *   abiwatch-process-m32 compat [traced]
 *
 * "traced": its tracer (a 64-bit process of the probe's) watches for its
 * getpid(), which it makes first.
 */
#include "lib/errname.h"
#include "lib/wire.h"
#include "probes/process/sigmeasure.h"
/* The m32 rule builds this folder's files and the protocol's writer:
 * the family's measurements come in as source. */
#include "probes/process/sigmeasure.c"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/wait.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

_Static_assert(sizeof(void *) == 4, "build with -m32: the point is the compat entry points");

#ifndef AT_MINSIGSTKSZ
#define AT_MINSIGSTKSZ 51
#endif

static void uname_items(void)
{
	struct utsname u;
	if (uname(&u) != 0)
		aw_out_unobserved("uname_machine", "uname: %s", aw_errname(errno));
	else
		aw_out_observe("uname_machine", "%s", u.machine);
	int old = personality(0xffffffff);
	if (personality(PER_LINUX32) == -1 || uname(&u) != 0)
		aw_out_unobserved("linux32_machine", "personality or uname: %s", aw_errname(errno));
	else
		aw_out_observe("linux32_machine", "%s", u.machine);
	personality((unsigned long)old);
}

static void altstack_items(void)
{
	long min = pm_altstack_min();
	if (min < 0)
		aw_out_unobserved("altstack_min", "sigaltstack of 1 MiB: %s", aw_errname((int)min));
	else
		aw_out_observe("altstack_min", "%ld", min);
	unsigned long at_min = getauxval(AT_MINSIGSTKSZ);
	aw_out_observe("minsigstksz", "%s", at_min ? "present" : "absent");
	if (!at_min) {
		aw_out_skip("altstack_at_minsigstksz", "no AT_MINSIGSTKSZ in the auxiliary vector");
		return;
	}
	/* a frame larger than the stack kills the helper: the probe reports
	 * what it left out */
	int rc = pm_altstack_delivers(at_min);
	if (rc < -1)
		aw_out_fail("altstack_at_minsigstksz", "an alternate stack of AT_MINSIGSTKSZ (%lu B): %s", at_min,
			    aw_errname(rc));
	else
		aw_out_expect("altstack_at_minsigstksz", rc == 1, "the handler %s on the %lu-byte stack",
			      rc == 0 ? "ran, but not" : "did not run", at_min);
}

/* The compat siginfo: si_code, and (fields_item) si_band and si_fd, which
 * the kernel lays out for i386 (a 4-byte long band). */
static void setsig(const char *item, const char *fields_item, int sig)
{
	struct pm_setsig got;
	char fields[64];
	int rc = pm_setsig(sig, &got);
	if (rc == 0) {
		aw_out_observe(item, "%d", got.code);
		pm_setsig_fields(&got, fields, sizeof(fields));
		if (fields_item)
			aw_out_observe(fields_item, "%s", fields);
		return;
	}
	const char *items[] = { item, fields_item };
	for (size_t i = 0; i < 2 && items[i]; i++) {
		if (rc == -ETIMEDOUT)
			aw_out_observe(items[i], "no signal");
		else
			aw_out_unobserved(items[i], "pipe, fcntl or write: %s", aw_errname(rc));
	}
}

int main(int argc, char **argv)
{
	aw_helper_hello(argc, argv);
	if (argc >= 2 && strcmp(argv[1], "compat") == 0) {
		/* first, so that a tracer waiting for it sees it early */
		(void)syscall(SYS_getpid);
		uname_items();
		altstack_items();
		setsig("setsig_rt", "setsig_rt_fields", SIGRTMIN + 8);
		/* "traced": the 64-bit tracer is this process's child (forked
		 * before the exec) and ends once it has reported; its SIGCHLD,
		 * CLD_EXITED, must not be taken for F_SETSIG's (SI_SIGIO): it
		 * is waited for first, while SIGCHLD is still discarded. */
		if (argc >= 3 && strcmp(argv[2], "traced") == 0)
			while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
				;
		setsig("setsig_sigchld", NULL, SIGCHLD);
		return 0;
	}
	fprintf(stderr, "usage: abiwatch-process-m32 --hello | compat [traced]\n");
	return 2;
}
