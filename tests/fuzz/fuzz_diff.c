// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: comparing two snapshots (the input split at its first
 * NUL byte, which no snapshot holds) never crashes; a snapshot compared
 * with itself has no difference; and comparing the other way round gives
 * the same changes with added/removed, regressed/recovered and
 * skipped/unskipped swapped, the same ones explained by the environment,
 * the same objects, what appeared one way vanished the other. */
#include "output/diff.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool load(const char *text, size_t len, struct aw_snapshot *s)
{
	char *err = NULL;
	if (aw_snapshot_parse(text, len, "fuzz", s, &err) == 0)
		return true;
	if (!err || strncmp(err, "fuzz:", 5) != 0)
		abort();
	free(err);
	return false;
}

static enum aw_diff_kind mirror(enum aw_diff_kind k)
{
	switch (k) {
	case AW_DIFF_ADDED: return AW_DIFF_REMOVED;
	case AW_DIFF_REMOVED: return AW_DIFF_ADDED;
	case AW_DIFF_REGRESSED: return AW_DIFF_RECOVERED;
	case AW_DIFF_RECOVERED: return AW_DIFF_REGRESSED;
	case AW_DIFF_SKIPPED: return AW_DIFF_UNSKIPPED;
	case AW_DIFF_UNSKIPPED: return AW_DIFF_SKIPPED;
	default: return k;
	}
}

static void write_all(const struct aw_diff *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	aw_diff_text(f, d, "old", "new", false);
	aw_diff_text(f, d, "old", "new", true);
	aw_diff_ktap(f, d, "old", "new", false);
	aw_diff_json(f, d, "old", "new", false);
	fclose(f);
	free(buf);
}

static void compare(const struct aw_snapshot *a, const struct aw_snapshot *b)
{
	struct aw_diff ab, ba;
	aw_diff_compute(a, b, NULL, &ab);
	aw_diff_compute(b, a, NULL, &ba);
	if (ab.n != ba.n || ab.nenv != ba.nenv)
		abort();
	/* The environment explains a change whichever side is old. */
	for (size_t i = 0; i < ab.n; i++)
		if (strcmp(ab.changes[i].name, ba.changes[i].name) != 0 ||
		    mirror(ab.changes[i].kind) != ba.changes[i].kind ||
		    !ab.changes[i].cause != !ba.changes[i].cause ||
		    !ab.changes[i].cause != !ab.changes[i].cause_key)
			abort();
	size_t fa, fb;
	if (aw_diff_kernel_changes(&ab, &fa) != aw_diff_kernel_changes(&ba, &fb) ||
	    aw_diff_differs(&ab) != aw_diff_differs(&ba) || ab.nobjects != ba.nobjects)
		abort();
	/* The same objects either way, what appeared one way vanished the
	 * other, and every change without a cause in exactly one object. */
	size_t items = 0;
	for (size_t i = 0; i < ab.nobjects; i++) {
		const struct aw_diff_object *o = &ab.objects[i], *m = NULL;
		for (size_t j = 0; j < ba.nobjects && !m; j++)
			if (strcmp(ba.objects[j].name, o->name) == 0)
				m = &ba.objects[j];
		if (!m || m->n != o->n || !o->n ||
		    (o->shape == AW_SHAPE_APPEARED) != (m->shape == AW_SHAPE_VANISHED) ||
		    (o->shape == AW_SHAPE_CHANGED) != (m->shape == AW_SHAPE_CHANGED))
			abort();
		items += o->n;
	}
	if (items != aw_diff_kernel_items(&ab))
		abort();
	write_all(&ab);
	aw_diff_free(&ab);
	aw_diff_free(&ba);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	const char *nul = memchr(text, '\0', size);
	size_t la = nul ? (size_t)(nul - text) : size;
	struct aw_snapshot a, b;

	if (!load(text, la, &a))
		return 0;
	struct aw_diff self;
	aw_diff_compute(&a, &a, NULL, &self);
	if (self.n || self.nenv || aw_diff_differs(&self))
		abort();
	aw_diff_free(&self);
	if (nul && load(nul + 1, size - la - 1, &b)) {
		compare(&a, &b);
		aw_snapshot_free(&b);
	}
	aw_snapshot_free(&a);
	return 0;
}
