// SPDX-License-Identifier: GPL-2.0-or-later
#include "cookies.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned dc_bits(uint64_t v)
{
	return v ? 64u - (unsigned)__builtin_clzll(v) : 0u;
}

static const char kind_letter[] = { 'f', 'x', 'y', 'r' };

void dc_name(enum dc_kind kind, uint32_t n, char *buf)
{
	snprintf(buf, DC_NAME_LEN + 1, "%c%07u", kind_letter[kind], (unsigned)(n % 10000000u));
}

uint32_t dc_tag(enum dc_kind kind, uint32_t n)
{
	return ((uint32_t)kind << 20) | (n & 0xfffffu);
}

uint32_t dc_fnv1a(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 16777619u;
	}
	return h;
}

uint32_t dc_tag_of(const char *name)
{
	if (name[0] == '.' && name[1] == '\0')
		return DC_TAG_DOT;
	if (name[0] == '.' && name[1] == '.' && name[2] == '\0')
		return DC_TAG_DOTDOT;
	for (unsigned k = 0; k < sizeof(kind_letter); k++) {
		if (name[0] != kind_letter[k])
			continue;
		uint32_t n = 0;
		int i;
		for (i = 1; i < DC_NAME_LEN; i++) {
			if (name[i] < '0' || name[i] > '9')
				break;
			n = n * 10 + (uint32_t)(name[i] - '0');
		}
		if (i == DC_NAME_LEN && name[i] == '\0' && n < DC_MAX_ENTRIES)
			return dc_tag((enum dc_kind)k, n);
		break;
	}
	return DC_TAG_STRANGER | (dc_fnv1a(name) & 0x7fffffffu);
}

const char *dc_tag_name(uint32_t tag, char *buf)
{
	if (tag == DC_TAG_DOT)
		return ".";
	if (tag == DC_TAG_DOTDOT)
		return "..";
	if (tag & DC_TAG_STRANGER)
		return "a name abiwatch did not make";
	dc_name((enum dc_kind)(tag >> 20), dc_tag_num(tag), buf);
	return buf;
}

/* ---- set ---- */

static uint64_t mix(uint64_t x)
{
	/* splitmix64's finaliser: cookies are often small consecutive
	 * numbers or share their low bits; spread them. */
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

static int alloc_slots(struct dc_set *s, size_t cap)
{
	s->cookie = malloc(cap * sizeof(*s->cookie));
	s->tag = malloc(cap * sizeof(*s->tag));
	s->used = calloc(cap, 1);
	if (!s->cookie || !s->tag || !s->used) {
		free(s->cookie);
		free(s->tag);
		free(s->used);
		s->cookie = NULL;
		s->tag = NULL;
		s->used = NULL;
		s->cap = 0;
		return -1;
	}
	s->cap = cap;
	return 0;
}

int dc_set_init(struct dc_set *s, size_t expected)
{
	size_t cap = 16;
	memset(s, 0, sizeof(*s));
	while (cap < 2 * expected && cap < ((size_t)1 << (sizeof(size_t) * 8 - 2)))
		cap <<= 1;
	return alloc_slots(s, cap);
}

static void put(struct dc_set *s, uint64_t cookie, uint32_t tag)
{
	size_t mask = s->cap - 1, i = (size_t)mix(cookie) & mask;
	while (s->used[i])
		i = (i + 1) & mask;
	s->used[i] = 1;
	s->cookie[i] = cookie;
	s->tag[i] = tag;
	s->n++;
}

static int grow(struct dc_set *s)
{
	struct dc_set old = *s;
	if (alloc_slots(s, old.cap ? old.cap * 2 : 16) != 0) {
		*s = old;
		return -1;
	}
	s->n = 0;
	for (size_t i = 0; i < old.cap; i++)
		if (old.used[i])
			put(s, old.cookie[i], old.tag[i]);
	free(old.cookie);
	free(old.tag);
	free(old.used);
	return 0;
}

int dc_set_add(struct dc_set *s, uint64_t cookie, uint32_t tag, uint32_t *other)
{
	if ((s->n + 1) * 2 > s->cap && grow(s) != 0)
		return -1;
	size_t mask = s->cap - 1, i = (size_t)mix(cookie) & mask;
	bool shared = false;
	uint32_t first = 0;
	/* Every pair with this cookie lies on this probe run. */
	for (; s->used[i]; i = (i + 1) & mask) {
		if (s->cookie[i] != cookie)
			continue;
		if (s->tag[i] == tag)
			return DC_REPEAT;
		if (!shared)
			first = s->tag[i];
		shared = true;
	}
	s->used[i] = 1;
	s->cookie[i] = cookie;
	s->tag[i] = tag;
	s->n++;
	if (shared && other)
		*other = first;
	return shared ? DC_SHARED : DC_NEW;
}

void dc_set_clear(struct dc_set *s)
{
	if (s->used)
		memset(s->used, 0, s->cap);
	s->n = 0;
}

void dc_set_free(struct dc_set *s)
{
	free(s->cookie);
	free(s->tag);
	free(s->used);
	memset(s, 0, sizeof(*s));
}

void dc_track_start(struct dc_track *t, struct dc_set *set)
{
	t->set = set;
	t->dir = 0;
	t->in_set = false;
	t->runs = 0;
}

/* The index of cookie c in the strictly monotonic run cookies[from..to)
 * (dir +1 up, -1 down, 0 one entry), or SIZE_MAX. */
static size_t run_find(const uint64_t *cookies, size_t from, size_t to, int dir, uint64_t c)
{
	size_t lo = from, hi = to;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cookies[mid] == c)
			return mid;
		if (dir >= 0 ? cookies[mid] < c : cookies[mid] > c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return SIZE_MAX;
}

int dc_track_add(struct dc_track *t, const uint64_t *cookies, const uint32_t *tags, size_t i,
		 uint32_t *other)
{
	if (t->in_set)
		return dc_set_add(t->set, cookies[i], tags[i], other);
	if (i == 0) {
		t->runs = 1;
		t->start[0] = 0;
		t->run_dir[0] = t->dir = 0;
		return DC_NEW;
	}
	uint64_t prev = cookies[i - 1], cur = cookies[i];
	int d = cur > prev ? 1 : cur < prev ? -1 : 0;
	bool extend = d != 0 && (t->dir == 0 || t->dir == d);
	if (!extend && t->runs == DC_TRACK_RUNS) {
		dc_set_clear(t->set);
		for (size_t k = 0; k < i; k++)
			if (dc_set_add(t->set, cookies[k], tags[k], NULL) < 0)
				return -1;
		t->in_set = true;
		return dc_set_add(t->set, cookies[i], tags[i], other);
	}
	/* The runs before, oldest first (the current one too when this entry
	 * does not continue it): each holds cur once at most. */
	size_t searched = extend ? t->runs - 1 : t->runs;
	bool shared = false;
	uint32_t first = 0;
	for (size_t r = 0; r < searched; r++) {
		size_t to = r + 1 < t->runs ? t->start[r + 1] : i;
		size_t j = run_find(cookies, t->start[r], to, t->run_dir[r], cur);
		if (j == SIZE_MAX)
			continue;
		if (tags[j] == tags[i])
			return DC_REPEAT;
		if (!shared)
			first = tags[j];
		shared = true;
	}
	if (extend) {
		t->dir = t->run_dir[t->runs - 1] = d;
	} else {
		t->start[t->runs] = i;
		t->run_dir[t->runs++] = t->dir = 0;
	}
	if (shared && other)
		*other = first;
	return shared ? DC_SHARED : DC_NEW;
}

/* ---- order ---- */

enum dc_order dc_classify_order(const uint32_t *nums, const uint64_t *cookies, size_t n)
{
	bool up = true, down = true, cookies_up = true;
	if (n < 2)
		return DC_ORDER_NONE;
	for (size_t i = 1; i < n; i++) {
		up = up && nums[i] > nums[i - 1];
		down = down && nums[i] < nums[i - 1];
		cookies_up = cookies_up && cookies[i] >= cookies[i - 1];
	}
	return up ? DC_ORDER_CREATION : down ? DC_ORDER_REVERSE
	       : cookies_up ? DC_ORDER_HASH : DC_ORDER_OTHER;
}

const char *dc_order_name(enum dc_order o)
{
	switch (o) {
	case DC_ORDER_CREATION: return "creation";
	case DC_ORDER_REVERSE: return "reverse_creation";
	case DC_ORDER_HASH: return "hash";
	case DC_ORDER_OTHER: return "other";
	case DC_ORDER_NONE: break;
	}
	return "none";
}

/* ---- counting ---- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

size_t dc_count_duplicates(uint64_t *v, size_t n)
{
	size_t dups = 0;
	qsort(v, n, sizeof(*v), cmp_u64);
	for (size_t i = 1; i < n; i++)
		dups += v[i] == v[i - 1];
	return dups;
}

size_t dc_sample_count(size_t n, size_t max)
{
	return n < max ? n : max;
}

size_t dc_sample_at(size_t n, size_t max, size_t k)
{
	size_t m = dc_sample_count(n, max);
	if (m <= 1)
		return 0;
	/* k * (n-1) / (m-1) without overflow for n, m < 2^32. */
	return (size_t)((unsigned long long)k * (n - 1) / (m - 1));
}

size_t dc_spread_stride(size_t total, size_t max)
{
	size_t k = total >= 80 ? 20 : 4;
	if (max && total / k > max)
		k = (total + max - 1) / max; /* ceil: at most max of them */
	return k;
}

bool dc_spread_pick_max(size_t pos, size_t total, size_t max)
{
	if (total < 2 || pos >= total)
		return false;
	if (total < 4)
		return pos == 0;
	size_t edge = total >= 40 ? 3 : 1, k = dc_spread_stride(total, max);
	return pos < edge || pos >= total - edge || pos % k == k / 2;
}

bool dc_spread_pick(size_t pos, size_t total)
{
	return dc_spread_pick_max(pos, total, 0);
}
