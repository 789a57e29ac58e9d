// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * net.compat32: socket layouts that differ for a 32-bit (i386) caller,
 * through the family's helper (m32/net_m32.c): SCM_RIGHTS and
 * SCM_CREDENTIALS control messages with the 12-byte i386 struct cmsghdr,
 * which net/compat.c translates, and SO_RCVTIMEO/SO_SNDTIMEO with the
 * 8-byte timeval (SO_*TIMEO_OLD) and the 16-byte one of 5.1
 * (SO_*TIMEO_NEW, a9beb86ae6e5; socket(7)).
 */
#include "net.h"

static const char *const absent_new[] = { "ENOPROTOOPT", NULL };

static const struct aw_item compat32_items[] = {
	AW_OBS_ITEM("sizeof_cmsghdr", "sizeof(struct cmsghdr) for an i386 program", .unit = "B"),
	AW_CHECK_ITEM("scm_rights.roundtrip", "two descriptors sent with SCM_RIGHTS by a 32-bit "
		      "program arrive intact (the same files, no MSG_CTRUNC)"),
	AW_OBS_ITEM("scm_rights.cmsg_len", "cmsg_len of the SCM_RIGHTS message a 32-bit recvmsg() "
		    "gets for two descriptors: CMSG_LEN(8) of i386, 20", .unit = "B",
		    .object = "scm_rights",
		    .change = "32-bit programs passing descriptors (Steam, Wine, old daemons) misparse "
			      "their control messages"),
	AW_OBS_ITEM("scm_credentials.cmsg_len", "cmsg_len of SCM_CREDENTIALS for a 32-bit recvmsg() "
		    "with SO_PASSCRED: CMSG_LEN(12) of i386, 24", .unit = "B"),
	AW_OBS_ITEM("rcvtimeo.old", "SO_RCVTIMEO_OLD (20) set to 2.5 s with an 8-byte timeval, read back",
		    .object = "rcvtimeo",
		    .change = "32-bit programs setting receive timeouts get other timeouts or errors"),
	AW_OBS_ITEM("rcvtimeo.new", "SO_RCVTIMEO_NEW (66, 5.1) set to 3.5 s with a 16-byte timeval, "
		    "read back through SO_RCVTIMEO_OLD", .object = "rcvtimeo", .absent = absent_new,
		    .change = "y2038-safe 32-bit C libraries (time64) fall back, or can set timeouts"),
	AW_OBS_ITEM("sndtimeo.old", "SO_SNDTIMEO_OLD (21) set to 1 s, read back", .object = "sndtimeo"),
	AW_OBS_ITEM("sndtimeo.new", "SO_SNDTIMEO_NEW (67, 5.1) set to 4.5 s with a 16-byte timeval, "
		    "read back through SO_SNDTIMEO_OLD", .object = "sndtimeo", .absent = absent_new,
		    .change = "y2038-safe 32-bit C libraries (time64) fall back, or can set send timeouts"),
	AW_ITEMS_END
};

static void run_compat32(struct aw_ctx *ctx)
{
	const struct aw_helper helper = { .name = NET_HELPER, .prefix = "", .timeout_ms = 10000 };
	if (!net_setup(ctx))
		return;
	aw_helper_report(ctx, &helper);
}

static const char *const compat32_tags[] = { "linux-git:a9beb86ae6e5", "man:socket(7)", "man:unix(7)", NULL };
static const char *const compat32_kconfig[] = { "CONFIG_IA32_EMULATION", NULL };

const struct aw_probe net_compat32_probes[] = {
	{ .name = "compat32", .summary = "cmsghdr and socket timeouts for a 32-bit caller",
	  .run = run_compat32, .items = compat32_items, .tags = compat32_tags,
	  .needs = { .i386_programs = true, .kconfig = compat32_kconfig } },
	AW_PROBES_END
};
