// SPDX-License-Identifier: GPL-2.0-or-later
/* The kernel's files, read: see procfs.h. */
#include "procfs.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int aw_fd_slurp(int fd, char **data, size_t *len)
{
	struct stat st;
	if (fstat(fd, &st) != 0)
		return -1;
	/* A page at least: a /proc or /sys file says size 0, and a sysctl
	 * gives its value only to a read from offset 0. */
	size_t cap = (size_t)st.st_size + 4096, n = 0;
	char *buf = xmalloc(cap);
	for (;;) {
		if (n + 1 >= cap) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		ssize_t r = pread(fd, buf + n, cap - n - 1, (off_t)n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			free(buf);
			errno = e;
			return -1;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	buf[n] = '\0';
	*data = buf;
	*len = n;
	return 0;
}

int aw_file_slurp(const char *path, char **data, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = aw_fd_slurp(fd, data, len);
	int e = errno;
	close(fd);
	errno = e;
	return rc;
}

int aw_file_write(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	int rc = aw_write_all(fd, text, strlen(text));
	close(fd);
	return rc;
}

int aw_read_ll(const char *path, long long *value)
{
	char *text, *end;
	size_t len;
	if (aw_file_slurp(path, &text, &len) != 0)
		return -errno;
	errno = 0;
	long long v = strtoll(text, &end, 10);
	int rc = errno || end == text || (*end && strcmp(end, "\n") != 0) || strlen(text) != len
			 ? -EINVAL : 0;
	free(text);
	if (rc == 0)
		*value = v;
	return rc;
}

char *aw_sysctl_path(const char *knob)
{
	char *path = xasprintf("/proc/sys/%s", knob);
	if (!strchr(knob, '/'))
		for (char *p = path + strlen("/proc/sys/"); *p; p++)
			if (*p == '.')
				*p = '/';
	return path;
}

int aw_sysctl_read_ll(const char *knob, long long *value)
{
	char *path = aw_sysctl_path(knob);
	int rc = aw_read_ll(path, value);
	free(path);
	return rc;
}

bool aw_sysctl_exists(const char *knob)
{
	char *path = aw_sysctl_path(knob);
	bool exists = access(path, F_OK) == 0;
	free(path);
	return exists;
}

int aw_kernel_cmdline(char **text, size_t *len)
{
	return aw_file_slurp("/proc/cmdline", text, len) == 0 ? 0 : -errno;
}

/* The next word of cmdline[*at, len): spaces, tabs and the final newline
 * separate words.  Quoting ("param=\"a b\"") is the kernel's, but no word
 * abiwatch looks for is quoted. */
static bool next_word(const char *cmdline, size_t len, size_t *at, const char **w, size_t *wn)
{
	size_t i = *at;
	while (i < len && (cmdline[i] == ' ' || cmdline[i] == '\t' || cmdline[i] == '\n'))
		i++;
	if (i >= len || !cmdline[i])
		return false;
	size_t start = i;
	while (i < len && cmdline[i] && cmdline[i] != ' ' && cmdline[i] != '\t' && cmdline[i] != '\n')
		i++;
	*w = cmdline + start;
	*wn = i - start;
	*at = i;
	return true;
}

bool aw_cmdline_has(const char *cmdline, size_t len, const char *word)
{
	size_t at = 0, wn, n = strlen(word);
	const char *w;
	while (next_word(cmdline, len, &at, &w, &wn))
		if (wn == n && memcmp(w, word, n) == 0)
			return true;
	return false;
}

int aw_cmdline_param(const char *cmdline, size_t len, const char *name, char **value)
{
	size_t at = 0, wn, nn = strlen(name);
	const char *w, *found = NULL;
	size_t found_n = 0;
	while (next_word(cmdline, len, &at, &w, &wn))
		if (wn > nn && memcmp(w, name, nn) == 0 && w[nn] == '=') {
			found = w + nn + 1;
			found_n = wn - nn - 1;
		}
	if (!found)
		return -ENOENT;
	*value = xmalloc(found_n + 1);
	memcpy(*value, found, found_n);
	(*value)[found_n] = '\0';
	return 0;
}

long long aw_mem_total_kib(void)
{
	char *text, *line;
	size_t len;
	long long kib = -1;
	if (aw_file_slurp("/proc/meminfo", &text, &len) != 0)
		return -1;
	for (line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		if (sscanf(line, "MemTotal: %lld kB", &kib) == 1)
			break;
	free(text);
	return kib;
}

size_t aw_page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

const struct aw_config_name aw_status_config_keys[] = {
	{ "x86_Thread_features", "x86_user_shadow_stack",
	  "arch/x86/kernel/cpu/proc.c arch_proc_pid_thread_features(), under CONFIG_X86_USER_SHADOW_STACK" },
	{ "x86_Thread_features_locked", "x86_user_shadow_stack",
	  "arch/x86/kernel/cpu/proc.c arch_proc_pid_thread_features(), under CONFIG_X86_USER_SHADOW_STACK" },
	{ "Seccomp", "seccomp", "fs/proc/array.c task_seccomp(), under CONFIG_SECCOMP" },
	{ "Seccomp_filters", "seccomp_filter", "fs/proc/array.c task_seccomp(), under CONFIG_SECCOMP_FILTER" },
};
const size_t aw_nstatus_config_keys = sizeof(aw_status_config_keys) / sizeof(aw_status_config_keys[0]);
