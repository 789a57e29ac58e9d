// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * surface.flags: which flag bits and command values the calls programs
 * use accept.  The table below (SURFACE_FLAGS) names each flag; for each,
 * the call is made with that flag and every other argument valid, in the
 * probe's scratch tmpfs, and the item is "accepted" or the errno.  A
 * kernel that does not know a flag answers EINVAL (or EOPNOTSUPP for
 * mmap(MAP_SHARED_VALIDATE): mmap(2)), so a flag that appears or vanishes
 * is one diff line named after it (in lower case, as item names are:
 * memfd_create.mfd_exec): MFD_EXEC and MFD_NOEXEC_SEAL (6.3,
 * memfd_create(2)), O_DIRECT on tmpfs (6.6), PIDFD_THREAD (6.9,
 * pidfd_open(2)), MAP_ABOVE4G (6.6), MAP_DROPPABLE (6.11),
 * MOVE_MOUNT_BENEATH (6.5),
 * F_DUPFD_QUERY (6.10) and F_CREATED_QUERY (6.12, fcntl(2)), PR_GET_AUXV
 * and PR_GET_MEMORY_MERGE (6.4, prctl(2)).  Then, for each flags word,
 * NAME.other_bits: the bits no name covers that the call accepts, one
 * bit at a time, so that a bit nobody named yet shows too (open(2)
 * ignores unknown bits, openat2(2) refuses them: "unknown flags are
 * rejected with EINVAL"); of openat's, openat.ignored_bits are those
 * F_GETFL does not give back, accepted and ignored.  rseq(2)'s flags are
 * tried in a child that undid the C library's registration and made its
 * own (RSEQ_FLAG_UNREGISTER of it is accepted).  prctl and fcntl are
 * swept by named values only, with harmless arguments (the GET forms).  statx's returned masks
 * per filesystem name the fields each fills (statx(2): stx_mask), and
 * membarrier(MEMBARRIER_CMD_QUERY) names the commands it has
 * (membarrier(2)).  clone3(2)'s flags are tried with a child that exits
 * at once; the bits that would share the probe's memory or make a thread
 * (CLONE_VM, CLONE_SIGHAND, CLONE_THREAD, CLONE_SETTLS) or give the child
 * to the runner (CLONE_PARENT) are neither named nor swept, nor is
 * CLONE_NEWNET: a network namespace per run is dear to make and to tear
 * down (asynchronously, on the host's workqueues), for a flag that has
 * not changed since 2.6.24.  Whatever a call makes (a descriptor, a mapping, a
 * whiteout) is undone at once or dies with the probe; a flag that acts
 * on the machine (MADV_HWPOISON, MADV_SOFT_OFFLINE) is not in the table.
 */
#include "surface.h"
#include "lib/bitnames.h"
#include "lib/caps.h"
#include "lib/child.h"
#include "lib/errname.h"
#include "lib/util.h"
#include "lib/uapi.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/openat2.h>
#include <linux/stat.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/rseq.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

/* Values newer than the build's headers (uapi, as of 6.18). */
#ifndef MAP_DROPPABLE
#define MAP_DROPPABLE 0x08
#endif
#ifndef MAP_ABOVE4G
#define MAP_ABOVE4G 0x80
#endif
#ifndef MAP_UNINITIALIZED
#define MAP_UNINITIALIZED 0x4000000
#endif
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif
#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102
#endif
#ifndef MADV_GUARD_REMOVE
#define MADV_GUARD_REMOVE 103
#endif
#ifndef O_NOTIFICATION_PIPE
#define O_NOTIFICATION_PIPE O_EXCL
#endif
#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif
#define PIDFD_SIGNAL_THREAD 1
#define PIDFD_SIGNAL_THREAD_GROUP 2
#define PIDFD_SIGNAL_PROCESS_GROUP 4
#ifndef CLOSE_RANGE_UNSHARE
#define CLOSE_RANGE_UNSHARE 2
#endif
#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC 4
#endif
#define MOVE_MOUNT_F_SYMLINKS 0x001
#define MOVE_MOUNT_F_AUTOMOUNTS 0x002
#define MOVE_MOUNT_F_EMPTY_PATH 0x004
#define MOVE_MOUNT_T_SYMLINKS 0x010
#define MOVE_MOUNT_T_AUTOMOUNTS 0x020
#define MOVE_MOUNT_T_EMPTY_PATH 0x040
#define MOVE_MOUNT_SET_GROUP 0x100
#define MOVE_MOUNT_BENEATH 0x200
#define OPEN_TREE_CLONE 1
#define OPEN_TREE_CLOEXEC O_CLOEXEC
#ifndef PROT_SEM
#define PROT_SEM 0x8
#endif
#ifndef EPOLLNVAL
#define EPOLLNVAL 0x20
#endif
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif
#define FSOPEN_CLOEXEC 1
#define FSCONFIG_SET_FLAG 0
#define FSCONFIG_SET_STRING 1
#define FSCONFIG_CMD_CREATE 6
#define FSCONFIG_CMD_CREATE_EXCL 8
#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x1000
#endif
#ifndef F_DUPFD_QUERY
#define F_DUPFD_QUERY 1027
#endif
#ifndef F_CREATED_QUERY
#define F_CREATED_QUERY 1028
#endif
#ifndef F_GET_RW_HINT
#define F_GET_RW_HINT 1035
#define F_SET_RW_HINT 1036
#define F_GET_FILE_RW_HINT 1037
#define F_SET_FILE_RW_HINT 1038
#endif
#ifndef F_GETOWNER_UIDS
#define F_GETOWNER_UIDS 17
#endif
#define PR_SET_VMA 0x53564d41
#define PR_GET_AUXV 0x41555856
#define PR_GET_MDWE 66
#define PR_GET_MEMORY_MERGE 68
#define PR_RISCV_V_GET_CONTROL 70
#define PR_GET_SHADOW_STACK_STATUS 74
#define PR_TIMER_CREATE_RESTORE_IDS 77
#define PR_FUTEX_HASH 78
#ifndef PR_SCHED_CORE
#define PR_SCHED_CORE 62
#endif
#ifndef PR_GET_IO_FLUSHER
#define PR_GET_IO_FLUSHER 58
#endif
#ifndef PR_GET_TAGGED_ADDR_CTRL
#define PR_GET_TAGGED_ADDR_CTRL 56
#endif
#define PR_SET_MDWE 65
#define PR_MDWE_REFUSE_EXEC_GAIN 1
#define PR_SET_MEMORY_MERGE 67
#define PR_SET_SHADOW_STACK_STATUS 75
#define PR_LOCK_SHADOW_STACK_STATUS 76
#ifndef PR_SET_IO_FLUSHER
#define PR_SET_IO_FLUSHER 57
#endif
#ifndef PR_SET_SYSCALL_USER_DISPATCH
#define PR_SET_SYSCALL_USER_DISPATCH 59
#endif
/* include/uapi/linux/pidfd.h: PIDFS_IOCTL_MAGIC 0xFF; the namespace
 * ioctls are _IO(0xFF, 1..10) (6.11), PIDFD_GET_INFO _IOWR(0xFF, 11,
 * struct pidfd_info), 64 bytes in its first version (6.13). */
#define PIDFD_GET_CGROUP_NAMESPACE 0xFF01
#define PIDFD_GET_IPC_NAMESPACE 0xFF02
#define PIDFD_GET_MNT_NAMESPACE 0xFF03
#define PIDFD_GET_NET_NAMESPACE 0xFF04
#define PIDFD_GET_PID_NAMESPACE 0xFF05
#define PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE 0xFF06
#define PIDFD_GET_TIME_NAMESPACE 0xFF07
#define PIDFD_GET_TIME_FOR_CHILDREN_NAMESPACE 0xFF08
#define PIDFD_GET_USER_NAMESPACE 0xFF09
#define PIDFD_GET_UTS_NAMESPACE 0xFF0A
#define PIDFD_GET_INFO 0xC040FF0BUL
/* include/uapi/linux/fcntl.h (6.14): execveat checks, does not execute. */
#ifndef AT_EXECVE_CHECK
#define AT_EXECVE_CHECK 0x10000
#endif
#ifndef STATX_DIOALIGN
#define STATX_DIOALIGN 0x2000U
#endif
#define NR_FCHMODAT2 452
/* The kernel's __O_LARGEFILE: glibc's O_LARGEFILE is 0 on x86-64, where
 * the kernel forces the bit on open(2) but openat2(2) checks it. */
#undef O_LARGEFILE
#define O_LARGEFILE 0100000

/* A 4096-byte memfd for the mappings that need a file (MAP_SHARED_VALIDATE
 * of anonymous memory is EINVAL whatever the flags). */
static int map_fd = -1;

/* openat2 refuses unknown bits, but build_open_flags() (fs/open.c)
 * strips the kernel's internal __FMODE_NONOTIFY before it checks them,
 * so that bit is "accepted": 0x4000000 in 6.1 (include/linux/fs.h
 * FMODE_NONOTIFY), 1 << 25 in 6.12 (renumbered beside
 * FMODE_NONOTIFY_PERM), refused on this project's 6.18 host. */
#define OPENAT2_NONOTIFY                                                                             \
	"0x4000000 (6.1) and 0x2000000 (6.12) are one bit, the kernel's internal __FMODE_NONOTIFY, "     \
	"which build_open_flags() strips instead of refusing and no program passes: a move between "   \
	"them, or to 0 (6.18 refuses it), renumbers or drops that bit; any other bit is a flag nobody "   \
	"named here that openat2 now accepts (or refuses)"

/* The words swept, with how each is called: B(word, how) for a set of
 * flags, whose bits no flag of the table names are swept too
 * (NAME.other_bits); V(word, how) for a word that takes values (advice,
 * commands, options), of which only the named ones are tried.  B(word,
 * how, WHY) where other_bits' change means something else than a new
 * flag. */
#define SURFACE_WORDS(B, V)                                                                             \
	B(memfd_create, "memfd_create(\"abiwatch\", FLAG)")                                    \
	B(openat, "openat(AT_FDCWD, \"f\", O_RDWR | FLAG, 0600) on a regular file (O_DIRECTORY and O_TMPFILE: on a directory)") \
	B(openat2, "openat2() with how.flags O_RDWR | FLAG, as openat", OPENAT2_NONOTIFY)      \
	B(openat2_resolve, "openat2(AT_FDCWD, \"f\", {O_RDONLY, 0, FLAG})")                    \
	B(mmap, "mmap(hole, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | FLAG, -1, 0), hole an unmapped page (the type bits 0x0f and MAP_ANONYMOUS not swept)") \
	B(mmap_validate, "mmap(hole, 4096, PROT_READ, MAP_SHARED_VALIDATE | FLAG, memfd, 0): unknown flags EOPNOTSUPP (the type bits 0x0f not swept)") \
	V(mmap_type, "mmap(NULL, 4096, PROT_READ, TYPE | MAP_ANONYMOUS, -1, 0) (MAP_SHARED_VALIDATE: of a memfd, without MAP_ANONYMOUS)")             \
	B(mmap_prot, "mmap(NULL, 4096, FLAG, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)")             \
	B(mprotect, "mprotect() of a private anonymous page with FLAG")                        \
	V(madvise, "madvise() of two private anonymous pages with ADVICE")                    \
	B(pipe2, "pipe2(fds, FLAG)")                                                          \
	B(dup3, "dup3(fd, 900, FLAG)")                                                         \
	B(eventfd2, "eventfd2(0, FLAG)")                                                       \
	B(epoll_create1, "epoll_create1(FLAG)")                                                \
	B(epoll_ctl, "epoll_ctl(EPOLL_CTL_ADD) of a pipe's read end with events FLAG")         \
	B(timerfd_create, "timerfd_create(CLOCK_MONOTONIC, FLAG)")                             \
	B(timerfd_settime, "timerfd_settime() of a CLOCK_REALTIME timerfd, disarming, with FLAG (TFD_TIMER_CANCEL_ON_SET with TFD_TIMER_ABSTIME)") \
	B(signalfd4, "signalfd4(-1, {SIGUSR1}, 8, FLAG)")                                     \
	B(accept4, "accept4() on a listening non-blocking AF_UNIX socket with no connection, FLAG: EAGAIN is accepted") \
	B(socket, "socket(AF_UNIX, SOCK_STREAM | FLAG, 0) (the type bits 0x0f not swept)")     \
	B(renameat2, "renameat2() of a file to a new name (RENAME_EXCHANGE: to another file) with FLAG") \
	B(statx, "statx(AT_FDCWD, \"f\", FLAG, STATX_BASIC_STATS)")                            \
	B(pidfd_open, "pidfd_open(getpid(), FLAG)")                                            \
	B(pidfd_send_signal, "pidfd_send_signal(pidfd of the probe, 0, NULL, FLAG)")           \
	B(close_range, "close_range(4000, 4001, FLAG): no descriptor there")                   \
	B(faccessat2, "faccessat2(AT_FDCWD, \"f\", F_OK, FLAG)")                               \
	B(fchmodat2, "fchmodat2(AT_FDCWD, \"f\", 0644, FLAG) (452)")                           \
	B(getrandom, "getrandom(buf, 1, GRND_NONBLOCK | FLAG): EAGAIN is accepted")            \
	B(splice, "splice() of one byte from a pipe into another with FLAG")                   \
	B(copy_file_range, "copy_file_range() of one byte between two files with FLAG (no flag is defined)") \
	B(move_mount, "move_mount(-1, \"\", -1, \"\", FLAG): the flags are checked before the descriptors, so EBADF or ENOENT is accepted") \
	B(open_tree, "open_tree(AT_FDCWD, \"d\", FLAG)")                                       \
	B(fsopen, "fsopen(\"tmpfs\", FLAG)")                                                   \
	V(fsconfig, "fsconfig(fsopen(\"tmpfs\"), CMD, ...) with a valid key and value for the command (\"ro\", \"size\" \"1m\")") \
	B(mount_setattr, "mount_setattr(AT_FDCWD, \".\", FLAG, &(struct mount_attr){0}, 32) on the probe's private scratch mount") \
	B(rseq, "rseq(area, 32, FLAG, RSEQ_SIG) in a child whose one registration is that area (the C library's own unregistered first): unregistering it is accepted") \
	B(clone3, "clone3() of a child that exits at once, flags FLAG, exit signal SIGCHLD (the bits of CLONE_VM, CLONE_SIGHAND, CLONE_THREAD, CLONE_SETTLS, CLONE_PARENT, CLONE_NEWNET and the signal byte not swept)") \
	V(prctl, "prctl(OPTION, ...) with the arguments of a read (the GET forms)")          \
	V(prctl_set, "prctl(OPTION, ...) of a SET form in a child that exits after it, with the value the child has already or a harmless one") \
	V(pidfd_ioctl, "ioctl(pidfd_open(getpid()), REQUEST, ...): the namespace descriptor it gives is closed; PIDFD_GET_INFO with a 64-byte struct pidfd_info asking for nothing") \
	V(execveat, "execveat(fd of /proc/self/exe, \"\", {\"abiwatch\", \"--version\"}, environ, AT_EMPTY_PATH | FLAG) in a child: exit 0 is accepted (AT_EXECVE_CHECK: the check alone, nothing executed)") \
	V(fcntl, "fcntl(fd, CMD, arg) on a memfd (a pipe for the pipe sizes, a directory for F_NOTIFY) with a harmless argument")

/* O_DIRECT is as old as open(2)'s flags; what answers it is the
 * filesystem of "f", the probe's scratch tmpfs, which takes it since 6.6
 * (e88e0d366f9c, "shmem: trivial support for direct IO": mm/shmem.c sets
 * FMODE_CAN_ODIRECT), before which do_dentry_open() refuses it. */
#define O_DIRECT_ON_TMPFS                                                                            \
	"EINVAL -> accepted: tmpfs takes O_DIRECT (6.6, e88e0d366f9c), the flag itself is old: databases "  \
	"and dd oflag=direct on /tmp or /dev/shm open there instead of failing; accepted -> EINVAL: they fail"
#define OFLAGS(F, w)                                                                                 \
	F(w, O_APPEND) F(w, O_ASYNC) F(w, O_CLOEXEC) F(w, O_CREAT) F(w, O_DIRECT, O_DIRECT_ON_TMPFS) F(w, O_DIRECTORY) \
	F(w, O_DSYNC) F(w, O_EXCL) F(w, O_LARGEFILE) F(w, O_NOATIME) F(w, O_NOCTTY) F(w, O_NOFOLLOW) \
	F(w, O_NONBLOCK) F(w, O_PATH) F(w, O_SYNC) F(w, O_TMPFILE) F(w, O_TRUNC)
#define MAPFLAGS(F, w)                                                                               \
	F(w, MAP_32BIT) F(w, MAP_GROWSDOWN) F(w, MAP_DENYWRITE) F(w, MAP_EXECUTABLE) F(w, MAP_LOCKED) \
	F(w, MAP_NORESERVE) F(w, MAP_POPULATE) F(w, MAP_NONBLOCK) F(w, MAP_STACK) F(w, MAP_HUGETLB)  \
	F(w, MAP_SYNC) F(w, MAP_FIXED) F(w, MAP_FIXED_NOREPLACE) F(w, MAP_UNINITIALIZED)        \
	F(w, MAP_ABOVE4G)
#define PROTFLAGS(F, w)                                                                              \
	F(w, PROT_READ) F(w, PROT_WRITE) F(w, PROT_EXEC) F(w, PROT_SEM) F(w, PROT_GROWSDOWN) F(w, PROT_GROWSUP)
#define ATFLAGS(F, w) F(w, AT_SYMLINK_NOFOLLOW) F(w, AT_EMPTY_PATH)

/* F(word, NAME): every flag or value of the table, by its name;
 * F(word, NAME, WHY) where what a change means is not the flag's own
 * appearing (the filesystem answers it, not the call). */
#define SURFACE_FLAGS(F)                                                                             \
	F(memfd_create, MFD_CLOEXEC) F(memfd_create, MFD_ALLOW_SEALING) F(memfd_create, MFD_HUGETLB)   \
	F(memfd_create, MFD_NOEXEC_SEAL) F(memfd_create, MFD_EXEC)                                     \
	OFLAGS(F, openat) OFLAGS(F, openat2)                                                           \
	F(openat2_resolve, RESOLVE_NO_XDEV) F(openat2_resolve, RESOLVE_NO_MAGICLINKS)                  \
	F(openat2_resolve, RESOLVE_NO_SYMLINKS) F(openat2_resolve, RESOLVE_BENEATH)                    \
	F(openat2_resolve, RESOLVE_IN_ROOT) F(openat2_resolve, RESOLVE_CACHED)                         \
	MAPFLAGS(F, mmap) MAPFLAGS(F, mmap_validate)                                                   \
	F(mmap_type, MAP_SHARED) F(mmap_type, MAP_PRIVATE) F(mmap_type, MAP_SHARED_VALIDATE)           \
	F(mmap_type, MAP_DROPPABLE)                                                                    \
	PROTFLAGS(F, mmap_prot) PROTFLAGS(F, mprotect)                                                 \
	F(madvise, MADV_NORMAL) F(madvise, MADV_RANDOM) F(madvise, MADV_SEQUENTIAL)                    \
	F(madvise, MADV_WILLNEED) F(madvise, MADV_DONTNEED) F(madvise, MADV_FREE) F(madvise, MADV_REMOVE) \
	F(madvise, MADV_DONTFORK) F(madvise, MADV_DOFORK) F(madvise, MADV_MERGEABLE)                   \
	F(madvise, MADV_UNMERGEABLE) F(madvise, MADV_HUGEPAGE) F(madvise, MADV_NOHUGEPAGE)             \
	F(madvise, MADV_DONTDUMP) F(madvise, MADV_DODUMP) F(madvise, MADV_WIPEONFORK)                  \
	F(madvise, MADV_KEEPONFORK) F(madvise, MADV_COLD) F(madvise, MADV_PAGEOUT)                     \
	F(madvise, MADV_POPULATE_READ) F(madvise, MADV_POPULATE_WRITE) F(madvise, MADV_DONTNEED_LOCKED) \
	F(madvise, MADV_COLLAPSE) F(madvise, MADV_GUARD_INSTALL) F(madvise, MADV_GUARD_REMOVE)         \
	F(pipe2, O_CLOEXEC) F(pipe2, O_NONBLOCK) F(pipe2, O_DIRECT) F(pipe2, O_NOTIFICATION_PIPE)      \
	F(dup3, O_CLOEXEC)                                                                             \
	F(eventfd2, EFD_CLOEXEC) F(eventfd2, EFD_NONBLOCK) F(eventfd2, EFD_SEMAPHORE)                  \
	F(epoll_create1, EPOLL_CLOEXEC)                                                                \
	F(epoll_ctl, EPOLLIN) F(epoll_ctl, EPOLLPRI) F(epoll_ctl, EPOLLOUT) F(epoll_ctl, EPOLLERR)     \
	F(epoll_ctl, EPOLLHUP) F(epoll_ctl, EPOLLNVAL) F(epoll_ctl, EPOLLRDNORM) F(epoll_ctl, EPOLLRDBAND) \
	F(epoll_ctl, EPOLLWRNORM) F(epoll_ctl, EPOLLWRBAND) F(epoll_ctl, EPOLLMSG) F(epoll_ctl, EPOLLRDHUP) \
	F(epoll_ctl, EPOLLEXCLUSIVE) F(epoll_ctl, EPOLLWAKEUP) F(epoll_ctl, EPOLLONESHOT) F(epoll_ctl, EPOLLET) \
	F(timerfd_create, TFD_CLOEXEC) F(timerfd_create, TFD_NONBLOCK)                                 \
	F(timerfd_settime, TFD_TIMER_ABSTIME) F(timerfd_settime, TFD_TIMER_CANCEL_ON_SET)              \
	F(signalfd4, SFD_CLOEXEC) F(signalfd4, SFD_NONBLOCK)                                           \
	F(accept4, SOCK_CLOEXEC) F(accept4, SOCK_NONBLOCK)                                             \
	F(socket, SOCK_CLOEXEC) F(socket, SOCK_NONBLOCK)                                               \
	F(renameat2, RENAME_NOREPLACE) F(renameat2, RENAME_EXCHANGE) F(renameat2, RENAME_WHITEOUT)     \
	F(statx, AT_SYMLINK_NOFOLLOW) F(statx, AT_NO_AUTOMOUNT) F(statx, AT_EMPTY_PATH)                \
	F(statx, AT_STATX_FORCE_SYNC) F(statx, AT_STATX_DONT_SYNC)                                     \
	F(pidfd_open, PIDFD_NONBLOCK) F(pidfd_open, PIDFD_THREAD)                                      \
	F(pidfd_send_signal, PIDFD_SIGNAL_THREAD) F(pidfd_send_signal, PIDFD_SIGNAL_THREAD_GROUP)      \
	F(pidfd_send_signal, PIDFD_SIGNAL_PROCESS_GROUP)                                               \
	F(close_range, CLOSE_RANGE_UNSHARE) F(close_range, CLOSE_RANGE_CLOEXEC)                        \
	F(faccessat2, AT_EACCESS) ATFLAGS(F, faccessat2) ATFLAGS(F, fchmodat2)                         \
	F(getrandom, GRND_NONBLOCK) F(getrandom, GRND_RANDOM) F(getrandom, GRND_INSECURE)              \
	F(splice, SPLICE_F_MOVE) F(splice, SPLICE_F_NONBLOCK) F(splice, SPLICE_F_MORE) F(splice, SPLICE_F_GIFT) \
	F(move_mount, MOVE_MOUNT_F_SYMLINKS) F(move_mount, MOVE_MOUNT_F_AUTOMOUNTS)                    \
	F(move_mount, MOVE_MOUNT_F_EMPTY_PATH) F(move_mount, MOVE_MOUNT_T_SYMLINKS)                    \
	F(move_mount, MOVE_MOUNT_T_AUTOMOUNTS) F(move_mount, MOVE_MOUNT_T_EMPTY_PATH)                  \
	F(move_mount, MOVE_MOUNT_SET_GROUP) F(move_mount, MOVE_MOUNT_BENEATH)                          \
	F(open_tree, OPEN_TREE_CLONE) F(open_tree, OPEN_TREE_CLOEXEC) F(open_tree, AT_EMPTY_PATH)      \
	F(open_tree, AT_NO_AUTOMOUNT) F(open_tree, AT_RECURSIVE) F(open_tree, AT_SYMLINK_NOFOLLOW)     \
	F(fsopen, FSOPEN_CLOEXEC)                                                                      \
	F(fsconfig, FSCONFIG_SET_FLAG) F(fsconfig, FSCONFIG_SET_STRING) F(fsconfig, FSCONFIG_CMD_CREATE) \
	F(fsconfig, FSCONFIG_CMD_CREATE_EXCL)                                                          \
	F(mount_setattr, AT_EMPTY_PATH) F(mount_setattr, AT_RECURSIVE) F(mount_setattr, AT_SYMLINK_NOFOLLOW) \
	F(mount_setattr, AT_NO_AUTOMOUNT)                                                              \
	F(clone3, CLONE_VFORK) F(clone3, CLONE_FS) F(clone3, CLONE_FILES) F(clone3, CLONE_SYSVSEM)     \
	F(rseq, RSEQ_FLAG_UNREGISTER)                                                                  \
	F(clone3, CLONE_PTRACE) F(clone3, CLONE_UNTRACED) F(clone3, CLONE_IO) F(clone3, CLONE_PIDFD)   \
	F(clone3, CLONE_PARENT_SETTID) F(clone3, CLONE_CHILD_SETTID) F(clone3, CLONE_CHILD_CLEARTID)   \
	F(clone3, CLONE_CLEAR_SIGHAND) F(clone3, CLONE_NEWNS) F(clone3, CLONE_NEWCGROUP)               \
	F(clone3, CLONE_NEWUTS) F(clone3, CLONE_NEWIPC) F(clone3, CLONE_NEWUSER) F(clone3, CLONE_NEWPID) \
	F(clone3, CLONE_NEWTIME)                                                                       \
	F(prctl, PR_GET_PDEATHSIG) F(prctl, PR_GET_DUMPABLE) F(prctl, PR_GET_UNALIGN)                  \
	F(prctl, PR_GET_KEEPCAPS) F(prctl, PR_GET_FPEMU) F(prctl, PR_GET_FPEXC) F(prctl, PR_GET_TIMING) \
	F(prctl, PR_GET_NAME) F(prctl, PR_GET_ENDIAN) F(prctl, PR_GET_SECCOMP) F(prctl, PR_CAPBSET_READ) \
	F(prctl, PR_GET_TSC) F(prctl, PR_GET_SECUREBITS) F(prctl, PR_GET_TIMERSLACK) F(prctl, PR_MCE_KILL_GET) \
	F(prctl, PR_GET_CHILD_SUBREAPER) F(prctl, PR_GET_NO_NEW_PRIVS) F(prctl, PR_GET_TID_ADDRESS)    \
	F(prctl, PR_GET_THP_DISABLE) F(prctl, PR_MPX_ENABLE_MANAGEMENT) F(prctl, PR_GET_FP_MODE)       \
	F(prctl, PR_CAP_AMBIENT) F(prctl, PR_SVE_GET_VL) F(prctl, PR_GET_SPECULATION_CTRL)             \
	F(prctl, PR_GET_TAGGED_ADDR_CTRL) F(prctl, PR_GET_IO_FLUSHER) F(prctl, PR_SCHED_CORE)          \
	F(prctl, PR_SET_VMA) F(prctl, PR_GET_MDWE) F(prctl, PR_GET_MEMORY_MERGE) F(prctl, PR_GET_AUXV) \
	F(prctl, PR_RISCV_V_GET_CONTROL) F(prctl, PR_GET_SHADOW_STACK_STATUS)                          \
	F(prctl, PR_TIMER_CREATE_RESTORE_IDS) F(prctl, PR_FUTEX_HASH)                                  \
	F(prctl_set, PR_SET_PDEATHSIG) F(prctl_set, PR_SET_DUMPABLE) F(prctl_set, PR_SET_KEEPCAPS)     \
	F(prctl_set, PR_SET_TIMING) F(prctl_set, PR_SET_NAME) F(prctl_set, PR_CAPBSET_DROP)            \
	F(prctl_set, PR_SET_TSC) F(prctl_set, PR_SET_TIMERSLACK) F(prctl_set, PR_TASK_PERF_EVENTS_DISABLE) \
	F(prctl_set, PR_TASK_PERF_EVENTS_ENABLE) F(prctl_set, PR_MCE_KILL) F(prctl_set, PR_SET_CHILD_SUBREAPER) \
	F(prctl_set, PR_SET_THP_DISABLE) F(prctl_set, PR_SET_SPECULATION_CTRL) F(prctl_set, PR_SET_IO_FLUSHER) \
	F(prctl_set, PR_SET_SYSCALL_USER_DISPATCH) F(prctl_set, PR_SET_MDWE) F(prctl_set, PR_SET_MEMORY_MERGE) \
	F(prctl_set, PR_SET_SHADOW_STACK_STATUS) F(prctl_set, PR_LOCK_SHADOW_STACK_STATUS)             \
	F(prctl_set, PR_SET_UNALIGN) F(prctl_set, PR_SET_FPEMU) F(prctl_set, PR_SET_FPEXC)             \
	F(prctl_set, PR_SET_ENDIAN) F(prctl_set, PR_SET_FP_MODE) F(prctl_set, PR_SET_TAGGED_ADDR_CTRL) \
	F(pidfd_ioctl, PIDFD_GET_CGROUP_NAMESPACE) F(pidfd_ioctl, PIDFD_GET_IPC_NAMESPACE)             \
	F(pidfd_ioctl, PIDFD_GET_MNT_NAMESPACE) F(pidfd_ioctl, PIDFD_GET_NET_NAMESPACE)                \
	F(pidfd_ioctl, PIDFD_GET_PID_NAMESPACE) F(pidfd_ioctl, PIDFD_GET_PID_FOR_CHILDREN_NAMESPACE)   \
	F(pidfd_ioctl, PIDFD_GET_TIME_NAMESPACE) F(pidfd_ioctl, PIDFD_GET_TIME_FOR_CHILDREN_NAMESPACE) \
	F(pidfd_ioctl, PIDFD_GET_USER_NAMESPACE) F(pidfd_ioctl, PIDFD_GET_UTS_NAMESPACE)               \
	F(pidfd_ioctl, PIDFD_GET_INFO)                                                                 \
	F(execveat, AT_EXECVE_CHECK) F(execveat, AT_SYMLINK_NOFOLLOW)                                  \
	F(fcntl, F_DUPFD) F(fcntl, F_GETFD) F(fcntl, F_SETFD) F(fcntl, F_GETFL) F(fcntl, F_SETFL)      \
	F(fcntl, F_GETLK) F(fcntl, F_SETLK) F(fcntl, F_SETLKW) F(fcntl, F_SETOWN) F(fcntl, F_GETOWN)   \
	F(fcntl, F_SETSIG) F(fcntl, F_GETSIG) F(fcntl, F_SETOWN_EX) F(fcntl, F_GETOWN_EX)              \
	F(fcntl, F_GETOWNER_UIDS) F(fcntl, F_OFD_GETLK) F(fcntl, F_OFD_SETLK) F(fcntl, F_OFD_SETLKW)   \
	F(fcntl, F_SETLEASE) F(fcntl, F_GETLEASE) F(fcntl, F_NOTIFY) F(fcntl, F_DUPFD_QUERY)           \
	F(fcntl, F_CREATED_QUERY) F(fcntl, F_DUPFD_CLOEXEC) F(fcntl, F_SETPIPE_SZ) F(fcntl, F_GETPIPE_SZ) \
	F(fcntl, F_ADD_SEALS) F(fcntl, F_GET_SEALS) F(fcntl, F_GET_RW_HINT) F(fcntl, F_SET_RW_HINT)    \
	F(fcntl, F_GET_FILE_RW_HINT) F(fcntl, F_SET_FILE_RW_HINT)

/* ENOTTY: an ioctl the file does not know (the pidfd ioctls). */
static const char *const refused[] = { "EINVAL", "EOPNOTSUPP", "ENOSYS", "ENOTTY", NULL };

/* The name is a string here: a macro level further, #f would give the
 * flag's value (PR_FUTEX_HASH is 78 in this file). */
#define FLAG_APPEARED(name) "an errno -> accepted: " name " appeared; accepted -> EINVAL: it vanished and programs passing it fail"
#define FLAG_WHY_(name, why, ...) why
#define FLAG_WHY(name, ...) FLAG_WHY_(name, ##__VA_ARGS__, FLAG_APPEARED(name))
#define FLAG_ITEM(w, f, ...)                                                                         \
	AW_OBS_ITEM(#w "." #f, #w " with " #f ": accepted, or the errno",                           \
		    .change = FLAG_WHY(#f, ##__VA_ARGS__), .object = #w, .absent = refused),
#define OTHER_BITS_NEW "the kernel accepts a new bit nobody named here, or refuses one it took"
#define OTHER_BITS_WHY_(w, why, ...) why
#define OTHER_BITS_WHY(w, ...) OTHER_BITS_WHY_(w, ##__VA_ARGS__, OTHER_BITS_NEW)
#define WORD_ITEM(w, how, ...)                                                                 \
	AW_OBS_ITEM(#w ".other_bits", "the bits no name of the table covers that " #w " accepts, one at a time (0: none); " how, \
		    .change = OTHER_BITS_WHY(w, ##__VA_ARGS__), .object = #w),

/* Item names are lower case (core/registry.c): the table's flag names are
 * lowered once, before anything reads the items (memfd_create.mfd_exec;
 * the summary keeps MFD_EXEC). */
static struct aw_item flags_items[] = {
	SURFACE_FLAGS(FLAG_ITEM)
#define NO_ITEM(w, how, ...)
	SURFACE_WORDS(WORD_ITEM, NO_ITEM)
	AW_OBS_ITEM("openat.ignored_bits", "of openat's other_bits, those F_GETFL does not give back: "
		    "accepted and ignored (open(2): unknown flags are ignored)", .object = "openat",
		    .change = "openat honours a bit it ignored (or ignores one it honoured)"),
	AW_OBS_ITEM("statx.mask.tmpfs", "the fields statx fills for a file of tmpfs: the fields by name, each asked alone",
		    .change = "tmpfs fills statx fields it did not (or stops filling them)"),
	AW_OBS_ITEM("statx.mask.proc", "the fields statx fills for /proc/self/stat (each field asked alone)",
		    .change = "procfs fills statx fields it did not (or stops filling them)"),
	AW_OBS_ITEM("statx.mask.root", "the fields statx fills for / (the machine's root filesystem) (each field asked alone)",
		    .change = "the root filesystem fills statx fields it did not (or stops filling them)"),
	AW_OBS_ITEM("statx.attributes_mask.tmpfs", "the stx_attributes_mask of a tmpfs file, as hex",
		    .change = "which attributes the kernel can report for a tmpfs file (a mask, not the file's "
			      "attributes): STATX_ATTR_VERITY (0x100000) is the VFS's for every filesystem from "
			      "Debian 6.12.117 on, not 6.12.115 (fs/stat.c vfs_getattr_nosec(), stable backport "
			      "of \"fsverity: hoist statx reporting of fs-verity flag\"); tools read "
			      "stx_attributes only where the mask has the bit"),
	AW_OBS_ITEM("membarrier.query", "membarrier(MEMBARRIER_CMD_QUERY): the commands the kernel has, by name",
		    .change = "a membarrier command appeared or vanished"),
	AW_ITEMS_END
};
#undef NO_ITEM

static void lower(char *s)
{
	for (; *s; s++)
		if (*s >= 'A' && *s <= 'Z')
			*s = (char)(*s - 'A' + 'a');
}

__attribute__((constructor)) static void lower_item_names(void)
{
	for (struct aw_item *it = flags_items; it->name; it++)
		if (strpbrk(it->name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")) {
			char *name = xstrdup(it->name);
			lower(name);
			it->name = name;
		}
}

/* ---- the calls: each returns 0 when the kernel accepted, else the errno ---- */

static int ret(long r)
{
	return r < 0 ? errno : 0;
}

static int closing(long fd)
{
	if (fd < 0)
		return errno;
	close((int)fd);
	return 0;
}

static int try_memfd_create(unsigned long v)
{
	return closing(syscall(SYS_memfd_create, "abiwatch", v));
}

static int try_openat(unsigned long v)
{
	bool dir = (v & O_DIRECTORY) != 0;
	unsigned long base = dir && (v & O_TMPFILE) != O_TMPFILE ? O_RDONLY : O_RDWR;
	return closing(syscall(SYS_openat, AT_FDCWD, dir ? "d" : "f", base | v, 0600));
}

static int try_openat2(unsigned long v)
{
	bool dir = (v & O_DIRECTORY) != 0;
	unsigned long base = dir && (v & O_TMPFILE) != O_TMPFILE ? O_RDONLY : O_RDWR;
	if (v & O_PATH)
		base = O_RDONLY; /* openat2 refuses O_PATH with an access mode */
	struct open_how how = { .flags = base | v, .mode = (v & O_CREAT) || (v & O_TMPFILE) == O_TMPFILE ? 0600 : 0 };
	return closing(syscall(SYS_openat2, AT_FDCWD, dir ? "d" : "f", &how, sizeof(how)));
}

static int try_openat2_resolve(unsigned long v)
{
	struct open_how how = { .flags = O_RDONLY, .resolve = v };
	return closing(syscall(SYS_openat2, AT_FDCWD, "f", &how, sizeof(how)));
}

/* An unmapped page: for MAP_FIXED and MAP_FIXED_NOREPLACE, a hint else. */
static void *hole(void)
{
	void *p = mmap(NULL, 2 * 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	munmap(p, 2 * 4096);
	return (char *)p + 4096;
}

static int mapping(void *addr, int prot, unsigned long flags)
{
	void *p = mmap(addr, 4096, prot, (int)flags, (flags & MAP_ANONYMOUS) ? -1 : map_fd, 0);
	if (p == MAP_FAILED)
		return errno;
	munmap(p, 4096);
	return 0;
}

static int try_mmap(unsigned long v)
{
	return mapping(hole(), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | v);
}

static int try_mmap_validate(unsigned long v)
{
	return mapping(hole(), PROT_READ, MAP_SHARED_VALIDATE | v);
}

static int try_mmap_type(unsigned long v)
{
	return mapping(NULL, PROT_READ, (v & 0x0f) == MAP_SHARED_VALIDATE ? v : MAP_ANONYMOUS | v);
}

static int try_mmap_prot(unsigned long v)
{
	return mapping(NULL, (int)v, MAP_PRIVATE | MAP_ANONYMOUS);
}

static int try_mprotect(unsigned long v)
{
	void *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return errno;
	int rc = ret(mprotect(p, 4096, (int)v));
	munmap(p, 4096);
	return rc;
}

static int try_madvise(unsigned long v)
{
	char *p = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return errno;
	p[0] = 1;
	int rc = ret(madvise(p, 2 * 4096, (int)v));
	munmap(p, 2 * 4096);
	return rc;
}

static int try_pipe2(unsigned long v)
{
	int fds[2];
	if (syscall(SYS_pipe2, fds, v) != 0)
		return errno;
	close(fds[0]);
	close(fds[1]);
	return 0;
}

static int try_dup3(unsigned long v)
{
	int fd = open("f", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	int rc = closing(syscall(SYS_dup3, fd, 900, v));
	close(fd);
	return rc;
}

static int try_eventfd2(unsigned long v)
{
	return closing(syscall(SYS_eventfd2, 0, v));
}

static int try_epoll_create1(unsigned long v)
{
	return closing(syscall(SYS_epoll_create1, v));
}

static int try_epoll_ctl(unsigned long v)
{
	int fds[2], ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0)
		return errno;
	if (pipe2(fds, O_CLOEXEC) != 0) {
		int e = errno;
		close(ep);
		return e;
	}
	struct epoll_event ev = { .events = (uint32_t)v };
	int rc = ret(epoll_ctl(ep, EPOLL_CTL_ADD, fds[0], &ev));
	close(fds[0]);
	close(fds[1]);
	close(ep);
	return rc;
}

static int try_timerfd_create(unsigned long v)
{
	return closing(syscall(SYS_timerfd_create, CLOCK_MONOTONIC, v));
}

static int try_timerfd_settime(unsigned long v)
{
	int fd = timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC);
	if (fd < 0)
		return errno;
	struct itimerspec its = { { 0, 0 }, { 0, 0 } };
	if (v & TFD_TIMER_CANCEL_ON_SET)
		v |= TFD_TIMER_ABSTIME;
	int rc = ret(syscall(SYS_timerfd_settime, fd, v, &its, NULL));
	close(fd);
	return rc;
}

static int try_signalfd4(unsigned long v)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	return closing(syscall(SYS_signalfd4, -1, &set, 8, v));
}

static int try_accept4(unsigned long v)
{
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (s < 0)
		return errno;
	sa_family_t autobind = AF_UNIX; /* an abstract name of the kernel's choice */
	int rc = bind(s, (struct sockaddr *)&autobind, sizeof(autobind)) == 0 && listen(s, 1) == 0
			 ? closing(syscall(SYS_accept4, s, NULL, NULL, v))
			 : errno;
	close(s);
	return rc == EAGAIN ? 0 : rc;
}

static int try_socket(unsigned long v)
{
	return closing(syscall(SYS_socket, AF_UNIX, SOCK_STREAM | v, 0));
}

static int try_renameat2(unsigned long v)
{
	int fd1 = open("r1", O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	int fd2 = open("r2", O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	if (fd1 >= 0)
		close(fd1);
	if (fd2 >= 0)
		close(fd2);
	int rc = ret(syscall(SYS_renameat2, AT_FDCWD, "r1", AT_FDCWD, (v & RENAME_EXCHANGE) ? "r2" : "r3", v));
	unlink("r1");
	unlink("r2");
	unlink("r3");
	return rc;
}

static int try_statx(unsigned long v)
{
	struct statx stx;
	return ret(syscall(SYS_statx, AT_FDCWD, "f", v, STATX_BASIC_STATS, &stx));
}

static int try_pidfd_open(unsigned long v)
{
	return closing(syscall(SYS_pidfd_open, getpid(), v));
}

static int try_pidfd_send_signal(unsigned long v)
{
	int fd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	if (fd < 0)
		return errno;
	int rc = ret(syscall(SYS_pidfd_send_signal, fd, 0, NULL, v));
	close(fd);
	return rc;
}

static int try_close_range(unsigned long v)
{
	return ret(syscall(SYS_close_range, 4000, 4001, v));
}

static int try_faccessat2(unsigned long v)
{
	return ret(syscall(SYS_faccessat2, AT_FDCWD, "f", F_OK, v));
}

static int try_fchmodat2(unsigned long v)
{
	return ret(syscall(NR_FCHMODAT2, AT_FDCWD, "f", 0644, v));
}

/* The registration a child makes for itself (struct rseq is 32 bytes,
 * aligned to 32: rseq(2)). */
static struct rseq rseq_area __attribute__((aligned(32)));

/* Undo the C library's registration of this thread (glibc 2.35 and
 * later, __rseq_size > 0), at thread pointer + __rseq_offset.  The kernel
 * wants the length it was given, which __rseq_size (the features used,
 * 20 with glibc 2.36) need not be: the area's allocation is, a multiple
 * of 32.  0, or -1 when no length undid it. */
static int rseq_unregister_libc(void)
{
	if (__rseq_size == 0)
		return 0;
	void *libc = (char *)__builtin_thread_pointer() + __rseq_offset;
	if (syscall(SYS_rseq, libc, __rseq_size, RSEQ_FLAG_UNREGISTER, RSEQ_SIG) == 0)
		return 0;
	for (unsigned len = 32; len <= 1024; len += 32)
		if (syscall(SYS_rseq, libc, len, RSEQ_FLAG_UNREGISTER, RSEQ_SIG) == 0)
			return 0;
	return -1;
}

/* In a child: the C library's registration undone, the child's own area
 * registered, and the call made: exit 0 or the errno (255: the
 * preparation failed). */
static int rseq_child(unsigned long v)
{
	if (rseq_unregister_libc() != 0)
		return 255;
	if (syscall(SYS_rseq, &rseq_area, sizeof(rseq_area), 0, RSEQ_SIG) != 0)
		return 255;
	return ret(syscall(SYS_rseq, &rseq_area, sizeof(rseq_area), v, RSEQ_SIG));
}

static int rseq_child_fn(void *v)
{
	return rseq_child(*(const unsigned long *)v);
}

static int try_rseq(unsigned long v)
{
	int st = aw_child_run(rseq_child_fn, &v, 5000);
	/* No answer (255, a signal, the deadline): neither accepted nor a
	 * refusal of the kernel's. */
	return st < 0 || st >= 128 ? ECHILD : st;
}

static int try_getrandom(unsigned long v)
{
	char b;
	int rc = ret(syscall(SYS_getrandom, &b, 1, GRND_NONBLOCK | v));
	return rc == EAGAIN ? 0 : rc;
}

static int try_splice(unsigned long v)
{
	int a[2], b[2];
	if (pipe2(a, O_CLOEXEC) != 0)
		return errno;
	if (pipe2(b, O_CLOEXEC) != 0) {
		int e = errno;
		close(a[0]);
		close(a[1]);
		return e;
	}
	int rc = write(a[1], "s", 1) == 1 ? ret(syscall(SYS_splice, a[0], NULL, b[1], NULL, 1, v)) : errno;
	close(a[0]);
	close(a[1]);
	close(b[0]);
	close(b[1]);
	return rc;
}

static int try_copy_file_range(unsigned long v)
{
	int in = open("f", O_RDONLY | O_CLOEXEC), out = open("g", O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	int rc = in < 0 || out < 0 ? errno : ret(syscall(SYS_copy_file_range, in, NULL, out, NULL, 1, v));
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return rc;
}

static int try_move_mount(unsigned long v)
{
	int rc = ret(syscall(SYS_move_mount, -1, "", -1, "", v));
	return rc == EBADF || rc == ENOENT ? 0 : rc;
}

static int try_open_tree(unsigned long v)
{
	return closing(syscall(SYS_open_tree, AT_FDCWD, "d", v));
}

static int try_fsopen(unsigned long v)
{
	return closing(syscall(SYS_fsopen, "tmpfs", v));
}

static int try_fsconfig(unsigned long v)
{
	int fd = (int)syscall(SYS_fsopen, "tmpfs", FSOPEN_CLOEXEC);
	if (fd < 0)
		return errno;
	const char *key = v == FSCONFIG_SET_FLAG ? "ro" : v == FSCONFIG_SET_STRING ? "size" : NULL;
	const char *value = v == FSCONFIG_SET_STRING ? "1m" : NULL;
	int rc = ret(syscall(SYS_fsconfig, fd, v, key, value, 0));
	close(fd);
	return rc;
}

static int try_mount_setattr(unsigned long v)
{
	unsigned long long attr[4] = { 0 }; /* struct mount_attr, 32 bytes: changes nothing */
	return ret(syscall(SYS_mount_setattr, AT_FDCWD, ".", v, attr, sizeof(attr)));
}

struct clone_args_v2 {
	unsigned long long flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls,
		set_tid, set_tid_size, cgroup;
};

/* clone3's child exits at once: 10 s (stretched) is for a loaded machine. */
#define CLONE3_CHILD_MS 10000

static int try_clone3(unsigned long v)
{
	int pidfd = -1, tid = 0;
	struct clone_args_v2 args = {
		.flags = v, .pidfd = (uintptr_t)&pidfd, .child_tid = (uintptr_t)&tid,
		.parent_tid = (uintptr_t)&tid, .exit_signal = SIGCHLD,
	};
	long pid = syscall(SYS_clone3, &args, sizeof(args));
	if (pid == 0)
		_exit(0);
	if (pid < 0)
		return errno;
	/* Only clone3's answer counts; the child is reaped whatever its end. */
	(void)aw_child_reap((pid_t)pid, CLONE3_CHILD_MS);
	if (pidfd >= 0 && (v & CLONE_PIDFD))
		close(pidfd);
	return 0;
}

static int try_prctl(unsigned long v)
{
	unsigned long long u64 = 0;
	int i = 0;
	char buf[512];
	void *p;

	switch (v) {
	case PR_GET_PDEATHSIG: case PR_GET_UNALIGN: case PR_GET_FPEMU: case PR_GET_FPEXC:
	case PR_GET_ENDIAN: case PR_GET_TSC: case PR_GET_CHILD_SUBREAPER:
		return ret(prctl((int)v, &i, 0, 0, 0));
	case PR_GET_NAME:
		return ret(prctl((int)v, buf, 0, 0, 0));
	case PR_GET_TID_ADDRESS:
		return ret(prctl((int)v, &p, 0, 0, 0));
	case PR_CAPBSET_READ:
		return ret(prctl((int)v, 0 /* CAP_CHOWN */, 0, 0, 0));
	case PR_CAP_AMBIENT:
		return ret(prctl((int)v, 1 /* PR_CAP_AMBIENT_IS_SET */, 0, 0, 0));
	case PR_GET_SPECULATION_CTRL:
		return ret(prctl((int)v, 0 /* PR_SPEC_STORE_BYPASS */, 0, 0, 0));
	case PR_SCHED_CORE:
		return ret(prctl((int)v, 0 /* PR_SCHED_CORE_GET */, 0, 0 /* PIDTYPE_PID */, &u64));
	case PR_SET_VMA: {
		void *m = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			return errno;
		int rc = ret(prctl((int)v, 0 /* PR_SET_VMA_ANON_NAME */, m, 4096, "abiwatch"));
		munmap(m, 4096);
		return rc;
	}
	case PR_GET_AUXV:
		return ret(prctl((int)v, buf, sizeof(buf), 0, 0));
	case PR_GET_SHADOW_STACK_STATUS:
		return ret(prctl((int)v, &u64, 0, 0, 0));
	case PR_TIMER_CREATE_RESTORE_IDS:
		return ret(prctl((int)v, 2 /* PR_TIMER_CREATE_RESTORE_IDS_GET */, 0, 0, 0));
	case PR_FUTEX_HASH:
		return ret(prctl((int)v, 2 /* PR_FUTEX_HASH_GET_SLOTS */, 0, 0, 0));
	case PR_MPX_ENABLE_MANAGEMENT: /* removed in 5.4: EINVAL since */
	default:
		return ret(prctl((int)v, 0, 0, 0, 0));
	}
}

static int try_fcntl(unsigned long v)
{
	int fd = (int)syscall(SYS_memfd_create, "abiwatch", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	int pipes[2] = { -1, -1 };
	if (fd < 0)
		return errno;
	struct flock fl = { .l_type = F_RDLCK, .l_whence = SEEK_SET };
	struct f_owner_ex owner = { .type = F_OWNER_PID, .pid = getpid() };
	unsigned long long hint = 1; /* RWH_WRITE_LIFE_NONE */
	unsigned uids[2];
	int target = fd;
	long arg = 0;
	void *parg = NULL;

	switch (v) {
	case F_DUPFD: case F_DUPFD_CLOEXEC: arg = 900; break;
	case F_SETFD: arg = FD_CLOEXEC; break;
	case F_SETFL: arg = O_NONBLOCK; break;
	case F_GETLK: case F_OFD_GETLK: fl.l_type = F_WRLCK; parg = &fl; break;
	case F_SETLK: case F_SETLKW: case F_OFD_SETLK: case F_OFD_SETLKW: fl.l_type = F_UNLCK; parg = &fl; break;
	case F_SETOWN: arg = getpid(); break;
	case F_SETOWN_EX: case F_GETOWN_EX: parg = &owner; break;
	case F_GETOWNER_UIDS: parg = uids; break;
	case F_SETLEASE: arg = F_UNLCK; break;
	case F_DUPFD_QUERY: arg = fd; break;
	case F_ADD_SEALS: arg = F_SEAL_SEAL; break;
	case F_GET_RW_HINT: case F_SET_RW_HINT: case F_GET_FILE_RW_HINT: case F_SET_FILE_RW_HINT: parg = &hint; break;
	case F_SETPIPE_SZ: case F_GETPIPE_SZ:
		if (pipe2(pipes, O_CLOEXEC) != 0) {
			int e = errno;
			close(fd);
			return e;
		}
		target = pipes[0];
		arg = 4096;
		break;
	case F_NOTIFY:
		target = open("d", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		break;
	}
	long r = parg ? syscall(SYS_fcntl, target, v, parg) : syscall(SYS_fcntl, target, v, arg);
	int rc = ret(r);
	if (r >= 0 && (v == F_DUPFD || v == F_DUPFD_CLOEXEC))
		close((int)r);
	if (target != fd && target >= 0 && target != pipes[0])
		close(target);
	if (pipes[0] >= 0) {
		close(pipes[0]);
		close(pipes[1]);
	}
	close(fd);
	return rc;
}

/* A SET form acts on its caller, so a child makes it and exits with the
 * errno (0: accepted); the values change nothing the child needs. */
static int prctl_set_child(void *arg)
{
	unsigned long v = *(const unsigned long *)arg;
	switch (v) {
	case PR_SET_PDEATHSIG: return ret(prctl((int)v, SIGKILL, 0, 0, 0));
	case PR_SET_DUMPABLE: return ret(prctl((int)v, 0, 0, 0, 0));
	case PR_SET_TIMING: return ret(prctl((int)v, 0 /* PR_TIMING_STATISTICAL */, 0, 0, 0));
	case PR_SET_NAME: return ret(prctl((int)v, "abiwatch", 0, 0, 0));
	case PR_CAPBSET_DROP: return ret(prctl((int)v, CAP_SYS_BOOT, 0, 0, 0));
	case PR_SET_TSC: return ret(prctl((int)v, PR_TSC_ENABLE, 0, 0, 0));
	case PR_SET_TIMERSLACK: return ret(prctl((int)v, 50000, 0, 0, 0));
	case PR_MCE_KILL: return ret(prctl((int)v, PR_MCE_KILL_CLEAR, 0, 0, 0));
	case PR_SET_CHILD_SUBREAPER: return ret(prctl((int)v, 1, 0, 0, 0));
	case PR_SET_THP_DISABLE: return ret(prctl((int)v, 1, 0, 0, 0));
	case PR_SET_SPECULATION_CTRL: return ret(prctl((int)v, PR_SPEC_STORE_BYPASS, PR_SPEC_DISABLE, 0, 0));
	case PR_SET_SYSCALL_USER_DISPATCH: return ret(prctl((int)v, 0 /* PR_SYS_DISPATCH_OFF */, 0, 0, 0));
	case PR_SET_MDWE: return ret(prctl((int)v, PR_MDWE_REFUSE_EXEC_GAIN, 0, 0, 0));
	default: return ret(prctl((int)v, 0, 0, 0, 0));
	}
}

static int try_prctl_set(unsigned long v)
{
	int st = aw_child_run(prctl_set_child, &v, 5000);
	return st < 0 || st >= 128 ? ECHILD : st;
}

static int try_pidfd_ioctl(unsigned long v)
{
	int fd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	if (fd < 0)
		return errno;
	unsigned long long info[8] = { 0 }; /* struct pidfd_info: mask 0 asks for nothing */
	long r = v == PIDFD_GET_INFO ? ioctl(fd, v, info) : ioctl(fd, v, 0);
	int rc = r < 0 ? errno : 0;
	if (r >= 0 && v != PIDFD_GET_INFO)
		close((int)r);
	close(fd);
	return rc;
}

/* In a child: execveat of the running program asked for its version, so
 * that a flag that executes gives exit 0 as the check-only one does. */
static int execveat_child(void *arg)
{
	unsigned long v = *(const unsigned long *)arg;
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 255;
	int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (devnull >= 0)
		dup2(devnull, STDOUT_FILENO);
	char *const argv[] = { "abiwatch", "--version", NULL };
	long r = syscall(SYS_execveat, fd, "", argv, environ, AT_EMPTY_PATH | v);
	return r == 0 ? 0 : errno; /* returned: the check alone, or a refusal */
}

static int try_execveat(unsigned long v)
{
	int st = aw_child_run(execveat_child, &v, 10000);
	return st < 0 || st >= 128 || st == 255 ? ECHILD : st;
}

/* ---- the tables, from the lists above ---- */

struct word {
	const char *name;
	int (*try)(unsigned long v);
	bool bits;
	unsigned long named;   /* the union of the named flags (filled at run time) */
	unsigned long unswept; /* bits not swept for other_bits */
	unsigned long other;   /* the other bits accepted (after the sweep) */
};

#define BITS_ROW(w, how, ...) { #w, try_##w, true, 0, 0, 0 },
#define VALUES_ROW(w, how, ...) { #w, try_##w, false, 0, 0, 0 },
static struct word words[] = { SURFACE_WORDS(BITS_ROW, VALUES_ROW) };

struct flag {
	const char *word, *name;
	unsigned long value;
};
#define FLAG_ROW(w, f, ...) { #w, #f, (unsigned long)(f) },
static const struct flag flags[] = { SURFACE_FLAGS(FLAG_ROW) };

/* The named values whose read the kernel refuses with EPERM to a caller
 * without a capability: there, EPERM is the run's privilege, not the
 * kernel's answer, and is reported as a skip with the cause cap_NAME so
 * that diff folds it under the environment (a root without
 * CAP_SYS_RESOURCE gets EPERM where the kernel has not changed). */
static const struct {
	const char *word, *name;
	int cap;
} flag_caps[] = {
	/* kernel/sys.c, prctl(): PR_GET_IO_FLUSHER "if (!capable(CAP_SYS_RESOURCE)) return -EPERM" */
	{ "prctl", "PR_GET_IO_FLUSHER", CAP_SYS_RESOURCE },
	/* kernel/sys.c: PR_SET_IO_FLUSHER and PR_SET_MEMORY_MERGE (6.4) check
	 * CAP_SYS_RESOURCE; cap_task_prctl() (security/commoncap.c):
	 * PR_CAPBSET_DROP needs CAP_SETPCAP */
	{ "prctl_set", "PR_SET_IO_FLUSHER", CAP_SYS_RESOURCE },
	{ "prctl_set", "PR_SET_MEMORY_MERGE", CAP_SYS_RESOURCE },
	{ "prctl_set", "PR_CAPBSET_DROP", CAP_SETPCAP },
};

/* The capability f needs that this run lacks, or -1. */
static int flag_cap_missing(const struct flag *f)
{
	for (size_t i = 0; i < AW_ARRAY_SIZE(flag_caps); i++)
		if (strcmp(flag_caps[i].word, f->word) == 0 && strcmp(flag_caps[i].name, f->name) == 0 &&
		    !aw_has_cap(flag_caps[i].cap))
			return flag_caps[i].cap;
	return -1;
}

static void observe_flag(struct aw_ctx *ctx, const char *item, const struct flag *f, int rc)
{
	int cap = flag_cap_missing(f);
	if (rc == EPERM && cap >= 0)
		aw_skip_cause(ctx, item, aw_cap_name(cap), "%s answers EPERM without %s, which this run lacks",
			      f->name, aw_cap_name(cap));
	else
		aw_observe(ctx, item, "%s", rc ? aw_errname(rc) : "accepted");
}

static struct word *word_named(const char *name)
{
	for (size_t i = 0; i < AW_ARRAY_SIZE(words); i++)
		if (strcmp(words[i].name, name) == 0)
			return &words[i];
	return NULL;
}

/* ---- statx masks and membarrier ---- */

static void observe_statx(struct aw_ctx *ctx, const char *item, const char *path, const char *attr_item)
{
	char buf[512];
	unsigned long long attributes_mask;
	int err = surface_statx_fields(AT_FDCWD, path, buf, sizeof(buf), &attributes_mask);
	if (err) {
		aw_observe(ctx, item, "%s", aw_errname(err));
		if (attr_item)
			aw_observe(ctx, attr_item, "%s", aw_errname(err));
		return;
	}
	aw_observe(ctx, item, "%s", buf);
	if (attr_item)
		aw_observe(ctx, attr_item, "%#llx", attributes_mask);
}

static void observe_membarrier(struct aw_ctx *ctx)
{
	static const struct aw_bitname names[] = {
		{ 1U << 0, "GLOBAL" }, { 1U << 1, "GLOBAL_EXPEDITED" }, { 1U << 2, "REGISTER_GLOBAL_EXPEDITED" },
		{ 1U << 3, "PRIVATE_EXPEDITED" }, { 1U << 4, "REGISTER_PRIVATE_EXPEDITED" },
		{ 1U << 5, "PRIVATE_EXPEDITED_SYNC_CORE" }, { 1U << 6, "REGISTER_PRIVATE_EXPEDITED_SYNC_CORE" },
		{ 1U << 7, "PRIVATE_EXPEDITED_RSEQ" }, { 1U << 8, "REGISTER_PRIVATE_EXPEDITED_RSEQ" },
		{ 1U << 9, "GET_REGISTRATIONS" },
	};
	long r = syscall(SYS_membarrier, 0 /* MEMBARRIER_CMD_QUERY */, 0, 0);
	if (r < 0) {
		aw_observe(ctx, "membarrier.query", "%s", aw_errname(errno));
		return;
	}
	/* A command no row names shows as its bit, in hexadecimal. */
	char *query = aw_bitnames((unsigned long)r & 0x7fffffffUL, names, AW_ARRAY_SIZE(names), NULL, "none");
	aw_observe(ctx, "membarrier.query", "%s", query);
	free(query);
}

/* Of the bits no name covers that openat() accepts, those it ignores:
 * F_GETFL does not give them back (open(2): unknown flags are ignored;
 * the kernel keeps only VALID_OPEN_FLAGS).  A bit a kernel starts to
 * honour leaves this set while it stays in other_bits. */
static void observe_open_ignored(struct aw_ctx *ctx, unsigned long accepted)
{
	unsigned long ignored = 0;
	for (unsigned b = 0; b < 32; b++) {
		unsigned long bit = 1UL << b;
		if (!(accepted & bit))
			continue;
		int fd = (int)syscall(SYS_openat, AT_FDCWD, "f", O_RDWR | bit, 0600);
		if (fd < 0) {
			aw_error(ctx, "openat.ignored_bits", "openat with %#lx: %s (it was accepted)", bit,
				 aw_errname(errno));
			return;
		}
		long kept = fcntl(fd, F_GETFL);
		close(fd);
		if (kept >= 0 && !((unsigned long)kept & bit))
			ignored |= bit;
	}
	aw_observe(ctx, "openat.ignored_bits", "%#lx", ignored);
}

static void flags_run(struct aw_ctx *ctx)
{
	int fd = open("f", O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, "abiwatch\n", 9) != 9 || mkdir("d", 0755) != 0) {
		aw_error_rest(ctx, "preparing f and d in the scratch directory: %s", aw_errname(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	close(fd);
	map_fd = (int)syscall(SYS_memfd_create, "abiwatch-map", MFD_CLOEXEC);
	if (map_fd < 0 || ftruncate(map_fd, 4096) != 0) {
		aw_error_rest(ctx, "a 4096-byte memfd to map: %s", aw_errname(errno));
		return;
	}
	word_named("openat")->unswept = O_ACCMODE;
	word_named("openat2")->unswept = O_ACCMODE;
	word_named("mmap")->unswept = 0x0f | MAP_ANONYMOUS;
	word_named("mmap_validate")->unswept = 0x0f | MAP_ANONYMOUS;
	word_named("socket")->unswept = 0x0f;
	word_named("clone3")->unswept = 0xff | CLONE_VM | CLONE_SIGHAND | CLONE_THREAD | CLONE_SETTLS | CLONE_PARENT |
					CLONE_NEWNET;

	for (size_t i = 0; i < AW_ARRAY_SIZE(flags); i++) {
		const struct flag *f = &flags[i];
		struct word *w = word_named(f->word);
		char item[96];
		w->named |= f->value;
		snprintf(item, sizeof(item), "%s.%s", f->word, f->name);
		lower(item);
		observe_flag(ctx, item, f, w->try(f->value));
	}
	for (size_t i = 0; i < AW_ARRAY_SIZE(words); i++) {
		struct word *w = &words[i];
		char item[96];
		if (!w->bits)
			continue;
		unsigned long accepted = 0;
		for (unsigned b = 0; b < 32; b++) {
			unsigned long bit = 1UL << b;
			if ((w->named | w->unswept) & bit)
				continue;
			if (w->try(bit) == 0)
				accepted |= bit;
		}
		snprintf(item, sizeof(item), "%s.other_bits", w->name);
		aw_observe(ctx, item, "%#lx", accepted);
		w->other = accepted;
	}
	observe_open_ignored(ctx, word_named("openat")->other);
	observe_statx(ctx, "statx.mask.tmpfs", "f", "statx.attributes_mask.tmpfs");
	observe_statx(ctx, "statx.mask.proc", "/proc/self/stat", NULL);
	observe_statx(ctx, "statx.mask.root", "/", NULL);
	observe_membarrier(ctx);
	close(map_fd);
}

static const char *const tags[] = {
	"man:open(2)", "man:openat2(2)", "man:mmap(2)", "man:madvise(2)", "man:memfd_create(2)",
	"man:statx(2)", "man:prctl(2)", "man:fcntl(2)", "man:membarrier(2)", "man:pidfd_open(2)", NULL,
};

const struct aw_probe surface_flags_probes[] = {
	{
		.name = "flags",
		.summary = "each named flag and command value of the calls programs use: accepted or the errno; the bits no name covers",
		.run = flags_run,
		.items = flags_items,
		.tags = tags,
		.timeout_s = 60,
	},
	AW_PROBES_END,
};
