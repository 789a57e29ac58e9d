// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sandbox.bpf: which BPF program and map types the kernel has, as root
 * and as an unprivileged user, and what kernel.unprivileged_bpf_disabled
 * does to the latter (bpf(2); Documentation/admin-guide/sysctl/kernel.rst,
 * "unprivileged_bpf_disabled": 0 allows, 1 refuses until reboot, 2
 * refuses and may be set back to 0; Debian builds with
 * CONFIG_BPF_UNPRIV_DEFAULT_OFF=y, so it starts at 2).
 *
 * The way `bpftool feature probe` and libbpf's libbpf_probe_bpf_prog_type()
 * ask (their method, not their code): a program of each type made of the
 * two instructions "r0 = 0; exit", GPL, with the expected_attach_type the
 * kernel requires of the types that need one (CGROUP_SOCK_ADDR:
 * BPF_CGROUP_INET4_CONNECT, CGROUP_SOCKOPT: BPF_CGROUP_GETSOCKOPT,
 * SK_LOOKUP: BPF_SK_LOOKUP, NETFILTER: BPF_NETFILTER, TRACING:
 * BPF_TRACE_FENTRY, LSM: BPF_LSM_MAC) and attach_btf_id 1 for those that
 * attach to a kernel object (TRACING, LSM, STRUCT_OPS, EXT).  A type is
 * there as root when the program loads or the verifier ran on it (it left
 * a log: "attach_btf_id 1 is not a function", "Syscall programs can only
 * be sleepable"); a kernel without the type answers EINVAL before any
 * verifier runs (kernel/bpf/syscall.c, find_prog_type()).  A map of each
 * type with the smallest sizes the type takes (the map_alloc_check
 * functions of kernel/bpf/; a BTF of one int, BPF_BTF_LOAD, for the local
 * storage maps, which need one), there when it is made (STRUCT_OPS:
 * when it answers ENOTSUPP for the unknown struct id 1, after the type
 * was found).  A type of the table that root is refused with another
 * errno (EPERM: a capability check or a security module) is there too, since
 * the kernel found it, and is named again with its errno in
 * prog_types.refused or map_types.refused.  Lockdown (env.lockdown)
 * refuses none of these: it refuses helpers, when the verifier looks a
 * program's calls up (6.12: kernel/trace/bpf_trace.c
 * bpf_tracing_func_proto(), kernel/bpf/helpers.c bpf_base_func_proto(),
 * LOCKDOWN_BPF_READ_KERNEL and LOCKDOWN_BPF_WRITE_USER), and these
 * programs call none.  Types past the table's last (NETFILTER; ARENA) are tried
 * too, by number, so that a new one shows.  As an unprivileged user (a
 * child that became nobody, which clears every capability; in a user
 * namespace of an unprivileged run, a plain child, whose capabilities
 * count for nothing in the initial namespace, where bpf() asks), a type is
 * there only when it loads or is made; with the knob at 1 or 2 everything
 * is EPERM (kernel/bpf/syscall.c: "if (sysctl_unprivileged_bpf_disabled
 * && !bpf_capable()) return -EPERM").  In the VM guest the knob is also
 * set to 0 for the unprivileged sweep and put back.  Every descriptor is
 * closed at once (nothing is pinned or attached, so the object goes with
 * it), and the probe checks at the end that it holds no BPF object.
 */
#include "sandbox.h"
#include "lib/caps.h"
#include "lib/child.h"
#include "lib/errname.h"
#include "lib/procfs.h"
#include "lib/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/capability.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

/* Newer than the build's uapi headers (include/uapi/linux/bpf.h, 6.12). */
#define PROG_NETFILTER 32
#define ATTACH_NETFILTER 45
#define ENOTSUPP_KERNEL 524 /* include/linux/errno.h, not in uapi */

#define NAMES_END { .name = NULL }
static const char *const prog_names[] = {
	"UNSPEC", "SOCKET_FILTER", "KPROBE", "SCHED_CLS", "SCHED_ACT", "TRACEPOINT", "XDP", "PERF_EVENT",
	"CGROUP_SKB", "CGROUP_SOCK", "LWT_IN", "LWT_OUT", "LWT_XMIT", "SOCK_OPS", "SK_SKB", "CGROUP_DEVICE",
	"SK_MSG", "RAW_TRACEPOINT", "CGROUP_SOCK_ADDR", "LWT_SEG6LOCAL", "LIRC_MODE2", "SK_REUSEPORT",
	"FLOW_DISSECTOR", "CGROUP_SYSCTL", "RAW_TRACEPOINT_WRITABLE", "CGROUP_SOCKOPT", "TRACING", "STRUCT_OPS",
	"EXT", "LSM", "SK_LOOKUP", "SYSCALL", "NETFILTER",
};
static const char *const map_names[] = {
	"UNSPEC", "HASH", "ARRAY", "PROG_ARRAY", "PERF_EVENT_ARRAY", "PERCPU_HASH", "PERCPU_ARRAY",
	"STACK_TRACE", "CGROUP_ARRAY", "LRU_HASH", "LRU_PERCPU_HASH", "LPM_TRIE", "ARRAY_OF_MAPS",
	"HASH_OF_MAPS", "DEVMAP", "SOCKMAP", "CPUMAP", "XSKMAP", "SOCKHASH", "CGROUP_STORAGE",
	"REUSEPORT_SOCKARRAY", "PERCPU_CGROUP_STORAGE", "QUEUE", "STACK", "SK_STORAGE", "DEVMAP_HASH",
	"STRUCT_OPS", "RINGBUF", "INODE_STORAGE", "TASK_STORAGE", "BLOOM_FILTER", "USER_RINGBUF",
	"CGRP_STORAGE", "ARENA",
};
/* Numbers past each table that are tried as well. */
#define BEYOND 8

enum who { ROOT, UNPRIV };

static long bpf_call(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

static void close_fd(long fd)
{
	if (fd >= 0)
		close((int)fd);
}

/* The descriptor of a BPF_PROG_LOAD of "r0 = 0; exit" of type, or -1;
 * *verified says whether the verifier left a log. */
static long load_prog(unsigned type, bool *verified)
{
	static const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	static char log[4096];
	union bpf_attr attr;
	struct utsname u;
	unsigned a = 0, b = 0, c = 0;

	memset(&attr, 0, sizeof(attr));
	if (uname(&u) == 0)
		sscanf(u.release, "%u.%u.%u", &a, &b, &c);
	attr.prog_type = type;
	attr.insn_cnt = 2;
	attr.insns = (uintptr_t)insns;
	attr.license = (uintptr_t) "GPL";
	attr.kern_version = (a << 16) + (b << 8) + (c > 255 ? 255 : c); /* KPROBE before 5.0 checked it */
	attr.log_level = 1;
	attr.log_buf = (uintptr_t)log;
	attr.log_size = sizeof(log);
	log[0] = '\0';
	switch (type) {
	case BPF_PROG_TYPE_CGROUP_SOCK_ADDR: attr.expected_attach_type = BPF_CGROUP_INET4_CONNECT; break;
	case BPF_PROG_TYPE_CGROUP_SOCKOPT: attr.expected_attach_type = BPF_CGROUP_GETSOCKOPT; break;
	case BPF_PROG_TYPE_SK_LOOKUP: attr.expected_attach_type = BPF_SK_LOOKUP; break;
	case PROG_NETFILTER: attr.expected_attach_type = ATTACH_NETFILTER; break;
	case BPF_PROG_TYPE_TRACING: attr.expected_attach_type = BPF_TRACE_FENTRY; attr.attach_btf_id = 1; break;
	case BPF_PROG_TYPE_LSM: attr.expected_attach_type = BPF_LSM_MAC; attr.attach_btf_id = 1; break;
	case BPF_PROG_TYPE_STRUCT_OPS:
	case BPF_PROG_TYPE_EXT: attr.attach_btf_id = 1; break;
	default: break;
	}
	long fd = bpf_call(BPF_PROG_LOAD, &attr);
	int err = errno;
	*verified = log[0] != '\0';
	errno = err;
	return fd;
}

/* A BTF of one type, a 32-bit signed int (id 1), for the maps that need
 * a BTF: include/uapi/linux/btf.h's layout. */
static long load_int_btf(void)
{
	static const struct {
		uint16_t magic;
		uint8_t version, flags;
		uint32_t hdr_len, type_off, type_len, str_off, str_len;
		uint32_t name_off, info, size, encoding; /* struct btf_type, then the int's */
		char strings[5];
	} __attribute__((packed)) btf = {
		0xeb9f, 1, 0, 24, 0, 16, 16, 5, 1, 1U << 24 /* BTF_KIND_INT */, 4, (1U << 24) | 32 /* signed, 32 bits */,
		"\0int",
	};
	union bpf_attr attr;
	memset(&attr, 0, sizeof(attr));
	attr.btf = (uintptr_t)&btf;
	attr.btf_size = sizeof(btf);
	return bpf_call(BPF_BTF_LOAD, &attr);
}

/* The descriptor of a BPF_MAP_CREATE of type with the smallest sizes it
 * takes, or -1 with errno. */
static long create_map(unsigned type)
{
	union bpf_attr attr;
	long inner = -1, btf = -1;
	memset(&attr, 0, sizeof(attr));
	attr.map_type = type;
	attr.key_size = 4;
	attr.value_size = 4;
	attr.max_entries = 1;
	switch (type) {
	case BPF_MAP_TYPE_STACK_TRACE: attr.value_size = 8; break;
	case BPF_MAP_TYPE_LPM_TRIE: attr.key_size = 8; attr.map_flags = BPF_F_NO_PREALLOC; break;
	case BPF_MAP_TYPE_CGROUP_STORAGE:
	case BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE:
		attr.key_size = sizeof(struct bpf_cgroup_storage_key);
		attr.max_entries = 0;
		break;
	case BPF_MAP_TYPE_QUEUE:
	case BPF_MAP_TYPE_STACK:
	case BPF_MAP_TYPE_BLOOM_FILTER: attr.key_size = 0; break;
	case BPF_MAP_TYPE_RINGBUF:
	case BPF_MAP_TYPE_USER_RINGBUF:
		attr.key_size = attr.value_size = 0;
		attr.max_entries = (unsigned)sysconf(_SC_PAGESIZE);
		break;
	case 33: /* ARENA: pages, mappable only */
		attr.key_size = attr.value_size = 0;
		attr.map_flags = BPF_F_MMAPABLE;
		break;
	case BPF_MAP_TYPE_STRUCT_OPS:
		attr.value_size = 256;
		attr.btf_vmlinux_value_type_id = 1;
		break;
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
	case BPF_MAP_TYPE_HASH_OF_MAPS: {
		union bpf_attr in;
		memset(&in, 0, sizeof(in));
		in.map_type = BPF_MAP_TYPE_ARRAY;
		in.key_size = in.value_size = in.max_entries = 4;
		inner = bpf_call(BPF_MAP_CREATE, &in);
		if (inner < 0)
			return -1;
		attr.inner_map_fd = (unsigned)inner;
		break;
	}
	case BPF_MAP_TYPE_SK_STORAGE:
	case BPF_MAP_TYPE_INODE_STORAGE:
	case BPF_MAP_TYPE_TASK_STORAGE:
	case 32: /* CGRP_STORAGE */
		btf = load_int_btf();
		if (btf < 0)
			return -1;
		attr.max_entries = 0;
		attr.map_flags = BPF_F_NO_PREALLOC;
		attr.btf_fd = (unsigned)btf;
		attr.btf_key_type_id = attr.btf_value_type_id = 1;
		break;
	default: break;
	}
	long fd = bpf_call(BPF_MAP_CREATE, &attr);
	int err = errno;
	close_fd(inner);
	close_fd(btf);
	errno = err;
	return fd;
}

/* What a sweep found: the types that loaded or were made, or reached
 * the type's own checks (the verifier's log; STRUCT_OPS maps' ENOTSUPP),
 * and the errno of each that did not load (0 where it did). */
struct sweep {
	uint64_t progs, maps;
	int prog_err[AW_ARRAY_SIZE(prog_names) + BEYOND], map_err[AW_ARRAY_SIZE(map_names) + BEYOND];
};

static void sweep_types(enum who who, struct sweep *s)
{
	memset(s, 0, sizeof(*s));
	for (unsigned t = 1; t < AW_ARRAY_SIZE(prog_names) + BEYOND; t++) {
		bool verified;
		long fd = load_prog(t, &verified);
		s->prog_err[t] = fd < 0 ? errno : 0;
		if (fd >= 0 || (who == ROOT && verified))
			s->progs |= UINT64_C(1) << t;
		close_fd(fd);
	}
	for (unsigned t = 1; t < AW_ARRAY_SIZE(map_names) + BEYOND; t++) {
		long fd = create_map(t);
		s->map_err[t] = fd < 0 ? errno : 0;
		if (fd >= 0 || (who == ROOT && t == BPF_MAP_TYPE_STRUCT_OPS && errno == ENOTSUPP_KERNEL))
			s->maps |= UINT64_C(1) << t;
		close_fd(fd);
	}
}

/* The types of the table (not those past it, where a refusal of every
 * bpf() call, a security module's, would name numbers no kernel has)
 * that root was refused with an errno other than EINVAL, which a kernel
 * without the type answers (kernel/bpf/syscall.c): the kernel has them. */
static uint64_t refused_types(uint64_t reached, const int *err, size_t n)
{
	uint64_t refused = 0;
	for (size_t t = 1; t < n; t++)
		if (!(reached & (UINT64_C(1) << t)) && err[t] != 0 && err[t] != EINVAL)
			refused |= UINT64_C(1) << t;
	return refused;
}

static struct aw_bitname progs_table[AW_ARRAY_SIZE(prog_names)], maps_table[AW_ARRAY_SIZE(map_names)];

/* The refused types, each with its errno: "TRACING:EPERM". */
static void observe_refused(struct aw_ctx *ctx, const char *item, uint64_t refused, const int *err,
			    const char *const *names, size_t n)
{
	char buf[1024] = "";
	for (size_t t = 1; t < n; t++)
		if (refused & (UINT64_C(1) << t))
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s:%s", *buf ? "," : "", names[t],
				 aw_errname(err[t]));
	aw_observe(ctx, item, "%s", *buf ? buf : "none");
}

/* Whether every type of have (root's, or all of the table where root's
 * is not known) was refused with EPERM. */
static bool all_eperm(uint64_t have, const int *err, size_t n)
{
	for (size_t t = 1; t < n; t++)
		if ((have & (UINT64_C(1) << t)) && err[t] != EPERM)
			return false;
	return true;
}

static void observe_types(struct aw_ctx *ctx, const char *item, uint64_t there, bool eperm,
			  const struct aw_bitname *table, size_t n)
{
	if (eperm)
		aw_observe(ctx, item, "EPERM");
	else
		sandbox_observe_bits(ctx, item, there, table, n, "TYPE", "none");
}

/* What root has, for the unprivileged sweeps' "EPERM": every type of the
 * table where root's sweep could not be made. */
static uint64_t root_progs = ~UINT64_C(1), root_maps = ~UINT64_C(1);

static void observe_sweep(struct aw_ctx *ctx, const char *prefix, const struct sweep *s, bool unpriv)
{
	char item[64];
	uint64_t progs_mask = (UINT64_C(1) << AW_ARRAY_SIZE(prog_names)) - 1;
	uint64_t maps_mask = (UINT64_C(1) << AW_ARRAY_SIZE(map_names)) - 1;
	uint64_t progs_refused = unpriv ? 0 : refused_types(s->progs, s->prog_err, AW_ARRAY_SIZE(prog_names));
	uint64_t maps_refused = unpriv ? 0 : refused_types(s->maps, s->map_err, AW_ARRAY_SIZE(map_names));
	snprintf(item, sizeof(item), "%sprog_types", prefix);
	observe_types(ctx, item, s->progs | progs_refused,
		      unpriv && !s->progs && all_eperm(root_progs & progs_mask, s->prog_err, AW_ARRAY_SIZE(prog_names)),
		      progs_table, AW_ARRAY_SIZE(progs_table));
	snprintf(item, sizeof(item), "%smap_types", prefix);
	observe_types(ctx, item, s->maps | maps_refused,
		      unpriv && !s->maps && all_eperm(root_maps & maps_mask, s->map_err, AW_ARRAY_SIZE(map_names)),
		      maps_table, AW_ARRAY_SIZE(maps_table));
	if (unpriv)
		return;
	observe_refused(ctx, "prog_types.refused", progs_refused, s->prog_err, prog_names, AW_ARRAY_SIZE(prog_names));
	observe_refused(ctx, "map_types.refused", maps_refused, s->map_err, map_names, AW_ARRAY_SIZE(map_names));
	root_progs = s->progs | progs_refused;
	root_maps = s->maps | maps_refused;
}

/* The unprivileged sweep, in a child that became nobody, handed back in
 * shared memory. */
static int unpriv_child(void *arg)
{
	sweep_types(UNPRIV, arg);
	return 0;
}

static bool sweep_unpriv(struct aw_ctx *ctx, const char *prefix, struct sweep *out)
{
	struct sweep *shared = aw_shared_alloc(sizeof(*shared));
	char item[64];
	int refused = 0;
	/* In the initial user namespace the child becomes nobody; in another
	 * (an unprivileged run of abiwatch), where nobody may not be mapped,
	 * a plain child is unprivileged already: bpf() asks for capabilities
	 * in the initial namespace (bpf_capable()). */
	int st = !shared                  ? -ENOMEM
		 : aw_in_initial_userns() ? aw_child_run_as(AW_NOBODY, AW_NOBODY, unpriv_child, shared, 30000, &refused)
					  : aw_child_run(unpriv_child, shared, 30000);
	if (st == 0)
		*out = *shared;
	else {
		snprintf(item, sizeof(item), "%sprog_types", prefix);
		aw_error(ctx, item, "the unprivileged child: %s",
			 refused ? aw_become_user_why(refused) : st < 0 ? aw_errname(-st) : "it did not end well");
		snprintf(item, sizeof(item), "%smap_types", prefix);
		aw_error(ctx, item, "the unprivileged child: status %d", st);
	}
	if (shared)
		aw_shared_free(shared, sizeof(*shared));
	return st == 0;
}

#define KNOB "kernel.unprivileged_bpf_disabled"

/* In the guest: the unprivileged sweep with the knob at 0, then the
 * knob put back to what it was. */
static void sweep_knob0(struct aw_ctx *ctx, long long knob)
{
	if (!aw_item_needs_met(ctx, "knob0.prog_types"))
		return;
	if (knob == 1) {
		aw_skip(ctx, "knob0.prog_types", KNOB " is 1, which cannot be set back before a reboot");
		aw_skip(ctx, "knob0.map_types", KNOB " is 1, which cannot be set back before a reboot");
		aw_skip(ctx, "knob0.restored", KNOB " was not written");
		return;
	}
	int rc = aw_sysctl_write_ll(ctx, KNOB, 0);
	if (rc != 0) {
		aw_error(ctx, "knob0.prog_types", "writing 0 to " KNOB ": %s", aw_sysctl_strerror(rc));
		aw_error(ctx, "knob0.map_types", "writing 0 to " KNOB ": %s", aw_sysctl_strerror(rc));
		aw_skip(ctx, "knob0.restored", KNOB " was not written");
		return;
	}
	struct sweep s;
	if (sweep_unpriv(ctx, "knob0.", &s))
		observe_sweep(ctx, "knob0.", &s, true);
	rc = aw_sysctl_write_ll(ctx, KNOB, knob);
	long long now = -1;
	aw_expect(ctx, "knob0.restored", rc == 0 && aw_read_ll("/proc/sys/kernel/unprivileged_bpf_disabled", &now) == 0 && now == knob,
		  "writing %lld back to " KNOB ": %s (it reads %lld)", knob, aw_sysctl_strerror(rc), now);
}

/* The BPF objects (programs, maps, BTF) the calling process holds
 * descriptors of: the links of /proc/self/fd that name one. */
static int bpf_fds_held(void)
{
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return -1;
	int n = 0;
	for (struct dirent *e; (e = readdir(d));) {
		char path[300], target[128];
		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		ssize_t len = readlink(path, target, sizeof(target) - 1);
		if (len <= 0)
			continue;
		target[len] = '\0';
		if (strncmp(target, "anon_inode:bpf-", 15) == 0 || strcmp(target, "anon_inode:btf") == 0)
			n++;
	}
	closedir(d);
	return n;
}

static void bpf_run(struct aw_ctx *ctx)
{
	for (size_t i = 0; i < AW_ARRAY_SIZE(prog_names); i++)
		progs_table[i] = (struct aw_bitname){ UINT64_C(1) << i, prog_names[i] };
	for (size_t i = 0; i < AW_ARRAY_SIZE(map_names); i++)
		maps_table[i] = (struct aw_bitname){ UINT64_C(1) << i, map_names[i] };

	long long knob = -1;
	if (aw_read_ll("/proc/sys/kernel/unprivileged_bpf_disabled", &knob) == 0)
		aw_observe_long(ctx, "unprivileged_bpf_disabled", knob);
	else
		aw_observe(ctx, "unprivileged_bpf_disabled", "absent");

	int before = bpf_fds_held();
	struct sweep s;
	if (aw_has_cap(CAP_BPF) || aw_has_cap(CAP_SYS_ADMIN)) {
		sweep_types(ROOT, &s);
		observe_sweep(ctx, "", &s, false);
	} else {
		aw_skip_cause(ctx, "prog_types", "cap_bpf", "loading every type needs CAP_BPF (or CAP_SYS_ADMIN)");
		aw_skip_cause(ctx, "map_types", "cap_bpf", "making every type needs CAP_BPF (or CAP_SYS_ADMIN)");
		aw_skip_cause(ctx, "prog_types.refused", "cap_bpf", "loading every type needs CAP_BPF (or CAP_SYS_ADMIN)");
		aw_skip_cause(ctx, "map_types.refused", "cap_bpf", "making every type needs CAP_BPF (or CAP_SYS_ADMIN)");
	}
	if (sweep_unpriv(ctx, "unpriv.", &s))
		observe_sweep(ctx, "unpriv.", &s, true);
	sweep_knob0(ctx, knob);
	int after = bpf_fds_held();
	aw_expect(ctx, "nothing_left", after >= 0 && after == before,
		  "the probe holds %d BPF objects' descriptors after the sweeps, %d before", after, before);
}

static const char *const knob_absent[] = { "absent", NULL };
static const char *const types_absent[] = { "none", "EPERM", NULL };

#define TYPES_CHANGE                                                                                          \
	"a type that appeared can be loaded (libbpf, bpftool, Cilium, systemd's BPF programs use it); one that " \
	"vanished fails their load with EINVAL"
#define UNPRIV_CHANGE                                                                                                \
	"what a user without CAP_BPF may load: unprivileged socket filters (the seccomp-free sandboxes, tcpdump as a " \
	"user) work or get EPERM"

static const struct aw_item bpf_items[] = {
	AW_OBS_ITEM("unprivileged_bpf_disabled", "kernel.unprivileged_bpf_disabled: 0 allows unprivileged bpf(), 1 and 2 refuse it",
		    .change = "unprivileged BPF was allowed and is refused, or the other way round: see unpriv.*",
		    .absent = knob_absent, .object = ""),
	AW_OBS_ITEM("prog_types", "the BPF program types the kernel has, as root: they load, reach the verifier, or are refused with an errno other than EINVAL",
		    .change = TYPES_CHANGE, .absent = types_absent, .object = ""),
	AW_OBS_ITEM("map_types", "the BPF map types the kernel has, as root: they are made, or refused with an errno other than EINVAL",
		    .change = TYPES_CHANGE, .absent = types_absent, .object = ""),
	AW_OBS_ITEM("prog_types.refused", "the program types of the table the kernel has but refused root, each with its errno (not EINVAL: no such type)",
		    .change = "root is refused a type it could load (or the other way round): a capability, a security module or "
			      "the configuration decides it; bpftool reports the type missing",
		    .object = ""),
	AW_OBS_ITEM("map_types.refused", "the map types of the table the kernel has but refused root, each with its errno",
		    .change = "root is refused a map type it could make (or the other way round)", .object = ""),
	AW_OBS_ITEM("unpriv.prog_types", "the program types that load as nobody with the knob as it is (EPERM: every type root has refused so)",
		    .change = UNPRIV_CHANGE, .absent = types_absent, .object = "unpriv"),
	AW_OBS_ITEM("unpriv.map_types", "the map types nobody can make with the knob as it is (EPERM: every one refused)",
		    .change = UNPRIV_CHANGE, .absent = types_absent, .object = "unpriv"),
	AW_OBS_ITEM("knob0.prog_types", "the program types that load as nobody with the knob set to 0",
		    .change = UNPRIV_CHANGE, .absent = types_absent, .object = "knob0",
		    .vm_guest = "it sets kernel.unprivileged_bpf_disabled, which no namespace holds"),
	AW_OBS_ITEM("knob0.map_types", "the map types nobody can make with the knob set to 0",
		    .change = UNPRIV_CHANGE, .absent = types_absent, .object = "knob0",
		    .vm_guest = "it sets kernel.unprivileged_bpf_disabled, which no namespace holds"),
	AW_CHECK_ITEM("knob0.restored", "kernel.unprivileged_bpf_disabled reads its first value again after the sweep",
		      .vm_guest = "it sets kernel.unprivileged_bpf_disabled, which no namespace holds"),
	AW_CHECK_ITEM("nothing_left", "the probe holds no BPF program, map or BTF descriptor after its sweeps"),
	AW_ITEMS_END,
};

static const char *const bpf_tags[] = { "man:bpf(2)", "man:bpftool-feature(8)", NULL };

const struct aw_probe sandbox_bpf_probes[] = {
	{
		.name = "bpf",
		.summary = "BPF: the program and map types there as root and as nobody, and what unprivileged_bpf_disabled does",
		.run = bpf_run,
		.items = bpf_items,
		.tags = bpf_tags,
		.alone = "it sets kernel.unprivileged_bpf_disabled in the VM guest",
		.timeout_s = 60,
	},
	AW_PROBES_END,
};
