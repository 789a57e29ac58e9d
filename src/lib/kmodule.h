/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whether a kernel module is there, as a value a snapshot records and a
 * reader compares: what a module registers (sysctl tables such as
 * nf_conntrack's net.netfilter.*) exists only while it is loaded, or
 * always where it is built in.  The state is the module's line in
 * /proc/modules (proc_modules(5)) and the configuration's =m or =y for
 * its option:
 *
 *   loaded (CONFIG_NF_CONNTRACK=m)       listed in /proc/modules
 *   not loaded (CONFIG_NF_CONNTRACK=m)   built as a module, not loaded
 *   built in (CONFIG_NF_CONNTRACK=y)     part of the kernel image
 *   not built (CONFIG_NF_CONNTRACK=n)    or "absent": no such option
 *   not loaded (configuration unknown)   no configuration to read
 */
#ifndef ABIWATCH_LIB_KMODULE_H
#define ABIWATCH_LIB_KMODULE_H

#include <stdbool.h>
#include <stddef.h>

enum aw_kmodule_state {
	AW_KMOD_UNKNOWN,    /* not a state this codec writes */
	AW_KMOD_LOADED,     /* =m, and loaded */
	AW_KMOD_NOT_LOADED, /* =m (or the configuration unknown), not loaded */
	AW_KMOD_BUILT_IN,   /* =y */
	AW_KMOD_NOT_BUILT,  /* =n, or no such option */
};

/* Whether the text of /proc/modules (len bytes) has a line for module. */
bool aw_kmodule_listed(const char *modules, size_t len, const char *module);
/* The state of a module from whether /proc/modules lists it and the
 * option's value in the configuration (aw_kconfig_value(): "y", "m",
 * "n", or NULL: not mentioned; config_known false: no configuration). */
enum aw_kmodule_state aw_kmodule_state(bool listed, bool config_known, const char *value);
/* The recorded value: "loaded (CONFIG_OPTION=m)" ...; malloc'd. */
char *aw_kmodule_format(enum aw_kmodule_state st, const char *option, const char *value);
/* The state a recorded value names, AW_KMOD_UNKNOWN for anything else;
 * *how (may be NULL) points at the parenthesis after it, or "". */
enum aw_kmodule_state aw_kmodule_parse(const char *recorded, const char **how);
/* Whether what the module registers is there in that state. */
bool aw_kmodule_present(enum aw_kmodule_state st);

#endif
