// SPDX-License-Identifier: GPL-2.0-or-later
/* The guest's initramfs: see initramfs.h. */
#include "initramfs.h"
#include "cpio.h"
#include "guest.h"
#include "lib/proc.h"
#include "lib/util.h"
#include "lib/procfs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static void info_note(struct aw_initramfs_info *info, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void info_note(struct aw_initramfs_info *info, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	info->notes = xgrow(info->notes, info->nnotes, sizeof(*info->notes));
	info->notes[info->nnotes++] = xvasprintf(fmt, ap);
	va_end(ap);
}

void aw_initramfs_info_free(struct aw_initramfs_info *info)
{
	for (size_t i = 0; i < info->nnotes; i++)
		free(info->notes[i]);
	free(info->notes);
	memset(info, 0, sizeof(*info));
}

/* No empty, '.' or '..' component, and not the root. */
static bool plain_path(const char *path)
{
	for (const char *c = path + 1;; c += strcspn(c, "/") + 1) {
		size_t n = strcspn(c, "/");
		if (n == 0 || strncmp(c, ".", n) == 0 || strncmp(c, "..", n) == 0)
			return false;
		if (!c[n])
			return true;
	}
}

/* path is dir or beneath it. */
static bool is_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

char *aw_guest_path_refused(const char *path)
{
	static const char *const mounted[] = { AW_GUEST_MOUNTED_OVER };
	static const char *const own[] = { AW_GUEST_OWN };
	if (path[0] != '/')
		return xasprintf("'%s' is not an absolute path", path);
	if (!plain_path(path))
		return xasprintf("'%s' is not a plain path of a file (an empty, '.' or '..' component)",
				 path);
	for (size_t i = 0; i < sizeof(mounted) / sizeof(mounted[0]); i++)
		if (is_under(path, mounted[i]))
			return xasprintf("%s is under %s, which the guest's init mounts a fresh "
					 "filesystem on, hiding it", path, mounted[i]);
	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		if (is_under(path, own[i]))
			return xasprintf("%s is reserved for the guest's init (%s)", path, own[i]);
	return NULL;
}

char *aw_guest_file_path(const char *spec, char **err)
{
	const char *eq = strchr(spec, '=');
	const char *guest = eq ? eq + 1 : spec;
	char *why = eq == spec ? xstrdup("no host file before '='") : aw_guest_path_refused(guest);
	if (why) {
		*err = xasprintf("--file %s: %s%s", spec, why,
				 eq ? "" : " (give a guest path: HOST=GUEST)");
		free(why);
		return NULL;
	}
	return xstrdup(guest + 1);
}

char *aw_setup_program(const char *cmd, char **err)
{
	char *prog = xstrdup(cmd);
	prog[strcspn(prog, " ")] = '\0';
	char *found = strchr(prog, '/') ? xstrdup(prog) : aw_which(prog);
	char *real = found ? realpath(found, NULL) : NULL;
	char *why = NULL, *msg = NULL;
	if (!real)
		msg = xasprintf("--setup '%s': %s: %s", cmd, prog,
				found ? strerror(errno) : "not found in PATH");
	else if ((why = aw_guest_path_refused(real)))
		msg = xasprintf("--setup '%s': %s", cmd, why);
	else if (access(real, X_OK) != 0)
		msg = xasprintf("--setup '%s': %s: %s", cmd, real, strerror(errno));
	if (msg) {
		*err = msg;
		free(real);
		real = NULL;
	}
	free(why);
	free(found);
	free(prog);
	return real;
}

/* A host file (symbolic links followed) as guest_path. */
static int add_host_file(struct aw_cpio *c, const char *host, const char *guest, unsigned mode,
			 char **err)
{
	int fd = open(host, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		*err = xasprintf("%s: %s", host, fd < 0 ? strerror(errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!mode)
		mode = st.st_mode & 0777;
	int rc = aw_cpio_fd(c, guest, mode, fd, 0, (size_t)st.st_size);
	int e = errno;
	close(fd);
	if (rc != 0)
		*err = xasprintf("writing %s into the initramfs: %s", host, strerror(e));
	return rc;
}

/* The libraries ldd(1) lists for prog, added at the paths it names. */
static int add_libraries(struct aw_cpio *c, const char *prog, struct aw_initramfs_info *info,
			 char **err)
{
	int out = aw_anon_file("ldd");
	char *why = NULL, *text = NULL;
	size_t len;
	if (out < 0) {
		*err = xasprintf("cannot make a temporary file: %s", strerror(errno));
		return -1;
	}
	const char *argv[] = { "ldd", prog, NULL };
	int st = aw_run_wait(argv, -1, out, &why);
	int rc = 0;
	if (aw_fd_slurp(out, &text, &len) != 0)
		text = NULL;
	close(out);
	if (st != 0 || !text) {
		/* "not a dynamic executable": a static program needs nothing. */
		if (!(text && strstr(text, "not a dynamic")) && !(why && strstr(why, "not a dynamic")))
			info_note(info, "%s: ldd failed, its libraries are missing%s%s", prog,
				  why && *why ? ": " : "", why ? why : "");
		free(why);
		free(text);
		return 0;
	}
	free(why);
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line && rc == 0; line = strtok_r(NULL, "\n", &save)) {
		/* "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)" or
		 * "\t/lib64/ld-linux-x86-64.so.2 (0x...)"; vdso has no path. */
		char *arrow = strstr(line, "=> ");
		char *path = arrow ? arrow + 3 : line + strspn(line, " \t");
		if (*path != '/') {
			if (arrow && strstr(path, "not found"))
				info_note(info, "%s: library %.*s not found", prog,
					  (int)(arrow - line), line);
			continue;
		}
		path[strcspn(path, " \t")] = '\0';
		char *refused = aw_guest_path_refused(path);
		if (refused) {
			*err = xasprintf("%s: its library %s", prog, refused);
			free(refused);
			rc = -1;
		} else if (!aw_cpio_has(c, path + 1)) {
			rc = add_host_file(c, path, path + 1, 0755, err);
		}
	}
	free(text);
	return rc;
}

/* A program the guest needs (mkfs.xfs...), with its libraries, as
 * usr/sbin/NAME; missing from the host is a note, and the probes that
 * need it skip in the guest. */
static int add_program(struct aw_cpio *c, const char *name, struct aw_initramfs_info *info,
		       char **err)
{
	char *host = NULL;
	if (strchr(name, '/')) {
		host = access(name, X_OK) == 0 ? xstrdup(name) : NULL;
	} else {
		static const char *const dirs[] = { "/usr/local/sbin", "/usr/sbin", "/sbin",
						    "/usr/local/bin", "/usr/bin", "/bin" };
		for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]) && !host; i++) {
			char *cand = xasprintf("%s/%s", dirs[i], name);
			if (access(cand, X_OK) == 0)
				host = cand;
			else
				free(cand);
		}
	}
	if (!host) {
		info_note(info, "%s: not on this host, so not in the guest", name);
		return 0;
	}
	const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	char *guest = xasprintf("usr/sbin/%s", base);
	int rc = 0;
	if (!aw_cpio_has(c, guest))
		rc = add_host_file(c, host, guest, 0755, err);
	if (rc == 0)
		rc = add_libraries(c, host, info, err);
	free(guest);
	free(host);
	return rc;
}

/* A module's path in the guest's tree, decompressed: "kernel/fs/xfs/xfs.ko". */
static char *guest_module_path(const struct aw_modfile *f)
{
	char *p = xstrdup(f->path);
	char *ko = strstr(p, ".ko");
	if (ko)
		ko[3] = '\0';
	return p;
}

static bool is_eager(const struct aw_initramfs_opts *o, const char *name)
{
	for (const char *const *e = o->eager; e && *e; e++)
		if (strcmp(*e, name) == 0)
			return true;
	return false;
}

static char *append_sequence(char *text, const struct aw_modplan *plan, const char *key,
			     const struct aw_modfile *f)
{
	/* The first line of a key wins: do not write another. */
	for (const char *l = text; *l; l = strchr(l, '\n') + 1) {
		size_t kl = strlen(key);
		if (strncmp(l, key, kl) == 0 && l[kl] == ' ')
			return text;
	}
	size_t n;
	size_t *seq = aw_modplan_sequence(plan, f, &n);
	char *line = xstrdup(key);
	for (size_t i = 0; i < n; i++) {
		char *gp = guest_module_path(plan->load[seq[i]]), *old = line;
		line = xasprintf("%s %s", old, gp);
		free(old);
		free(gp);
	}
	char *out = xasprintf("%s%s\n", text, line);
	free(line);
	free(text);
	free(seq);
	return out;
}

/* The modules as lib/modules/RELEASE/<path>.ko; vm/modules lists those
 * init loads at boot (devices must exist before anything opens them:
 * loop-control, fuse); vm/modprobe maps every name and alias to what it
 * loads, for the kernel's request_module() ("fs-xfs" at mount time) which
 * runs /sbin/modprobe, that is init again.  So a run of the mqueue family
 * does not pay for loading xfs and btrfs under TCG. */
static int add_modules(struct aw_cpio *c, const struct aw_initramfs_opts *o,
		       struct aw_initramfs_info *info, char **err)
{
	const struct aw_modplan *plan = o->plan;
	char *eager = xstrdup(""), *probe = xstrdup("");
	bool *boot = xcalloc(plan ? plan->nload + 1 : 1, sizeof(*boot));
	int rc = 0;

	for (size_t i = 0; plan && i < plan->nnamed; i++) {
		if (!is_eager(o, plan->names[i]))
			continue;
		size_t n;
		size_t *seq = aw_modplan_sequence(plan, plan->named[i], &n);
		for (size_t k = 0; k < n; k++)
			boot[seq[k]] = true;
		free(seq);
	}
	for (size_t i = 0; plan && i < plan->nload && rc == 0; i++) {
		const struct aw_modfile *f = plan->load[i];
		char *gp = guest_module_path(f);
		char *path = xasprintf("lib/modules/%s/%s", o->tree->release, gp);
		rc = aw_cpio_mem(c, path, 0644, f->elf, f->elf_len);
		if (rc != 0)
			*err = xasprintf("writing %s into the initramfs: %s", f->path, strerror(errno));
		if (boot[i]) {
			char *old = eager;
			eager = xasprintf("%s%s\n", old, gp);
			free(old);
		}
		probe = append_sequence(probe, plan, f->name, f);
		for (size_t a = 0; a < f->naliases; a++)
			if (!strpbrk(f->aliases[a], "*?[ "))
				probe = append_sequence(probe, plan, f->aliases[a], f);
		free(path);
		free(gp);
		info->nmodules++;
	}
	for (size_t i = 0; plan && i < plan->nnamed; i++)
		probe = append_sequence(probe, plan, plan->names[i], plan->named[i]);
	if (rc == 0)
		rc = aw_cpio_mem(c, AW_GUEST_MODULES, 0644, eager, strlen(eager));
	if (rc == 0)
		rc = aw_cpio_mem(c, AW_GUEST_MODPROBE, 0644, probe, strlen(probe));
	if (rc == 0)
		rc = aw_cpio_symlink(c, "sbin/modprobe", "/" AW_GUEST_INIT);
	free(boot);
	free(eager);
	free(probe);
	return rc;
}

static int add_config(struct aw_cpio *c, const struct aw_initramfs_opts *o)
{
	size_t len = 0;
	for (size_t i = 0; i < o->nrun_args; i++)
		len += strlen(o->run_args[i]) + 1;
	char *args = xmalloc(len + 1), *p = args;
	for (size_t i = 0; i < o->nrun_args; i++) {
		size_t l = strlen(o->run_args[i]) + 1;
		memcpy(p, o->run_args[i], l);
		p += l;
	}
	int rc = aw_cpio_mem(c, AW_GUEST_ARGS, 0644, args, len);
	free(args);
	/* Libraries of copied programs are where ldd found them; name the
	 * multiarch directories for a loader without ld.so.cache. */
	char *config = xasprintf("deadline %.1f\n%s"
				 "modules /lib/modules/%s\n"
				 "env LD_LIBRARY_PATH=/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:"
				 "/lib64:/usr/lib64:/lib:/usr/lib\n"
				 "env " AW_GUEST_ENV "=1\n",
				 o->deadline, o->stretch ? "stretch 1\n" : "",
				 o->tree && o->tree->release ? o->tree->release : "none");
	if (rc == 0)
		rc = aw_cpio_mem(c, AW_GUEST_CONFIG, 0644, config, strlen(config));
	free(config);
	return rc;
}

/* A --setup command: its program at the host's real path (with the
 * libraries it needs), and the line init runs, naming that path. */
static int add_setup(struct aw_cpio *c, const char *cmd, struct aw_initramfs_info *info,
		     char **line, char **err)
{
	char *real = aw_setup_program(cmd, err);
	int rc = -1;
	if (real && (rc = aw_cpio_has(c, real + 1) ? 0 : add_host_file(c, real, real + 1, 0755, err)) == 0 &&
	    (rc = add_libraries(c, real, info, err)) == 0)
		*line = xasprintf("%s%s\n", real, cmd + strcspn(cmd, " "));
	free(real);
	return rc;
}

static int add_setups(struct aw_cpio *c, const struct aw_initramfs_opts *o,
		      struct aw_initramfs_info *info, char **err)
{
	char *all = xstrdup("");
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < o->nsetups; i++) {
		char *line = NULL;
		rc = add_setup(c, o->setups[i], info, &line, err);
		if (rc == 0) {
			char *more = xasprintf("%s%s", all, line);
			free(all);
			all = more;
		}
		free(line);
	}
	if (rc == 0 && o->nsetups)
		rc = aw_cpio_mem(c, AW_GUEST_SETUP, 0644, all, strlen(all));
	free(all);
	return rc;
}

static int add_extra_file(struct aw_cpio *c, const char *spec, char **err)
{
	char *guest = aw_guest_file_path(spec, err);
	char *host = xstrdup(spec);
	host[strcspn(host, "=")] = '\0';
	int rc = -1;
	if (guest && aw_cpio_has(c, guest))
		*err = xasprintf("--file %s: /%s is in the initramfs already", spec, guest);
	else if (guest)
		rc = add_host_file(c, host, guest, 0, err);
	free(host);
	free(guest);
	return rc;
}

int aw_initramfs_build(const struct aw_initramfs_opts *o, int fd, struct aw_initramfs_info *info,
		       char **err)
{
	struct aw_cpio c;
	static const char *const dirs[] = { "dev", "proc", "sys", "tmp", "run", "mnt", "root",
					    "etc", "vm-out", "usr/bin", "usr/sbin", "bin", "sbin" };
	static const char etc_passwd[] = "root:x:0:0:root:/root:/bin/sh\n";
	static const char etc_group[] = "root:x:0:\n";
	int rc = 0;

	memset(info, 0, sizeof(*info));
	aw_cpio_init(&c, fd);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		aw_cpio_dir(&c, dirs[i], strcmp(dirs[i], "tmp") == 0 ? 01777 : 0755);
	aw_cpio_node(&c, "dev/console", S_IFCHR | 0600, 5, 1);
	aw_cpio_node(&c, "dev/null", S_IFCHR | 0666, 1, 3);
	aw_cpio_mem(&c, "etc/passwd", 0644, etc_passwd, sizeof(etc_passwd) - 1);
	aw_cpio_mem(&c, "etc/group", 0644, etc_group, sizeof(etc_group) - 1);
	if (access("/etc/mke2fs.conf", R_OK) == 0)
		rc = add_host_file(&c, "/etc/mke2fs.conf", "etc/mke2fs.conf", 0644, err);

	if (rc == 0)
		rc = add_host_file(&c, o->init, AW_GUEST_INIT, 0755, err);
	if (rc == 0)
		rc = add_host_file(&c, o->abiwatch, AW_GUEST_ABIWATCH, 0755, err);
	for (const char *const *h = o->helpers; rc == 0 && h && *h; h++) {
		const char *base = strrchr(*h, '/') ? strrchr(*h, '/') + 1 : *h;
		char *guest = xasprintf("%s/%s", AW_GUEST_HELPERS, base);
		rc = add_host_file(&c, *h, guest, 0755, err);
		free(guest);
	}
	if (rc == 0 && o->tree)
		rc = add_modules(&c, o, info, err);
	for (const char *const *p = o->programs; rc == 0 && p && *p; p++)
		rc = add_program(&c, *p, info, err);
	for (size_t i = 0; rc == 0 && i < o->nfiles; i++)
		rc = add_extra_file(&c, o->files[i], err);
	/* After --file, which wins: a test may give another configuration. */
	if (rc == 0 && o->package_path && !aw_cpio_has(&c, o->package_path))
		rc = aw_cpio_mem(&c, o->package_path, 0644, o->package_data, o->package_len);
	if (rc == 0)
		rc = add_setups(&c, o, info, err);
	if (rc == 0)
		rc = add_config(&c, o);
	if (rc == 0 && aw_cpio_finish(&c) != 0) {
		*err = xasprintf("writing the initramfs: %s", strerror(errno));
		rc = -1;
	} else if (rc != 0 && !*err) {
		*err = xasprintf("writing the initramfs: %s", strerror(c.err ? c.err : errno));
	}
	info->bytes = c.bytes;
	aw_cpio_free(&c);
	return rc;
}
