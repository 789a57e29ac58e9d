/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A kernel series from the Debian archive, for `abiwatch matrix --apt
 * PATTERN`: the linux-image packages whose names match PATTERN (an
 * extended regular expression over the whole name), each fetched with
 * `apt-get download` into a cache directory, and the newest update of
 * each ABI name taken from the cache in Debian's version order.  Where
 * apt cannot fetch (offline), what the cache holds serves, and it says so.
 */
#ifndef ABIWATCH_SESSION_APT_H
#define ABIWATCH_SESSION_APT_H

#include <stdbool.h>
#include <stddef.h>

struct aw_apt_series {
	char **debs; /* paths in the cache, in Debian version order */
	size_t n;
	size_t fetched, from_cache; /* downloaded now, served by the cache alone */
};

/* The cache a run uses when none is given: $XDG_CACHE_HOME/abiwatch/debs,
 * else ~/.cache/abiwatch/debs, else DIR/debs (dir: the output directory).
 * malloc'd. */
char *aw_apt_default_cache(const char *dir);

/* Fetch the series into cache (made if missing) and list it.  say: print
 * what apt did and what the cache served on stderr.  0, or -1 with *err
 * (malloc'd): a bad pattern, a cache that cannot be made, nothing found. */
int aw_apt_series_fetch(const char *pattern, const char *cache, bool say,
			struct aw_apt_series *s, char **err);
void aw_apt_series_free(struct aw_apt_series *s);

/* A cache file's package name and version, from apt's name for it,
 * NAME_VERSION_ARCH.deb (':' written %3a); false when it is not one. */
bool aw_apt_file_parts(const char *file, char **name, char **version);

#endif
