// SPDX-License-Identifier: GPL-2.0-or-later
/* The one walk of /proc/sys (lib/sysctl_walk.c) that sysctl.knob,
 * sysctl.scopes and net.initns share: names, order, what it never
 * enters, on a tree made here and on the real /proc/sys. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "lib/sysctl_walk.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

/* What the walk gave, one line per entry: "f knob", "d knob", "l knob"
 * (a symbolic link), or "! knob: why". */
struct seen {
	char text[4096];
	bool enter; /* what the visitor answers for a directory */
};

static bool record(const struct aw_sysctl_entry *e, void *arg)
{
	struct seen *s = arg;
	size_t len = strlen(s->text);
	char kind = !e->st ? '!' : S_ISDIR(e->st->st_mode) ? 'd' : S_ISREG(e->st->st_mode) ? 'f'
		  : S_ISLNK(e->st->st_mode) ? 'l' : '?';
	if (e->why)
		snprintf(s->text + len, sizeof(s->text) - len, "! %s: %s\n", e->knob, e->why);
	else
		snprintf(s->text + len, sizeof(s->text) - len, "%c %s\n", kind, e->knob);
	/* the path and the name agree with the knob */
	assert_non_null(strstr(e->path, e->name));
	return s->enter;
}

static void make_file(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	close(fd);
	free(path);
}

static char *make_dir(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	assert_int_equal(mkdir(path, 0755), 0);
	return path;
}

static void remove_tree(const char *dir)
{
	char *cmd = xasprintf("rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
}

/* Names in order, a prefix, links never followed, directories entered
 * only when the visitor says so. */
static void test_tree(void **state)
{
	(void)state;
	char root[] = "/tmp/abiwatch-walk-XXXXXX";
	assert_non_null(mkdtemp(root));
	make_file(root, "zeta");
	make_file(root, "alpha");
	char *net = make_dir(root, "net");
	make_file(net, "b");
	make_file(net, "a");
	char *odd = make_dir(net, "eth0.1");
	make_file(odd, "forwarding");
	char *link = xasprintf("%s/link", root);
	assert_int_equal(symlink(net, link), 0);

	struct seen s = { .enter = true };
	assert_int_equal(aw_sysctl_walk(root, "p", record, &s), 0);
	assert_string_equal(s.text, "f p.alpha\n" "l p.link\n" "d p.net\n" "f p.net.a\n" "f p.net.b\n"
				    "d p.net.eth0.1\n" "f p.net.eth0.1.forwarding\n" "f p.zeta\n");

	struct seen top = { .enter = false };
	assert_int_equal(aw_sysctl_walk(root, "", record, &top), 0);
	assert_string_equal(top.text, "f alpha\n" "l link\n" "d net\n" "f zeta\n");

	remove_tree(root);
	free(link);
	free(odd);
	free(net);
}

/* Directories deeper than AW_SYSCTL_WALK_DEPTH below the root are
 * stopped at, with why, never entered. */
static void test_depth(void **state)
{
	(void)state;
	char root[] = "/tmp/abiwatch-walk-XXXXXX";
	assert_non_null(mkdtemp(root));
	char *dir = xstrdup(root);
	for (int i = 0; i <= AW_SYSCTL_WALK_DEPTH + 1; i++) {
		char *sub = make_dir(dir, "d");
		free(dir);
		dir = sub;
	}
	make_file(dir, "bottom");
	struct seen s = { .enter = true };
	assert_int_equal(aw_sysctl_walk(root, "", record, &s), 0);
	assert_non_null(strstr(s.text, ": open: too deep\n"));
	assert_null(strstr(s.text, "bottom"));
	size_t dirs = 0;
	for (const char *p = s.text; (p = strstr(p, "d d")); p++)
		dirs++;
	assert_int_equal(dirs, AW_SYSCTL_WALK_DEPTH + 1);
	remove_tree(root);
	free(dir);
}

/* A filesystem mounted below the root (fs.binfmt_misc) is not entered:
 * in a mount namespace of a child's own, where it may make one. */
static void test_other_filesystem(void **state)
{
	(void)state;
	char root[] = "/tmp/abiwatch-walk-XXXXXX";
	assert_non_null(mkdtemp(root));
	char *mnt = make_dir(root, "mnt");
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
		    mount("none", mnt, "tmpfs", 0, NULL) != 0)
			_exit(77); /* no mount namespace of its own here */
		make_file(mnt, "inside");
		struct seen s = { .enter = true };
		if (aw_sysctl_walk(root, "", record, &s) != 0)
			_exit(1);
		_exit(strcmp(s.text, "! mnt: another filesystem is mounted there, not entered\n") == 0 ? 0 : 2);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	remove_tree(root);
	free(mnt);
	assert_true(WIFEXITED(st));
	if (WEXITSTATUS(st) == 77)
		skip();
	assert_int_equal(WEXITSTATUS(st), 0);
}

static bool find_ostype(const struct aw_sysctl_entry *e, void *arg)
{
	if (e->st && S_ISREG(e->st->st_mode) && strcmp(e->knob, "kernel.ostype") == 0) {
		assert_string_equal(e->path, "/proc/sys/kernel/ostype");
		*(bool *)arg = true;
	}
	return e->st && S_ISDIR(e->st->st_mode) && strcmp(e->knob, "kernel") == 0;
}

/* The real /proc/sys: kernel.ostype (every kernel has it) by its
 * dotted name; a root that is not there is its errno. */
static void test_proc_sys(void **state)
{
	(void)state;
	bool found = false;
	assert_int_equal(aw_sysctl_walk("/proc/sys", "", find_ostype, &found), 0);
	assert_true(found);
	assert_int_equal(aw_sysctl_walk("/nonexistent/abiwatch", "", find_ostype, &found), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree),
		cmocka_unit_test(test_depth),
		cmocka_unit_test(test_other_filesystem),
		cmocka_unit_test(test_proc_sys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
