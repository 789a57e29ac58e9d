/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading the kernel's files: whole (a /proc or /sys file says size 0 and
 * gives a sysctl's value only to a read from offset 0), one integer, a
 * sysctl by name, a word of the kernel command line, MemTotal, the page
 * size.  One reader each, so that every part of abiwatch (and the static
 * 32-bit helpers, which link this file) parses them alike.
 */
#ifndef ABIWATCH_LIB_PROCFS_H
#define ABIWATCH_LIB_PROCFS_H

#include <stdbool.h>
#include <stddef.h>

/* The whole content of fd from offset 0 (pread), NUL-terminated, a
 * /proc file's too; -1 with errno. */
int aw_fd_slurp(int fd, char **data, size_t *len);
/* The whole content of a file by path, NUL-terminated. */
int aw_file_slurp(const char *path, char **data, size_t *len);
/* Write text to the file at path, opened afresh: what a /proc or /sys
 * file (a uid_map, a sysctl) takes, one write(2) from offset 0.  0 or
 * -errno. */
int aw_file_write(const char *path, const char *text);

/* The file at path holds one decimal integer, as a sysctl does ("10\n"):
 * 0 with *value, -errno when it cannot be read, -EINVAL when it holds
 * anything else (kernel.sem's four numbers, text, nothing). */
int aw_read_ll(const char *path, long long *value);

/* The /proc/sys path of a knob given as sysctl(8) writes it
 * ("fs.mqueue.msg_max") or as a path below /proc/sys
 * ("fs/mqueue/msg_max"), malloc'd.  A dotted name maps every dot to a
 * slash, so a knob whose own component holds a dot (an interface named
 * "eth0.1") must be given as a path. */
char *aw_sysctl_path(const char *knob);
/* aw_read_ll() of that path. */
int aw_sysctl_read_ll(const char *knob, long long *value);
/* Whether the knob exists on this kernel (msg_default came in 3.5). */
bool aw_sysctl_exists(const char *knob);

/* The kernel command line, /proc/cmdline, NUL-terminated: 0, or -errno. */
int aw_kernel_cmdline(char **text, size_t *len);
/* Whether word is one of the command line's words, exactly
 * ("rdinit=/init", "quiet"). */
bool aw_cmdline_has(const char *cmdline, size_t len, const char *word);
/* The value of the last "name=value" word (the one the kernel obeys):
 * 0 with *value malloc'd, or -ENOENT. */
int aw_cmdline_param(const char *cmdline, size_t len, const char *name, char **value);

/* MemTotal of /proc/meminfo in KiB, or -1 when it cannot be read. */
long long aw_mem_total_kib(void);

/* The page size, as the kernel says in the auxiliary vector (4096 on
 * x86; never a constant in a probe: other architectures differ). */
size_t aw_page_size(void);

/* A line or entry of a /proc file that the kernel has only where a
 * configuration option is on: its name, the option in lower case
 * without CONFIG_ (x86_user_shadow_stack), and the source that says so. */
struct aw_config_name {
	const char *name;
	const char *option;
	const char *source;
};
/* The /proc/PID/status keys of that kind, for every reader of them. */
extern const struct aw_config_name aw_status_config_keys[];
extern const size_t aw_nstatus_config_keys;

#endif
