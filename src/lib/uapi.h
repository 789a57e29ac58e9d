/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Values of the kernel's interface newer than the C library's headers
 * the build may have (Debian 12: glibc 2.36, linux-libc-dev 6.1), that
 * more than one family passes: one place for each number, as the
 * kernel's uapi headers give it (as of 6.18).  The headers that would
 * define them come first, so that their own definition wins.
 */
#ifndef ABIWATCH_LIB_UAPI_H
#define ABIWATCH_LIB_UAPI_H

#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/random.h>

/* memfd_create(2): include/uapi/linux/memfd.h (6.3) */
#ifndef MFD_NOEXEC_SEAL
#define MFD_NOEXEC_SEAL 0x0008U
#endif
#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U
#endif
/* pidfd_open(2): include/uapi/linux/pidfd.h (5.10) */
#ifndef PIDFD_NONBLOCK
#define PIDFD_NONBLOCK O_NONBLOCK
#endif
/* getrandom(2): include/uapi/linux/random.h (5.6) */
#ifndef GRND_INSECURE
#define GRND_INSECURE 0x0004
#endif
/* clone(2), clone3(2): include/uapi/linux/sched.h (5.6, 5.5) */
#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif
#ifndef CLONE_CLEAR_SIGHAND
#define CLONE_CLEAR_SIGHAND 0x100000000ULL
#endif

#endif
