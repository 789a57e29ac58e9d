/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel modules for a guest: which files to put in its initramfs, in the
 * order to load them.
 *
 * A tree is a kernel's lib/modules/RELEASE: a directory of the host
 * (--modules DIR, or /lib/modules/RELEASE of an installed kernel), or the
 * files of a linux-image .deb held in an anonymous store.  Dependencies
 * come from modules.dep when the tree has one (depmod ran), else from each
 * module's own .modinfo ("depends=", "softdep=pre:/post:"), which is what
 * depmod reads too: a .deb ships no modules.dep, its postinst makes one.
 * Names are found as modules, as built-ins (modules.builtin, whose
 * aliases modules.builtin.modinfo lists), and as aliases ("fs-xfs",
 * "crypto-crc32c") through modules.alias or, without it, the .modinfo of
 * the modules under kernel/crypto and kernel/arch, where softdeps point.
 * Compressed modules (.ko.xz, .ko.zst, .ko.gz) are decompressed on the
 * host with xz, zstd or gzip, so that the guest's init loads plain ELF
 * files with finit_module(2) whatever the kernel supports.
 */
#ifndef ABIWATCH_VM_MODULES_H
#define ABIWATCH_VM_MODULES_H

#include <stddef.h>
#include <sys/types.h>

struct aw_modfile {
	char *path; /* relative to the tree: "kernel/fs/xfs/xfs.ko.xz" */
	char *name; /* "xfs" ('-' written as '_') */
	off_t off;  /* in the store */
	size_t len;
	/* Filled in as needed. */
	char *elf;  /* decompressed */
	size_t elf_len;
	char *modinfo_depends, *modinfo_softdep;
	char **aliases;
	size_t naliases;
	struct aw_modfile **pre; /* what must be loaded first (deps, softdep pre) */
	size_t npre;
	int state;  /* resolution: 0 new, 1 in progress, 2 placed, 3 failed */
	int info_read;
};

struct aw_modtree {
	char *release;
	char *dir;   /* a host directory, or NULL when the files are in store */
	int store;   /* anonymous file holding the files of a .deb, or -1 */
	struct aw_modfile *files;
	size_t nfiles;
	/* modules.dep, modules.builtin, modules.builtin.modinfo and
	 * modules.alias, or NULL when the tree lacks them. */
	char *dep, *builtin, *builtin_modinfo, *alias;
	size_t builtin_modinfo_len;
	int crypto_scanned;
};

/* What goes into the initramfs, in load order. */
struct aw_modplan {
	struct aw_modfile **load;
	size_t nload;
	/* Each wanted name that resolved to a module, and that module. */
	char **names;
	struct aw_modfile **named;
	size_t nnamed;
	char **notes; /* "xfs: built in", "fuse: not in this kernel" */
	size_t nnotes;
};

void aw_modtree_init(struct aw_modtree *t);
/* Read the tree of a directory (lib/modules/RELEASE).  0, or -1, *err. */
int aw_modtree_from_dir(struct aw_modtree *t, const char *dir, char **err);
/* Whether a file of a tree (REL below lib/modules/RELEASE) is worth
 * keeping: a module or an index (modules.*). */
int aw_modtree_wants(const char *rel);
/* Add a file of a store (a .deb's lib/modules/RELEASE/REL). */
void aw_modtree_add(struct aw_modtree *t, const char *rel, off_t off, size_t len);
/* After the files are added: read the modules.* indexes among them. */
void aw_modtree_finish(struct aw_modtree *t);
void aw_modtree_free(struct aw_modtree *t);

/* Resolve each wanted name (a module name or an alias) with what it
 * depends on.  A name the kernel lacks is a note, not an error: the probes
 * that need it skip in the guest.  0, or -1 with *err when a module that
 * exists cannot be read or decompressed. */
int aw_modules_resolve(struct aw_modtree *t, const char *const *wanted, size_t nwanted,
		       struct aw_modplan *plan, char **err);
void aw_modplan_free(struct aw_modplan *plan);
/* What to load for f, in order, f last: the indexes into plan->load of
 * f and everything it needs.  malloc'd array of *n. */
size_t *aw_modplan_sequence(const struct aw_modplan *plan, const struct aw_modfile *f, size_t *n);

/* Decompress data by the suffix of name (.xz, .zst, .gz; else a copy),
 * in memory with libarchive's filters (no program run); data that is not
 * what the suffix says is an error.  0, or -1 with *err (malloc'd). */
int aw_decompress(const char *name, const char *data, size_t len, char **out, size_t *out_len,
		  char **err);

/* The strings of an ELF file's .modinfo section, NUL-separated, or NULL. */
const char *aw_elf_modinfo(const char *elf, size_t len, size_t *info_len);

#endif
