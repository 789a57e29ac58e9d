/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the host (src/vm/vm.c) and the guest's init (src/vm/init/init.c)
 * agree on: where things are in the initramfs, and the stream the guest
 * sends back on its second serial port (ttyS1, a file on the host).
 *
 * The stream is lines, except that "file NAME LEN" is followed by LEN raw
 * bytes and a newline:
 *
 *   abiwatch-vm 1
 *   boot 1.62                  uptime (s) when init started
 *   pace 0.0312                seconds the guest took for lib/pace.h's
 *                              unit of work, just after boot
 *   module xfs ok              or: module xfs error: File exists
 *   note TEXT                  anything worth showing the user
 *   setup 0 /x/cookiefs /mnt   a --setup command's exit status (or
 *                              "signal N", "exec ENOENT", "timeout"); the
 *                              run starts only when each says 0
 *   run 1.80                   uptime when `abiwatch run` started
 *   family ok 3 mqueue         a top-level line of its KTAP, as each
 *                              family ends (for the host's progress)
 *   exit 0                     its exit status; or "signal 9", "timeout"
 *   file ktap 12345            its standard output
 *   file snapshot 6789         the snapshot it wrote, when it wrote one
 *   end 4.31                   uptime at the end; nothing follows
 *
 * A stream without "end" means the guest died on the way (a panic, a
 * hang, a kernel that cannot run init).
 */
#ifndef ABIWATCH_VM_GUEST_H
#define ABIWATCH_VM_GUEST_H

#include "core/guest.h"

#define AW_GUEST_MAGIC "abiwatch-vm 1"

#define AW_GUEST_ABIWATCH "usr/bin/abiwatch"
/* aw_helper_path() looks in <exe dir>/../libexec/abiwatch/. */
#define AW_GUEST_HELPERS "usr/libexec/abiwatch"
/* The modules init loads at boot: one path a line (relative to the
 * "modules DIR" of vm/config), in load order. */
#define AW_GUEST_MODULES "vm/modules"
/* "NAME PATH..." lines: what /sbin/modprobe NAME loads, in order, for the
 * kernel's request_module() ("fs-xfs" on the first mount of an xfs).
 * /sbin/modprobe is init itself. */
#define AW_GUEST_MODPROBE "vm/modprobe"
/* Commands to run before the probes, one a line, arguments separated by
 * single spaces; each must exit 0 (a daemon it forks keeps running). */
#define AW_GUEST_SETUP "vm/setup"
/* The arguments of `abiwatch run`, each ended by a NUL byte. */
#define AW_GUEST_ARGS "vm/args"
/* "KEY VALUE" lines: "deadline SECONDS" (uptime by which the run is
 * stopped, so that what it found still gets out before the host's
 * timeout), "stretch 1" (the host's timeout was its default: both sides
 * stretch it by the guest's slowness, which the host learns from the
 * "pace" line), "modules DIR" (lib/modules/RELEASE), "env NAME=VALUE". */
#define AW_GUEST_CONFIG "vm/config"
/* Where the run writes, in the guest. */
#define AW_GUEST_SNAPSHOT "/vm-out/snapshot"
#define AW_GUEST_KTAP "/vm-out/ktap"
/* The data port: the second serial port. */
#define AW_GUEST_PORT "/dev/ttyS1"

/* Where the host puts nothing of the user's (a --file GUEST path, a
 * --setup program, their libraries), each with all beneath it.  Init
 * mounts a fresh filesystem on these and keeps nothing the initramfs holds
 * beneath them: the kernel's own, and the run's output. */
#define AW_GUEST_MOUNTED_OVER "/proc", "/sys", "/dev", "/vm-out"
/* init's own files. */
#define AW_GUEST_OWN "/" AW_GUEST_INIT, "/vm", "/sbin/modprobe", "/" AW_GUEST_ABIWATCH, \
		"/" AW_GUEST_HELPERS
/* /tmp and /run init mounts too, but it copies what the initramfs holds
 * there into the new tmpfs first: a program under /tmp on the host runs
 * at the same path in the guest. */

#endif
