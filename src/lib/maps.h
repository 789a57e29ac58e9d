/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading /proc/PID/maps: the line of a mapping found by its name
 * ("[stack]", "[anon:abiwatch]") or by an address it covers.  Pure
 * functions on a buffer (not NUL-terminated: len says where it ends)
 * that never read past len, so that they are unit-tested
 * (tests/unit/test_maps.c) and fuzzed (tests/fuzz/fuzz_mm.c), shared by
 * the mm family (the vsyscall page) and the process family (the stack's
 * exec bit, anonymous mapping names, READ_IMPLIES_EXEC).
 *
 * A line is "START-END PERMS OFFSET DEV INODE [NAME]" (proc(5)); the
 * name is the rest of the line after the fifth field, spaces included
 * (a file path or an [anon:...] name may hold spaces), without the
 * padding before it and the spaces after it.
 */
#ifndef ABIWATCH_LIB_MAPS_H
#define ABIWATCH_LIB_MAPS_H

#include <stddef.h>

struct aw_map {
	unsigned long start, end;
	char perms[5];   /* "r-xp" */
	char name[256];  /* "" for an anonymous mapping; cut to fit */
};

/* The first mapping whose name is exactly name: 0 with *m, or -ENOENT
 * (also for a name of 255 bytes or more, which a cut one may equal). */
int aw_maps_by_name(const char *maps, size_t len, const char *name, struct aw_map *m);
/* The mapping that covers addr: 0 with *m, or -ENOENT. */
int aw_maps_by_addr(const char *maps, size_t len, unsigned long addr, struct aw_map *m);

#endif
