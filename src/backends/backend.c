// SPDX-License-Identifier: GPL-2.0-or-later
/* What every backend shares: the list, the checks of what a backend
 * needs, mounting, the mkfs+loop path, and undoing it all. */
#include "backend.h"
#include "lib/tree.h"
#include "lib/errname.h"
#include "lib/proc.h"
#include "lib/util.h"
#include "lib/caps.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

const struct aw_backend *const aw_backends[] = {
	&aw_backend_tmpfs, &aw_backend_ext4, &aw_backend_xfs, &aw_backend_btrfs,
	&aw_backend_overlay, &aw_backend_overlay_single, NULL,
};

const struct aw_backend *aw_backend_find(const char *name)
{
	for (const struct aw_backend *const *b = aw_backends; *b; b++)
		if (strcmp((*b)->name, name) == 0)
			return *b;
	return strcmp(name, aw_backend_path.name) == 0 ? &aw_backend_path : NULL;
}

static bool listed_in_proc(const char *fstype)
{
	FILE *f = fopen("/proc/filesystems", "re");
	char line[256];
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		const char *name = strrchr(line, '\t');
		found = strcmp(name ? name + 1 : line, fstype) == 0;
	}
	fclose(f);
	return found;
}

/* A module the kernel would load on mount.  The file is named after the
 * filesystem type, but its directory need not be: overlay.ko lives in
 * kernel/fs/overlayfs/.  No modules.alias here: the initramfs of a VM
 * carries only the module files. */
static bool loadable(const char *fstype)
{
	struct utsname u;
	if (uname(&u) != 0)
		return false;
	char *pattern = xasprintf("/lib/modules/%s/kernel/fs/*/%s.ko*", u.release, fstype);
	glob_t g;
	bool ok = glob(pattern, GLOB_NOSORT, NULL, &g) == 0;
	if (ok)
		globfree(&g);
	free(pattern);
	return ok;
}

char *aw_fs_type_missing(const char *fstype)
{
	if (listed_in_proc(fstype) || loadable(fstype))
		return NULL;
	return xasprintf("%s not in /proc/filesystems", fstype);
}

/* What the machine lacks for b: its filesystem type, its mkfs, loop
 * devices; NULL when nothing. */
static char *missing_parts(const struct aw_backend *b)
{
	char *why = b->fstype ? aw_fs_type_missing(b->fstype) : NULL;
	if (why)
		return why;
	if (b->mkfs) {
		char *prog = aw_which(b->mkfs);
		if (!prog)
			return xasprintf("%s not found", b->mkfs);
		free(prog);
	}
	if (b->loop && access("/dev/loop-control", F_OK) != 0)
		return xasprintf("no /dev/loop-control: %s", strerror(errno));
	return NULL;
}

char *aw_backend_unusable(const struct aw_backend *b)
{
	char *why = missing_parts(b);
	/* A probe mounts a block device only with CAP_SYS_ADMIN in the
	 * initial user namespace, which the runner keeps it in when it
	 * holds the capability. */
	if (!why && b->block && !aw_cap_effective(CAP_SYS_ADMIN))
		why = xstrdup("mounting a block device needs CAP_SYS_ADMIN");
	return why;
}

char *aw_backends_usable(void)
{
	char *list = NULL;
	for (const struct aw_backend *const *b = aw_backends; *b; b++) {
		char *why = aw_backend_unusable(*b);
		if (!why) {
			char *more = xasprintf("%s%s%s", list ? list : "", list ? "," : "", (*b)->name);
			free(list);
			list = more;
		}
		free(why);
	}
	return list ? list : xstrdup("none");
}

enum aw_fs_rc aw_fs_prepare(const struct aw_backend *b, const struct aw_fs_opts *o,
			    struct aw_fs *fs, char **why)
{
	memset(fs, 0, sizeof(*fs));
	fs->backend = b;
	fs->dirfd = -1;
	fs->loop_nr[0] = fs->loop_nr[1] = -1;
	*why = NULL;

	if ((*why = missing_parts(b)))
		return AW_FS_SKIP;
	struct aw_fs_opts sized = *o;
	if (sized.entries < AW_FS_ENTRIES_FLOOR)
		sized.entries = AW_FS_ENTRIES_FLOOR;
	enum aw_fs_rc rc = b->prepare(b, &sized, fs, why);
	if (rc != AW_FS_OK) {
		char *ignored = NULL;
		aw_fs_release(fs, &ignored);
		free(ignored);
		if (!*why)
			*why = xasprintf("%s: set-up failed", b->name);
	}
	return rc;
}

int aw_fs_release(struct aw_fs *fs, char **why)
{
	int rc = 0;
	*why = NULL;

	/* A host directory is emptied here, where a failure can be said;
	 * the runner removes the directory itself (core/hostdir.c). */
	if (fs->backend && fs->backend->host_state && fs->dirfd >= 0) {
		int r = aw_remove_tree(fs->dirfd, NULL);
		if (r) {
			*why = xasprintf("emptying %s: %s", fs->dir ? fs->dir : "the directory",
					 strerror(-r));
			rc = -1;
		}
	}
	if (fs->dirfd >= 0)
		close(fs->dirfd);
	fs->dirfd = -1;
	for (size_t i = fs->nmounts; i-- > 0;) {
		if (umount2(fs->mounts[i], 0) != 0 && umount2(fs->mounts[i], MNT_DETACH) != 0 &&
		    !*why) {
			*why = xasprintf("unmounting %s: %s", fs->mounts[i], strerror(errno));
			rc = -1;
		}
		free(fs->mounts[i]);
	}
	fs->nmounts = 0;
	for (int i = 0; i < 2; i++) {
		aw_loop_remove(fs->loop_nr[i]);
		fs->loop_nr[i] = -1;
	}
	free(fs->dir);
	free(fs->detail);
	fs->dir = fs->detail = NULL;
	return rc;
}

char *aw_fs_subdir(const char *base, const char *name, char **why)
{
	char *path = xasprintf("%s/%s", base, name);
	if (mkdir(path, 0755) != 0 && errno != EEXIST) {
		*why = xasprintf("mkdir %s: %s", path, strerror(errno));
		free(path);
		return NULL;
	}
	return path;
}

int aw_fs_open_dir(struct aw_fs *fs, const char *dir, char **why)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		*why = xasprintf("opening %s: %s", dir, strerror(errno));
		return -1;
	}
	fs->dirfd = fd;
	free(fs->dir);
	fs->dir = xstrdup(dir);
	return 0;
}

int aw_fs_mount(struct aw_fs *fs, const char *source, const char *target,
		const char *type, unsigned long flags, const char *data, char **why)
{
	if (fs->nmounts >= sizeof(fs->mounts) / sizeof(fs->mounts[0])) {
		*why = xstrdup("too many mounts for one backend");
		return -1;
	}
	if (mount(source, target, type, flags, data) != 0) {
		int e = errno;
		*why = xasprintf("mount -t %s %s %s%s%s: %s", type, source, target,
				 data ? " -o " : "", data ? data : "", strerror(e));
		errno = e;
		return -1;
	}
	fs->mounts[fs->nmounts++] = xstrdup(target);
	return 0;
}

enum aw_fs_rc aw_fs_refused(int err, const char *what, char **why)
{
	const char *hint = err == ENODEV ? "the kernel has no such filesystem type"
			   : err == EPERM || err == EACCES ? "not permitted here: privilege, an "
			     "LSM or a container's policy"
			   : NULL;
	if (!hint)
		return AW_FS_ERROR;
	free(*why);
	*why = xasprintf("%s: %s, %s", what, aw_errname(err), hint);
	return AW_FS_SKIP;
}

/* Run mkfs (argv[0] a full path) with env added and its messages in
 * English: its exit status, the last 4 KiB of its output in *out; or -1
 * with errno and *out saying why (it could not run, or a signal). */
static int run_mkfs(const char *const argv[], const char *const *env, char **out)
{
	size_t n = 0;
	while (env && env[n])
		n++;
	const char **all = xcalloc(n + 2, sizeof(*all));
	all[0] = "LC_ALL=C";
	for (size_t i = 0; i < n; i++)
		all[i + 1] = env[i];
	struct aw_spawn how = { .in = -1, .env = all };
	struct aw_capture cap = { .out = true, .err = true, .max = 4096, .keep_tail = true };
	int rc = aw_capture(argv, &how, &cap);
	int e = errno;
	free(all);
	if (rc != 0) {
		*out = xasprintf("cannot execute %s: %s", argv[0], strerror(e));
		errno = e;
		return -1;
	}
	if (WIFSIGNALED(cap.status)) {
		*out = xasprintf("%s killed by signal %d", argv[0], WTERMSIG(cap.status));
		free(cap.text);
		errno = EINTR;
		return -1;
	}
	*out = cap.text;
	return WEXITSTATUS(cap.status);
}

/* "a b c" from argv, for messages. */
static char *join(const char *const *argv)
{
	char *s = xstrdup("");
	for (size_t i = 0; argv[i]; i++) {
		char *t = xasprintf("%s%s%s", s, i ? " " : "", argv[i]);
		free(s);
		s = t;
	}
	return s;
}

/* The first non-empty line of a program's output: where mkfs says what
 * it did not like (the usage text follows). */
static char *first_line(const char *out)
{
	while (*out == '\n' || *out == ' ' || *out == '\t')
		out++;
	return xasprintf("%.*s", (int)strcspn(out, "\n"), out);
}

/* The name of the run's image for this mkfs: the backend, and a hash of
 * everything that decides what mkfs makes (its size, arguments and
 * environment; the image's own path, the last argument, apart). */
static char *template_name(const struct aw_backend *b, const struct aw_mkfs *m,
			   const char *const *argv, size_t nargs)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */
	char size[32];
	snprintf(size, sizeof(size), "%llu", m->image_size);
	const char *const parts[] = { size, NULL };
	const char *const *lists[] = { parts, argv + 1, m->env };
	size_t counts[] = { 1, nargs - 2, SIZE_MAX };
	for (size_t l = 0; l < 3; l++)
		for (size_t i = 0; lists[l] && i < counts[l] && lists[l][i]; i++)
			for (const char *c = lists[l][i]; ; c++) {
				h = (h ^ (unsigned char)*c) * 1099511628211ULL;
				if (!*c)
					break;
			}
	return xasprintf("%s-%016llx.img", b->name, (unsigned long long)h);
}

/* Copy the regular file from (in fromdir) to to (in todir), a new file,
 * sparse: 0, or -1 with nothing left at to. */
static int copy_sparse_at(int fromdir, const char *from, int todir, const char *to)
{
	int in = openat(fromdir, from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	int out = openat(todir, to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	int rc = out >= 0 ? aw_copy_sparse(out, in) : -1;
	if (out >= 0 && close(out) != 0)
		rc = -1;
	if (rc != 0 && out >= 0)
		unlinkat(todir, to, 0);
	close(in);
	return rc;
}

/* Keep a copy of the image mkfs just made as the run's, whole or not at
 * all: written under a name of this process's, then renamed into place
 * (two probes that made it at once both rename; either copy will do). */
static void keep_template(int shared_dirfd, const char *name, const char *path)
{
	char *tmp = xasprintf("%s.%d.part", name, (int)getpid());
	if (copy_sparse_at(AT_FDCWD, path, shared_dirfd, tmp) == 0 &&
	    renameat(shared_dirfd, tmp, shared_dirfd, name) != 0)
		unlinkat(shared_dirfd, tmp, 0);
	free(tmp);
}

/* The image at its path: a copy of the run's, else made by mkfs (and
 * kept as the run's).  *copied says which. */
static enum aw_fs_rc image(const struct aw_backend *b, const struct aw_fs_opts *o,
			   const struct aw_mkfs *m, const char **argv, size_t nargs,
			   const char *path, bool *copied, char **why)
{
	char *name = m->copies && o->shared_dirfd > 0 ? template_name(b, m, argv, nargs) : NULL;
	int r;
	/* A copy of the run's image, when a probe before made it. */
	*copied = name && copy_sparse_at(o->shared_dirfd, name, AT_FDCWD, path) == 0;
	if (*copied) {
		free(name);
		return AW_FS_OK;
	}
	if ((r = aw_make_image(path, m->image_size)) != 0) {
		*why = xasprintf("creating the image %s: %s", path, strerror(-r));
		free(name);
		return AW_FS_ERROR;
	}
	char *out = NULL;
	int status = run_mkfs(argv, m->env, &out);
	if (status != 0) {
		char *cmd = join(argv), *line = first_line(out ? out : "");
		*why = status < 0 ? xasprintf("%s: %s", cmd, out ? out : strerror(errno))
				  : xasprintf("%s exited with status %d: %s", cmd, status, line);
		free(cmd);
		free(line);
	} else if (name) {
		keep_template(o->shared_dirfd, name, path);
	}
	free(out);
	free(name);
	return status == 0 ? AW_FS_OK : AW_FS_ERROR;
}

enum aw_fs_rc aw_fs_mkfs_mount(const struct aw_backend *b, const struct aw_fs_opts *o,
			       struct aw_fs *fs, const struct aw_mkfs *m, char **why)
{
	const char *const *mkfs_args = m->args;
	char *path = xasprintf("%s/%s.img", o->base, b->name);
	char *prog = aw_which(b->mkfs);
	enum aw_fs_rc rc = AW_FS_ERROR;
	char *mnt = NULL, *dev = NULL, *work = NULL, *mount_data = NULL;
	size_t nargs = 0;
	int loopfd = -1;
	bool copied = false;

	while (mkfs_args[nargs])
		nargs++;
	const char **argv = xcalloc(nargs + 3, sizeof(*argv));
	argv[0] = prog;
	for (size_t i = 0; i < nargs; i++)
		argv[i + 1] = mkfs_args[i];
	argv[nargs + 1] = path;

	if (!prog) {
		*why = xasprintf("%s not found", b->mkfs);
		rc = AW_FS_SKIP;
		goto out;
	}
	if (image(b, o, m, argv, nargs + 2, path, &copied, why) != AW_FS_OK)
		goto out;
	loopfd = aw_loop_attach(path, &dev, &fs->loop_nr[0], why);
	if (loopfd < 0) {
		rc = aw_fs_refused(errno, "attaching a loop device", why);
		goto out;
	}
	/* The device holds the file open; the name is not needed any more. */
	unlink(path);
	if (!(mnt = aw_fs_subdir(o->base, b->name, why)))
		goto out;
	mount_data = copied && m->copy_mount_data
		     ? (m->mount_data ? xasprintf("%s,%s", m->mount_data, m->copy_mount_data)
				      : xstrdup(m->copy_mount_data))
		     : m->mount_data ? xstrdup(m->mount_data) : NULL;
	if (aw_fs_mount(fs, dev, mnt, b->fstype, MS_NOSUID | MS_NODEV, mount_data, why) != 0) {
		char *what = xasprintf("mounting %s", b->fstype);
		rc = aw_fs_refused(errno, what, why);
		free(what);
		goto out;
	}
	/* A directory of its own: no lost+found, no root-directory quirks. */
	if (!(work = aw_fs_subdir(mnt, "dir", why)) || aw_fs_open_dir(fs, work, why) != 0)
		goto out;
	char *cmd = join(argv);
	fs->detail = xasprintf("%s%s; %s on %s, mounted at %s%s%s", copied ? "a copy of the run's " : "",
			       cmd, b->fstype, dev, mnt, mount_data ? " -o " : "",
			       mount_data ? mount_data : "");
	free(cmd);
	rc = AW_FS_OK;
out:
	if (loopfd >= 0)
		close(loopfd); /* from here the mount holds the device, if any */
	if (rc != AW_FS_OK)
		unlink(path);
	free(path);
	free(prog);
	free(argv);
	free(mnt);
	free(dev);
	free(work);
	free(mount_data);
	return rc;
}
