// SPDX-License-Identifier: GPL-2.0-or-later
/* Output files put into place whole (lib/outfile.h): a new file and a
 * replaced one get the whole content or, aborted, nothing changes and no
 * temporary file stays; a path that is no regular file (a FIFO here, as
 * /dev/null is a device) is written in place and stays what it was. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "lib/outfile.h"
#include "lib/procfs.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[] = "/tmp/abiwatch-outfile.XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return rmdir(dir);
}

static char *path_of(const char *name)
{
	static char path[128];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static size_t entries(void)
{
	size_t n = 0;
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));)
		n += e->d_name[0] != '.' || e->d_name[1] == 'a'; /* ".abiwatch-out.*" too */
	if (d)
		closedir(d);
	return n;
}

static char *content(const char *path)
{
	char *text = NULL;
	size_t len;
	assert_int_equal(aw_file_slurp(path, &text, &len), 0);
	return text;
}

static void test_new_and_replaced(void **state)
{
	(void)state;
	struct aw_outfile o;
	char *path = path_of("out");
	assert_int_equal(aw_outfile_open(&o, path), 0);
	fputs("first\n", o.f);
	assert_int_equal(aw_outfile_commit(&o), 0);
	char *text = content(path);
	assert_string_equal(text, "first\n");
	free(text);
	mode_t mask = umask(0);
	umask(mask);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0666 & ~mask);

	assert_int_equal(aw_outfile_open(&o, path), 0);
	fputs("second\n", o.f);
	assert_int_equal(aw_outfile_commit(&o), 0);
	text = content(path);
	assert_string_equal(text, "second\n");
	free(text);

	assert_int_equal(aw_outfile_open(&o, path), 0);
	fputs("never\n", o.f);
	aw_outfile_abort(&o);
	text = content(path);
	assert_string_equal(text, "second\n");
	free(text);
	assert_int_equal(entries(), 1); /* no temporary file left */
	unlink(path);
}

static void test_not_a_regular_file(void **state)
{
	(void)state;
	char *path = path_of("fifo");
	assert_int_equal(mkfifo(path, 0600), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) { /* the reader: exit 0 when it read what was written */
		char buf[64] = "";
		FILE *f = fopen(path, "r");
		_exit(f && fgets(buf, sizeof(buf), f) && strcmp(buf, "through\n") == 0 ? 0 : 1);
	}
	struct aw_outfile o;
	assert_int_equal(aw_outfile_open(&o, path), 0);
	assert_null(o.tmp);
	fputs("through\n", o.f);
	assert_int_equal(aw_outfile_commit(&o), 0);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISFIFO(st.st_mode)); /* still the FIFO, not a file renamed over it */
	unlink(path);
}

static void test_unwritable(void **state)
{
	(void)state;
	struct aw_outfile o;
	assert_int_equal(aw_outfile_open(&o, "/nonexistent/dir/out"), -1);
	assert_int_equal(errno, ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_and_replaced),
		cmocka_unit_test(test_not_a_regular_file),
		cmocka_unit_test(test_unwritable),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
