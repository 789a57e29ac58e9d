// SPDX-License-Identifier: GPL-2.0-or-later
/* A kernel series from the Debian archive: see apt.h. */
#include "apt.h"
#include "lib/debver.h"
#include "lib/proc.h"
#include "lib/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define UNSIGNED_SUFFIX "-unsigned"

char *aw_apt_default_cache(const char *dir)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	if (xdg && xdg[0] == '/')
		return xasprintf("%s/abiwatch/debs", xdg);
	if (home && home[0] == '/')
		return xasprintf("%s/.cache/abiwatch/debs", home);
	return xasprintf("%s/debs", dir);
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* The ABI name a package stands for: linux-image-6.1.0-57-cloud-amd64
 * for itself and for its -unsigned twin. */
static char *abi_name(const char *package)
{
	size_t n = strlen(package);
	if (has_suffix(package, UNSIGNED_SUFFIX))
		n -= strlen(UNSIGNED_SUFFIX);
	return strndup(package, n);
}

bool aw_apt_file_parts(const char *file, char **name, char **version)
{
	const char *base = strrchr(file, '/');
	base = base ? base + 1 : file;
	const char *u1 = strchr(base, '_'), *u2 = u1 ? strchr(u1 + 1, '_') : NULL;
	if (!u1 || !u2 || u1 == base || u2 == u1 + 1 || !has_suffix(u2, ".deb") || strchr(u2 + 1, '_'))
		return false;
	char *v = xasprintf("%.*s", (int)(u2 - u1 - 1), u1 + 1), *colon = strstr(v, "%3a");
	if (colon) { /* apt's file name for an epoch's ':' */
		*colon = ':';
		memmove(colon + 1, colon + 3, strlen(colon + 3) + 1);
	}
	if (!aw_debver_valid(v)) {
		free(v);
		return false;
	}
	*name = xasprintf("%.*s", (int)(u1 - base), base);
	*version = v;
	return true;
}

/* A whole-name match of the user's pattern. */
static int compile(const char *pattern, regex_t *re, char **err)
{
	char *anchored = xasprintf("^(%s)$", pattern);
	int rc = regcomp(re, anchored, REG_EXTENDED | REG_NOSUB);
	free(anchored);
	if (rc != 0) {
		char why[256];
		regerror(rc, re, why, sizeof(why));
		*err = xasprintf("--apt '%s': not an extended regular expression: %s", pattern, why);
		return -1;
	}
	return 0;
}

/* Lines of a program's output, or NULL (*n 0) when it failed. */
static char **output_lines(const char *const argv[], size_t *n)
{
	struct aw_spawn how = { .in = -1, .own_pgrp = true };
	struct aw_capture cap = { .out = true, .timeout_s = 120, .max = 4 << 20 };
	*n = 0;
	if (aw_capture(argv, &how, &cap) != 0)
		return NULL;
	char **lines = NULL;
	if (WIFEXITED(cap.status) && WEXITSTATUS(cap.status) == 0)
		for (char *save = NULL, *l = strtok_r(cap.text, "\n", &save); l;
		     l = strtok_r(NULL, "\n", &save)) {
			lines = xgrow(lines, *n, sizeof(*lines));
			lines[(*n)++] = xstrdup(l);
		}
	free(cap.text);
	return lines;
}

static void free_lines(char **l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(l[i]);
	free(l);
}

static bool listed(char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return true;
	return false;
}

/* A package's candidate version (apt-cache policy), malloc'd, or NULL. */
static char *candidate(const char *package)
{
	const char *argv[] = { "apt-cache", "policy", package, NULL };
	size_t n;
	char **lines = output_lines(argv, &n), *v = NULL;
	for (size_t i = 0; i < n && !v; i++) {
		const char *p = strstr(lines[i], "Candidate: ");
		if (p && strcmp(p + 11, "(none)") != 0)
			v = xstrdup(p + 11);
	}
	free_lines(lines, n);
	return v;
}

/* The package to fetch for an ABI name, and its candidate version
 * (*version, NULL when apt has none): its -unsigned twin when apt knows
 * one of the same version (built from the same source upload, so the
 * same image without the signature), else itself. */
static char *package_to_fetch(const char *abi, char *const *known, size_t nknown,
			      char **version)
{
	char *twin = xasprintf("%s%s", abi, UNSIGNED_SUFFIX);
	char *signed_v = candidate(abi);
	if (listed(known, nknown, twin)) {
		char *twin_v = candidate(twin);
		if (twin_v && (!signed_v || strcmp(signed_v, twin_v) == 0)) {
			free(signed_v);
			*version = twin_v;
			return twin;
		}
		free(twin_v);
	}
	free(twin);
	*version = signed_v;
	return xstrdup(abi);
}

/* Whether the cache holds package at version already (any arch). */
static bool in_cache(const char *cache, const char *package, const char *version)
{
	DIR *d = opendir(cache);
	bool found = false;
	for (struct dirent *e; d && !found && (e = readdir(d));) {
		char *name, *v;
		if (!aw_apt_file_parts(e->d_name, &name, &v))
			continue;
		found = strcmp(name, package) == 0 && strcmp(v, version) == 0;
		free(name);
		free(v);
	}
	if (d)
		closedir(d);
	return found;
}

/* The ABI names apt knows that match, each once. */
static char **matching_abis(const regex_t *re, char ***known, size_t *nknown, size_t *n)
{
	const char *argv[] = { "apt-cache", "pkgnames", "linux-image-", NULL };
	*known = output_lines(argv, nknown);
	char **abis = NULL;
	*n = 0;
	for (size_t i = 0; i < *nknown; i++) {
		const char *name = (*known)[i];
		if (has_suffix(name, "-dbg") || regexec(re, name, 0, NULL, 0) != 0)
			continue;
		char *abi = abi_name(name);
		if (listed(abis, *n, abi)) {
			free(abi);
			continue;
		}
		abis = xgrow(abis, *n, sizeof(*abis));
		abis[(*n)++] = abi;
	}
	return abis;
}

/* apt-get download PACKAGE in cache (its files go to the current
 * directory).  0, or -1 with apt's last words in *why. */
static int download(const char *cache, const char *package, char **why)
{
	int here = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (here < 0 || chdir(cache) != 0) {
		*why = xasprintf("%s: %s", cache, strerror(errno));
		if (here >= 0)
			close(here);
		return -1;
	}
	const char *argv[] = { "apt-get", "-q", "download", package, NULL };
	char *err_text = NULL;
	int st = aw_run_wait(argv, -1, -1, &err_text);
	if (fchdir(here) != 0)
		st = -1;
	close(here);
	if (st == 0) {
		free(err_text);
		return 0;
	}
	char *last = err_text ? strstr(err_text, "E: ") : NULL;
	*why = xstrdup(last ? last : "apt-get failed");
	last = strchr(*why, '\n');
	if (last)
		*last = '\0';
	free(err_text);
	return -1;
}

/* A cache file chosen for an ABI name. */
struct pick {
	char *abi, *path, *version;
	bool is_unsigned;
};

/* Whether candidate beats the current pick of its ABI name: a newer
 * version, or the same version unsigned. */
static bool better(const struct pick *cur, const char *version, bool is_unsigned)
{
	int c = aw_debver_cmp(version, cur->version);
	return c > 0 || (c == 0 && is_unsigned && !cur->is_unsigned);
}

static void consider(struct pick **picks, size_t *n, const char *cache, const char *file,
		     const char *package, const char *version)
{
	char *abi = abi_name(package);
	bool is_unsigned = has_suffix(package, UNSIGNED_SUFFIX);
	size_t i = 0;
	while (i < *n && strcmp((*picks)[i].abi, abi) != 0)
		i++;
	if (i == *n) {
		*picks = xgrow(*picks, *n, sizeof(**picks));
		(*picks)[(*n)++] = (struct pick){ abi, xasprintf("%s/%s", cache, file), xstrdup(version),
						  is_unsigned };
		return;
	}
	free(abi);
	struct pick *p = &(*picks)[i];
	if (!better(p, version, is_unsigned))
		return;
	free(p->path);
	free(p->version);
	p->path = xasprintf("%s/%s", cache, file);
	p->version = xstrdup(version);
	p->is_unsigned = is_unsigned;
}

/* The newest file of each ABI name in the cache whose package (or ABI
 * name) matches. */
static int scan_cache(const char *cache, const regex_t *re, struct pick **picks, size_t *n,
		      char **err)
{
	DIR *d = opendir(cache);
	if (!d) {
		*err = xasprintf("%s: %s", cache, strerror(errno));
		return -1;
	}
	*picks = NULL;
	*n = 0;
	for (struct dirent *e; (e = readdir(d));) {
		char *package, *version;
		if (!aw_apt_file_parts(e->d_name, &package, &version))
			continue;
		char *abi = abi_name(package);
		if (!has_suffix(package, "-dbg") && (regexec(re, package, 0, NULL, 0) == 0 ||
						     regexec(re, abi, 0, NULL, 0) == 0))
			consider(picks, n, cache, e->d_name, package, version);
		free(abi);
		free(package);
		free(version);
	}
	closedir(d);
	return 0;
}

static int by_version(const void *a, const void *b)
{
	const struct pick *x = a, *y = b;
	int c = aw_debver_cmp(x->version, y->version);
	return c ? c : strcmp(x->abi, y->abi);
}

/* Fetch each ABI name apt knows that the cache lacks; the number
 * fetched, and the failures said on stderr. */
static size_t fetch_all(const char *cache, const regex_t *re, bool say, size_t *failed)
{
	char **known, **abis;
	size_t nknown, nabis, fetched = 0;
	abis = matching_abis(re, &known, &nknown, &nabis);
	*failed = 0;
	for (size_t i = 0; i < nabis; i++) {
		char *version, *package = package_to_fetch(abis[i], known, nknown, &version);
		char *why = NULL;
		if (version && in_cache(cache, package, version)) {
			/* nothing newer in the archive */
		} else if (download(cache, package, &why) == 0) {
			fetched++;
		} else {
			(*failed)++;
			if (say)
				fprintf(stderr, "abiwatch matrix: apt-get download %s failed: %s\n",
					package, why);
		}
		free(why);
		free(package);
		free(version);
	}
	if (say && nabis == 0)
		fprintf(stderr, "abiwatch matrix: apt knows no package that matches; the cache %s serves\n",
			cache);
	free_lines(abis, nabis);
	free_lines(known, nknown);
	return fetched;
}

static int make_cache(const char *cache, char **err)
{
	char *p = xstrdup(cache);
	for (char *s = strchr(p + 1, '/');; s = strchr(s + 1, '/')) {
		if (s)
			*s = '\0';
		if (mkdir(p, 0755) != 0 && errno != EEXIST) {
			*err = xasprintf("%s: %s", p, strerror(errno));
			free(p);
			return -1;
		}
		if (!s)
			break;
		*s = '/';
	}
	free(p);
	return 0;
}

int aw_apt_series_fetch(const char *pattern, const char *cache, bool say,
			struct aw_apt_series *s, char **err)
{
	memset(s, 0, sizeof(*s));
	regex_t re;
	if (compile(pattern, &re, err) != 0)
		return -1;
	struct pick *picks = NULL;
	size_t n = 0, failed = 0;
	int rc = make_cache(cache, err);
	if (rc == 0) {
		s->fetched = fetch_all(cache, &re, say, &failed);
		rc = scan_cache(cache, &re, &picks, &n, err);
	}
	regfree(&re);
	if (rc == 0 && n == 0) {
		*err = xasprintf("--apt '%s': no package matches, in apt or in the cache %s", pattern,
				 cache);
		rc = -1;
	}
	if (rc == 0) {
		qsort(picks, n, sizeof(*picks), by_version);
		s->debs = xcalloc(n, sizeof(*s->debs));
		for (size_t i = 0; i < n; i++)
			s->debs[i] = xstrdup(picks[i].path);
		s->n = n;
		s->from_cache = n > s->fetched ? n - s->fetched : 0;
		if (say)
			fprintf(stderr, "abiwatch matrix: --apt: %zu packages, %zu fetched now, %zu "
				"from the cache %s%s\n", n, s->fetched, s->from_cache, cache,
				failed ? " (apt could not fetch some: offline? the cache serves)" : "");
	}
	for (size_t i = 0; i < n; i++) {
		free(picks[i].abi);
		free(picks[i].path);
		free(picks[i].version);
	}
	free(picks);
	return rc;
}

void aw_apt_series_free(struct aw_apt_series *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->debs[i]);
	free(s->debs);
	memset(s, 0, sizeof(*s));
}
