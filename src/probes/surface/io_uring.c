// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * surface.io_uring: which io_uring operations, register operations, setup
 * flags and features the kernel has, by name, so that an opcode that
 * appears or vanishes is one diff line.  Programs ask exactly this at
 * start-up: liburing's io_uring_get_probe() is IORING_REGISTER_PROBE on a
 * ring (io_uring_register(2): "IORING_REGISTER_PROBE ... which opcodes
 * are supported"), databases and runtimes built on it (QEMU, TigerBeetle,
 * ScyllaDB's Seastar, tokio-uring, glommio) pick their I/O paths from the
 * answer and io_uring_params.features (io_uring_setup(2): "features ...
 * filled in by the kernel").  Names and values are those of
 * include/uapi/linux/io_uring.h (6.18); the version each came in is the
 * one of its commit in that header's history (the version column of the
 * tables below, checked against Debian's 6.1.192 and 6.12.118 headers:
 * 6.1 ends at IORING_OP_SENDMSG_ZC, IORING_REGISTER_FILE_ALLOC_RANGE,
 * IORING_SETUP_DEFER_TASKRUN and IORING_FEAT_LINKED_FILE).
 *
 *   op.NAME        the probe's answer for the opcode: "supported",
 *                  "unsupported" (known, not built: io_eopnotsupp_prep,
 *                  io_uring/opdef.c) or "absent" (beyond last_op)
 *   register.NAME  io_uring_register(ring, OP, ...) with arguments of the
 *                  operation's form that change nothing (a pointer to an
 *                  unreadable page: EFAULT; an unregister of nothing:
 *                  ENXIO): the errno, or "ok"; EINVAL is what an unknown
 *                  opcode answers (io_uring/register.c: "default: ret =
 *                  -EINVAL"), the blind IORING_REGISTER_SEND_MSG_RING
 *                  (ring fd -1, 6.13) EBADF before it existed
 *   setup.NAME     io_uring_setup(8, params) with that flag and the
 *                  companions it requires (SQ_AFF: SQPOLL and a CPU this
 *                  process may run on; CQSIZE: cq_entries 16; ATTACH_WQ:
 *                  another ring; TASKRUN_FLAG: COOP_TASKRUN;
 *                  DEFER_TASKRUN: SINGLE_ISSUER; NO_MMAP and
 *                  REGISTERED_FD_ONLY: two pages of the probe's memory;
 *                  HYBRID_IOPOLL: IOPOLL): "accepted" or the errno
 *   feature.NAME   whether a plain ring's params.features has the bit
 *   ..other        opcodes, register operations, flag and feature bits no
 *                  name covers that the kernel has, so that one nobody
 *                  named yet shows too
 *   disabled, group, unprivileged
 *                  kernel.io_uring_disabled and kernel.io_uring_group
 *                  (6.6, commit 76d3ccecfa18;
 *                  Documentation/admin-guide/sysctl/kernel.rst:
 *                  1 "io_uring_setup ... fails with -EPERM unless the
 *                  calling process is privileged (CAP_SYS_ADMIN) or in
 *                  the io_uring_group group", 2 for everyone), and what a
 *                  child that became nobody gets from io_uring_setup;
 *                  in the VM guest the knob is set to 1 and to 2 and
 *                  both callers asked again (a global knob: never on a
 *                  host).
 *
 * Everything a ring holds (registered buffers, files, a personality, the
 * SQPOLL thread) is the ring's and goes when its descriptor is closed,
 * at once after each ask; the probe's process and PID namespace end
 * after it in any case.  No liburing: three system calls and the
 * header's layouts are all it takes, and a library would answer with
 * its own idea of the kernel's features.
 */
#include "surface.h"
#include "lib/caps.h"
#include "lib/child.h"
#include "lib/errname.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_io_uring_setup
#define SYS_io_uring_setup 425
#define SYS_io_uring_register 427
#endif

/* The layouts of include/uapi/linux/io_uring.h, with the 6.5 names of
 * the fields the build's (6.1) header calls resv2. */
struct uring_sq_offsets {
	uint32_t head, tail, ring_mask, ring_entries, flags, dropped, array, resv1;
	uint64_t user_addr;
};
struct uring_cq_offsets {
	uint32_t head, tail, ring_mask, ring_entries, overflow, cqes, flags, resv1;
	uint64_t user_addr;
};
struct uring_params {
	uint32_t sq_entries, cq_entries, flags, sq_thread_cpu, sq_thread_idle, features, wq_fd, resv[3];
	struct uring_sq_offsets sq_off;
	struct uring_cq_offsets cq_off;
};
struct uring_probe_op {
	uint8_t op, resv;
	uint16_t flags;
	uint32_t resv2;
};
#define URING_PROBE_OPS 256
struct uring_probe {
	uint8_t last_op, ops_len;
	uint16_t resv;
	uint32_t resv2[3];
	struct uring_probe_op ops[URING_PROBE_OPS];
};
#define IO_URING_OP_SUPPORTED 1

/* OP(name, version): every IORING_OP_*, in the enum's order (its value). */
#define URING_OPS(OP)                                                                                \
	OP(nop, "5.1") OP(readv, "5.1") OP(writev, "5.1") OP(fsync, "5.1") OP(read_fixed, "5.1")        \
	OP(write_fixed, "5.1") OP(poll_add, "5.1") OP(poll_remove, "5.1") OP(sync_file_range, "5.2")  \
	OP(sendmsg, "5.3") OP(recvmsg, "5.3") OP(timeout, "5.4") OP(timeout_remove, "5.5")            \
	OP(accept, "5.5") OP(async_cancel, "5.5") OP(link_timeout, "5.5") OP(connect, "5.5")          \
	OP(fallocate, "5.6") OP(openat, "5.6") OP(close, "5.6") OP(files_update, "5.6")               \
	OP(statx, "5.6") OP(read, "5.6") OP(write, "5.6") OP(fadvise, "5.6") OP(madvise, "5.6")       \
	OP(send, "5.6") OP(recv, "5.6") OP(openat2, "5.6") OP(epoll_ctl, "5.6") OP(splice, "5.7")     \
	OP(provide_buffers, "5.7") OP(remove_buffers, "5.7") OP(tee, "5.8") OP(shutdown, "5.11")      \
	OP(renameat, "5.11") OP(unlinkat, "5.11") OP(mkdirat, "5.15") OP(symlinkat, "5.15")           \
	OP(linkat, "5.15") OP(msg_ring, "5.18") OP(fsetxattr, "5.19") OP(setxattr, "5.19")            \
	OP(fgetxattr, "5.19") OP(getxattr, "5.19") OP(socket, "5.19") OP(uring_cmd, "5.19")           \
	OP(send_zc, "6.0") OP(sendmsg_zc, "6.1") OP(read_multishot, "6.7") OP(waitid, "6.7")          \
	OP(futex_wait, "6.7") OP(futex_wake, "6.7") OP(futex_waitv, "6.7")                            \
	OP(fixed_fd_install, "6.8") OP(ftruncate, "6.9") OP(bind, "6.11") OP(listen, "6.11")          \
	OP(recv_zc, "6.15") OP(epoll_wait, "6.15") OP(readv_fixed, "6.15") OP(writev_fixed, "6.15")   \
	OP(pipe, "6.16")

/* R(name, version, form): every IORING_REGISTER_* in the enum's order;
 * form is how it is asked (enum reg_form). */
#define URING_REGISTERS(R)                                                                           \
	R(register_buffers, "5.1", BAD_1) R(unregister_buffers, "5.1", NONE)                           \
	R(register_files, "5.1", BAD_1) R(unregister_files, "5.1", NONE)                               \
	R(register_eventfd, "5.2", BAD_1) R(unregister_eventfd, "5.2", NONE)                           \
	R(register_files_update, "5.5", BAD_1) R(register_eventfd_async, "5.6", BAD_1)                 \
	R(register_probe, "5.6", PROBE) R(register_personality, "5.6", NONE)                           \
	R(unregister_personality, "5.6", PERSONALITY) R(register_restrictions, "5.10", BAD_1)          \
	R(register_enable_rings, "5.10", NONE) R(register_files2, "5.13", BAD_RSRC)                    \
	R(register_files_update2, "5.13", BAD_RSRC) R(register_buffers2, "5.13", BAD_RSRC)             \
	R(register_buffers_update, "5.13", BAD_RSRC) R(register_iowq_aff, "5.14", BAD_8)               \
	R(unregister_iowq_aff, "5.14", NONE) R(register_iowq_max_workers, "5.15", BAD_2)               \
	R(register_ring_fds, "5.18", BAD_1) R(unregister_ring_fds, "5.18", BAD_1)                      \
	R(register_pbuf_ring, "5.19", BAD_1) R(unregister_pbuf_ring, "5.19", BAD_1)                    \
	R(register_sync_cancel, "6.0", BAD_1) R(register_file_alloc_range, "6.0", BAD_0)               \
	R(register_pbuf_status, "6.8", BAD_1) R(register_napi, "6.9", BAD_1)                           \
	R(unregister_napi, "6.9", BAD_1) R(register_clock, "6.12", BAD_0)                              \
	R(register_clone_buffers, "6.12", BAD_1) R(register_send_msg_ring, "6.13", BLIND)              \
	R(register_zcrx_ifq, "6.15", BAD_1) R(register_resize_rings, "6.13", BAD_1)                    \
	R(register_mem_region, "6.13", BAD_1) R(register_query, "6.18", BLIND_0)

/* S(name, version): every IORING_SETUP_* flag, bit n the n-th. */
#define URING_SETUPS(S)                                                                              \
	S(iopoll, "5.1") S(sqpoll, "5.1") S(sq_aff, "5.1") S(cqsize, "5.5") S(clamp, "5.6")            \
	S(attach_wq, "5.6") S(r_disabled, "5.10") S(submit_all, "5.18") S(coop_taskrun, "5.19")        \
	S(taskrun_flag, "5.19") S(sqe128, "5.19") S(cqe32, "5.19") S(single_issuer, "6.0")             \
	S(defer_taskrun, "6.1") S(no_mmap, "6.5") S(registered_fd_only, "6.5") S(no_sqarray, "6.6")    \
	S(hybrid_iopoll, "6.13") S(cqe_mixed, "6.18")

/* F(name, version): every IORING_FEAT_* bit, bit n the n-th. */
#define URING_FEATURES(F)                                                                            \
	F(single_mmap, "5.4") F(nodrop, "5.5") F(submit_stable, "5.5") F(rw_cur_pos, "5.6")            \
	F(cur_personality, "5.6") F(fast_poll, "5.7") F(poll_32bits, "5.9") F(sqpoll_nonfixed, "5.11") \
	F(ext_arg, "5.11") F(native_workers, "5.12") F(rsrc_tags, "5.13") F(cqe_skip, "5.17")          \
	F(linked_file, "5.17") F(reg_reg_ring, "6.3") F(recvsend_bundle, "6.10") F(min_timeout, "6.12") \
	F(rw_attr, "6.13") F(no_iowait, "6.15")

enum reg_form {
	NONE,        /* arg NULL, nr_args 0 */
	BAD_0,       /* an unreadable page, nr_args 0 */
	BAD_1,       /* an unreadable page, nr_args 1 */
	BAD_2,       /* an unreadable page, nr_args 2 */
	BAD_8,       /* an unreadable page, nr_args 8 (a CPU mask's bytes) */
	BAD_RSRC,    /* an unreadable page, nr_args 32 (the size of struct io_uring_rsrc_register) */
	PROBE,       /* a real probe of 256 entries */
	PERSONALITY, /* the personality register_personality gave (else 65535) */
	BLIND,       /* ring fd -1, an unreadable page, nr_args 1 */
	BLIND_0,     /* ring fd -1, an unreadable page, nr_args 0 */
};

#define NAME_ROW(n, v) #n,
static const char *const op_names[] = { URING_OPS(NAME_ROW) };
static const char *const setup_names[] = { URING_SETUPS(NAME_ROW) };
static const char *const feature_names[] = { URING_FEATURES(NAME_ROW) };
#define REG_ROW(n, v, form) { #n, form },
static const struct {
	const char *name;
	enum reg_form form;
} registers[] = { URING_REGISTERS(REG_ROW) };

static const char *const op_absent[] = { "absent", "ENOSYS", NULL };
static const char *const reg_absent[] = { "EINVAL", "EBADF", "ENOSYS", NULL };
static const char *const setup_absent[] = { "EINVAL", "ENOSYS", NULL };
static const char *const feature_absent[] = { "no", "ENOSYS", NULL };
static const char *const knob_absent[] = { "absent", NULL };

#define OP_ITEM(n, v)                                                                                \
	AW_OBS_ITEM("op." #n, "IORING_OP_" #n " (" v ") in IORING_REGISTER_PROBE's answer: supported, unsupported (known, not built) or absent", \
		    .change = "absent -> supported: programs probing for the opcode (liburing's io_uring_opcode_supported) start to use it; the reverse: they fall back or fail", \
		    .object = "op", .absent = op_absent),
#define REG_ITEM(n, v, form)                                                                         \
	AW_OBS_ITEM("register." #n, "io_uring_register(IORING_" #n ", " v ") with arguments of its form that change nothing: ok or the errno (EINVAL: unknown)", \
		    .change = "EINVAL -> another answer: the register operation appeared; the reverse: it vanished and its users get EINVAL", \
		    .object = "register", .absent = reg_absent),
#define SETUP_ITEM(n, v)                                                                             \
	AW_OBS_ITEM("setup." #n, "io_uring_setup() with IORING_SETUP_" #n " (" v ") and the companions it requires: accepted or the errno", \
		    .change = "EINVAL -> accepted: the setup flag appeared; accepted -> EINVAL: rings asking for it are refused", \
		    .object = "setup", .absent = setup_absent),
#define FEATURE_ITEM(n, v)                                                                           \
	AW_OBS_ITEM("feature." #n, "whether io_uring_params.features of a plain ring has IORING_FEAT_" #n " (" v ")", \
		    .change = "no -> yes: the kernel promises the feature and programs stop working around its lack", \
		    .object = "feature", .absent = feature_absent),

static const struct aw_item io_uring_items[] = {
	URING_OPS(OP_ITEM)
	AW_OBS_ITEM("op.other", "opcodes beyond the named ones the probe says are supported, as op_N (none: none)",
		    .change = "the kernel has an opcode this table does not name yet", .object = "op"),
	URING_REGISTERS(REG_ITEM)
	AW_OBS_ITEM("register.other", "register opcodes beyond the named ones (up to 63) that do not answer EINVAL, as N (none: none)",
		    .change = "the kernel has a register operation this table does not name yet", .object = "register"),
	URING_SETUPS(SETUP_ITEM)
	AW_OBS_ITEM("setup.other_bits", "the setup flag bits no name covers that io_uring_setup accepts alone, as hex (0: none)",
		    .change = "the kernel accepts a setup flag this table does not name yet", .object = "setup"),
	URING_FEATURES(FEATURE_ITEM)
	AW_OBS_ITEM("feature.other_bits", "the feature bits of a plain ring no name covers, as hex (0: none)",
		    .change = "the kernel reports a feature this table does not name yet", .object = "feature"),
	AW_OBS_ITEM("disabled", "kernel.io_uring_disabled (6.6): 0, 1 (only the privileged and io_uring_group), 2 (no one); absent before 6.6",
		    .change = "the machine allows io_uring to fewer (or more) callers: programs without a fallback fail with EPERM",
		    .object = "access", .absent = knob_absent),
	AW_OBS_ITEM("group", "kernel.io_uring_group (6.6): the group io_uring_disabled=1 still lets in (-1: none)",
		    .object = "access", .absent = knob_absent),
	AW_OBS_ITEM("unprivileged", "io_uring_setup(8) in a child that became nobody (no capability): accepted or the errno",
		    .change = "an unprivileged process can no longer make a ring (or now can): rootless containers and services lose io_uring",
		    .object = "access"),
	AW_OBS_ITEM("disabled_1.privileged", "with kernel.io_uring_disabled set to 1 (VM guest only): io_uring_setup as root",
		    .vm_guest = "sets kernel.io_uring_disabled, a knob of the whole machine", .object = "access", .absent = knob_absent,
		    .change = "what io_uring_disabled=1 lets the privileged do changed"),
	AW_OBS_ITEM("disabled_1.unprivileged", "with kernel.io_uring_disabled set to 1 (VM guest only): io_uring_setup as nobody",
		    .vm_guest = "sets kernel.io_uring_disabled, a knob of the whole machine", .object = "access", .absent = knob_absent,
		    .change = "what io_uring_disabled=1 refuses an unprivileged caller changed"),
	AW_OBS_ITEM("disabled_2.privileged", "with kernel.io_uring_disabled set to 2 (VM guest only): io_uring_setup as root",
		    .vm_guest = "sets kernel.io_uring_disabled, a knob of the whole machine", .object = "access", .absent = knob_absent,
		    .change = "what io_uring_disabled=2 refuses root changed"),
	AW_OBS_ITEM("disabled_2.unprivileged", "with kernel.io_uring_disabled set to 2 (VM guest only): io_uring_setup as nobody",
		    .vm_guest = "sets kernel.io_uring_disabled, a knob of the whole machine", .object = "access", .absent = knob_absent,
		    .change = "what io_uring_disabled=2 refuses an unprivileged caller changed"),
	AW_ITEMS_END
};

/* ---- rings ---- */

static int ring_setup(unsigned entries, struct uring_params *p)
{
	long fd = syscall(SYS_io_uring_setup, entries, p);
	return fd < 0 ? -errno : (int)fd;
}

/* A plain ring of 8 entries, its params in *p: the fd or -errno. */
static int plain_ring(struct uring_params *p)
{
	memset(p, 0, sizeof(*p));
	return ring_setup(8, p);
}

static long ring_register(int fd, unsigned op, void *arg, unsigned nr)
{
	return syscall(SYS_io_uring_register, fd, op, arg, nr);
}

/* A CPU this process may run on, for SQ_AFF (a cpuset may leave 0 out). */
static unsigned allowed_cpu(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		for (unsigned c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &set))
				return c;
	return 0;
}

/* Two page-aligned pages of the probe's own, for NO_MMAP's rings and SQEs. */
static void *user_pages;

/* io_uring_setup() with flag bit b and its companions: 0 or the errno. */
static int try_setup(unsigned b, int other_ring)
{
	static const unsigned SQPOLL = 1U << 1, COOP = 1U << 8, SINGLE = 1U << 12, NO_MMAP = 1U << 14,
			      IOPOLL = 1U << 0;
	struct uring_params p;
	memset(&p, 0, sizeof(p));
	p.flags = 1U << b;
	switch (b) {
	case 2: p.flags |= SQPOLL; p.sq_thread_cpu = allowed_cpu(); break; /* SQ_AFF */
	case 3: p.cq_entries = 16; break;                                 /* CQSIZE */
	case 5: p.wq_fd = (uint32_t)other_ring; break;                    /* ATTACH_WQ */
	case 9: p.flags |= COOP; break;                                   /* TASKRUN_FLAG */
	case 13: p.flags |= SINGLE; break;                                /* DEFER_TASKRUN */
	case 14: case 15: /* NO_MMAP; REGISTERED_FD_ONLY, which needs NO_MMAP */
		p.flags |= NO_MMAP;
		if (!user_pages)
			return ENOMEM;
		memset(user_pages, 0, 2 * 4096);
		p.sq_off.user_addr = (uintptr_t)user_pages;
		p.cq_off.user_addr = (uintptr_t)user_pages + 4096;
		break;
	case 17: p.flags |= IOPOLL; break; /* HYBRID_IOPOLL */
	}
	int fd = ring_setup(8, &p);
	if (fd < 0)
		return -fd;
	/* REGISTERED_FD_ONLY gives an index into the task's registered
	 * rings, not a descriptor: the registration goes with the task. */
	if (!(p.flags & (1U << 15)))
		close(fd);
	return 0;
}

/* ---- the reports ---- */

static void list_append(char *buf, size_t size, const char *word)
{
	size_t len = strlen(buf);
	snprintf(buf + len, size - len, "%s%s", len ? "," : "", word);
}

static void observe_ops(struct aw_ctx *ctx, int ring)
{
	struct uring_probe *probe = calloc(1, sizeof(*probe));
	if (!probe) {
		aw_error(ctx, "op.other", "out of memory");
		return;
	}
	if (ring_register(ring, 8 /* IORING_REGISTER_PROBE */, probe, URING_PROBE_OPS) != 0) {
		int e = errno;
		for (size_t i = 0; i < AW_ARRAY_SIZE(op_names); i++) {
			char item[64];
			snprintf(item, sizeof(item), "op.%s", op_names[i]);
			aw_observe(ctx, item, "%s", aw_errname(e));
		}
		aw_observe(ctx, "op.other", "%s", aw_errname(e));
		free(probe);
		return;
	}
	for (size_t i = 0; i < AW_ARRAY_SIZE(op_names); i++) {
		char item[64];
		snprintf(item, sizeof(item), "op.%s", op_names[i]);
		const char *v = i >= probe->ops_len ? "absent"
				: probe->ops[i].flags & IO_URING_OP_SUPPORTED ? "supported" : "unsupported";
		aw_observe(ctx, item, "%s", v);
	}
	char other[1024] = "";
	for (size_t i = AW_ARRAY_SIZE(op_names); i < probe->ops_len; i++)
		if (probe->ops[i].flags & IO_URING_OP_SUPPORTED) {
			char word[16];
			snprintf(word, sizeof(word), "op_%zu", i);
			list_append(other, sizeof(other), word);
		}
	aw_observe(ctx, "op.other", "%s", *other ? other : "none");
	free(probe);
}

/* The answer of register operation op asked in form on ring. */
static int try_register(int ring, unsigned op, enum reg_form form, void *bad, int *personality)
{
	static const unsigned nr_of[] = { [BAD_0] = 0, [BAD_1] = 1, [BAD_2] = 2, [BAD_8] = 8, [BAD_RSRC] = 32 };
	long r;
	switch (form) {
	case NONE:
		r = ring_register(ring, op, NULL, 0);
		if (r > 0 && op == 9 /* IORING_REGISTER_PERSONALITY: its id */)
			*personality = (int)r;
		break;
	case PROBE: {
		struct uring_probe *probe = calloc(1, sizeof(*probe));
		if (!probe)
			return ENOMEM;
		r = ring_register(ring, op, probe, URING_PROBE_OPS);
		free(probe);
		break;
	}
	case PERSONALITY:
		r = ring_register(ring, op, NULL, *personality > 0 ? (unsigned)*personality : 65535);
		break;
	case BLIND:
	case BLIND_0:
		r = ring_register(-1, op, bad, form == BLIND);
		break;
	default:
		r = ring_register(ring, op, bad, nr_of[form]);
		break;
	}
	return r < 0 ? errno : 0;
}

static void observe_registers(struct aw_ctx *ctx, int ring)
{
	void *bad = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (bad == MAP_FAILED) {
		aw_error(ctx, "register.other", "an unreadable page: %s", aw_errname(errno));
		return;
	}
	int personality = 0;
	for (size_t i = 0; i < AW_ARRAY_SIZE(registers); i++) {
		char item[80];
		snprintf(item, sizeof(item), "register.%s", registers[i].name);
		int rc = try_register(ring, (unsigned)i, registers[i].form, bad, &personality);
		aw_observe(ctx, item, "%s", rc ? aw_errname(rc) : "ok");
	}
	char other[512] = "";
	for (unsigned op = AW_ARRAY_SIZE(registers); op < 64; op++) {
		int rc = try_register(ring, op, BAD_1, bad, &personality);
		if (rc != EINVAL) {
			char word[16];
			snprintf(word, sizeof(word), "%u", op);
			list_append(other, sizeof(other), word);
		}
	}
	aw_observe(ctx, "register.other", "%s", *other ? other : "none");
	munmap(bad, 4096);
}

static void observe_setups(struct aw_ctx *ctx, int ring)
{
	for (unsigned b = 0; b < AW_ARRAY_SIZE(setup_names); b++) {
		char item[64];
		snprintf(item, sizeof(item), "setup.%s", setup_names[b]);
		int rc = try_setup(b, ring);
		aw_observe(ctx, item, "%s", rc ? aw_errname(rc) : "accepted");
	}
	unsigned long other = 0;
	for (unsigned b = AW_ARRAY_SIZE(setup_names); b < 32; b++)
		if (try_setup(b, ring) == 0)
			other |= 1UL << b;
	aw_observe(ctx, "setup.other_bits", "%#lx", other);
}

static void observe_features(struct aw_ctx *ctx, unsigned features)
{
	for (unsigned b = 0; b < AW_ARRAY_SIZE(feature_names); b++) {
		char item[64];
		snprintf(item, sizeof(item), "feature.%s", feature_names[b]);
		aw_observe(ctx, item, "%s", features & (1U << b) ? "yes" : "no");
	}
	unsigned long known = (1UL << AW_ARRAY_SIZE(feature_names)) - 1;
	aw_observe(ctx, "feature.other_bits", "%#lx", features & ~known);
}

/* ---- who may make a ring ---- */

/* The first line of /proc/sys/kernel/NAME, or "absent". */
static void observe_knob(struct aw_ctx *ctx, const char *item, const char *path)
{
	char buf[64] = "";
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			aw_observe(ctx, item, "absent");
		else
			aw_error(ctx, item, "%s: %s", path, aw_errname(errno));
		return;
	}
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0) {
		aw_error(ctx, item, "%s: %s", path, n < 0 ? aw_errname(errno) : "empty");
		return;
	}
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	aw_observe(ctx, item, "%s", buf);
}

/* In a child: io_uring_setup's answer as an exit status (0 or the errno). */
static int setup_child(void *unused)
{
	(void)unused;
	struct uring_params p;
	int fd = plain_ring(&p);
	if (fd < 0)
		return -fd > 254 ? 254 : -fd;
	close(fd);
	return 0;
}

static void report_setup_status(struct aw_ctx *ctx, const char *item, int st, int refused)
{
	if (refused)
		aw_skip_cause(ctx, item, "cap_setuid", "a child cannot become nobody: %s", aw_become_user_why(refused));
	else if (st < 0 || st >= 128)
		aw_error(ctx, item, "the child that asked ended with %d", st);
	else
		aw_observe(ctx, item, "%s", st ? aw_errname(st) : "accepted");
}

static void observe_unprivileged(struct aw_ctx *ctx, const char *item)
{
	int refused = 0;
	int st = aw_child_run_as(AW_NOBODY, AW_NOBODY, setup_child, NULL, 10000, &refused);
	report_setup_status(ctx, item, st, refused);
}

static void observe_privileged(struct aw_ctx *ctx, const char *item)
{
	int st = aw_child_run(setup_child, NULL, 10000);
	report_setup_status(ctx, item, st, 0);
}

/* The VM guest only: each value of the knob and both callers.  A kernel
 * without it (before 6.6) has nothing to set: "absent". */
static void observe_disabled_values(struct aw_ctx *ctx)
{
	static const char *const values[] = { "1", "2" };
	for (size_t i = 0; i < AW_ARRAY_SIZE(values); i++) {
		char priv[48], unpriv[48];
		snprintf(priv, sizeof(priv), "disabled_%s.privileged", values[i]);
		snprintf(unpriv, sizeof(unpriv), "disabled_%s.unprivileged", values[i]);
		if (!aw_item_needs_met(ctx, priv))
			return;
		if (access("/proc/sys/kernel/io_uring_disabled", F_OK) != 0) {
			aw_observe(ctx, priv, "absent");
			aw_observe(ctx, unpriv, "absent");
			continue;
		}
		int rc = aw_sysctl_write(ctx, "kernel.io_uring_disabled", values[i]);
		if (rc != 0) {
			aw_error(ctx, priv, "setting kernel.io_uring_disabled to %s: %s", values[i], aw_sysctl_strerror(rc));
			aw_error(ctx, unpriv, "setting kernel.io_uring_disabled to %s: %s", values[i], aw_sysctl_strerror(rc));
			continue;
		}
		observe_privileged(ctx, priv);
		observe_unprivileged(ctx, unpriv);
	}
	if (access("/proc/sys/kernel/io_uring_disabled", F_OK) == 0)
		aw_sysctl_write(ctx, "kernel.io_uring_disabled", "0");
}

static void io_uring_run(struct aw_ctx *ctx)
{
	observe_knob(ctx, "disabled", "/proc/sys/kernel/io_uring_disabled");
	observe_knob(ctx, "group", "/proc/sys/kernel/io_uring_group");
	observe_unprivileged(ctx, "unprivileged");

	struct uring_params p;
	int ring = plain_ring(&p);
	if (ring < 0) {
		/* No ring at all: io_uring configured out (ENOSYS) or refused to
		 * this caller (EPERM: io_uring_disabled). */
		if (-ring == EPERM)
			aw_skip_rest(ctx, "io_uring_setup answers EPERM to this run (kernel.io_uring_disabled)");
		else
			aw_error_rest(ctx, "io_uring_setup: %s", aw_errname(-ring));
		return;
	}
	observe_ops(ctx, ring);
	observe_features(ctx, p.features);
	user_pages = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (user_pages == MAP_FAILED)
		user_pages = NULL;
	observe_setups(ctx, ring);
	close(ring);
	/* A ring of its own for the register sweep: what it registers goes
	 * with it.  IORING_REGISTER_RESIZE_RINGS and ZCRX_IFQ refuse (EINVAL,
	 * as for an unknown opcode) a ring without DEFER_TASKRUN and big
	 * CQEs (io_uring/register.c, io_uring/zcrx.c), so the ring has them
	 * where the kernel does (6.1 and later), else it is a plain one. */
	memset(&p, 0, sizeof(p));
	p.flags = 1U << 12 | 1U << 13 | 1U << 11; /* SINGLE_ISSUER | DEFER_TASKRUN | CQE32 */
	ring = ring_setup(8, &p);
	if (ring < 0)
		ring = plain_ring(&p);
	if (ring < 0) {
		aw_error(ctx, "register.other", "a second ring: %s", aw_errname(-ring));
		return;
	}
	observe_registers(ctx, ring);
	close(ring);
	observe_disabled_values(ctx);
}

static const char *const tags[] = {
	"man:io_uring_setup(2)", "man:io_uring_register(2)", "man:io_uring_enter(2)", NULL,
};

const struct aw_probe surface_io_uring_probes[] = {
	{
		.name = "io_uring",
		.summary = "io_uring's opcodes, register operations, setup flags and features by name, and who may make a ring",
		.run = io_uring_run,
		.items = io_uring_items,
		.tags = tags,
		.timeout_s = 60,
		.alone = "sets kernel.io_uring_disabled in the VM guest, a knob every probe's rings obey",
	},
	AW_PROBES_END,
};
