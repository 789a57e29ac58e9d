// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: the .deb reader (vm/deb.c), the path `abiwatch vm
 * --deb` takes from a package's bytes to the guest's kernel, modules and
 * configuration, fed the bytes as a file, as it reads a package.  It
 * never crashes or leaks, and what it accepts means what it says: a
 * kernel file, a release, and modules whose offsets and lengths lie in
 * the store; what it refuses it says why, and leaves no kernel file.
 * The same bytes then go to the control file's reader (the Version that
 * orders kernels): a version is one non-empty line, a refusal a reason.
 * The corpus starts from tiny linux-image-like packages in each
 * compression dpkg-deb writes (tests/fuzz/deb-seeds makes them). */
#include "vm/deb.h"
#include "lib/proc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What an accepted package must hold for a guest to boot it. */
static void check_accepted(int kernel_fd, const struct aw_modtree *t, const struct aw_deb_boot *b)
{
	struct stat st;
	if (kernel_fd < 0 || !t->release || fstat(t->store, &st) != 0)
		abort();
	for (size_t i = 0; i < t->nfiles; i++)
		if (t->files[i].off < 0 || t->files[i].off + (off_t)t->files[i].len > st.st_size)
			abort();
	if (b->config && !b->config_path)
		abort();
}

/* The Version read from the same bytes. */
static void check_version(int fd)
{
	char *err = NULL;
	if (lseek(fd, 0, SEEK_SET) != 0)
		return;
	char *v = aw_deb_version_fd(fd, "fuzz.deb", &err);
	if (v ? !*v || strchr(v, '\n') || err : !err)
		abort();
	free(v);
	free(err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = aw_anon_file("fuzz.deb");
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size || lseek(fd, 0, SEEK_SET) != 0) {
		close(fd);
		return 0;
	}
	struct aw_modtree tree;
	struct aw_deb_boot boot = { 0 };
	char *err = NULL;
	int kernel_fd = -2;
	aw_modtree_init(&tree);
	if (aw_deb_read_fd(fd, "fuzz.deb", &kernel_fd, &tree, &boot, &err) == 0)
		check_accepted(kernel_fd, &tree, &boot);
	else if (!err || kernel_fd != -1)
		abort();
	if (kernel_fd >= 0)
		close(kernel_fd);
	free(err);
	check_version(fd);
	aw_deb_boot_free(&boot);
	aw_modtree_free(&tree);
	close(fd);
	return 0;
}
