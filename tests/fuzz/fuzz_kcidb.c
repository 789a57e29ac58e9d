// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: any snapshot the reader takes becomes a KCIDB document
 * that is JSON, whose every test path is one the schema's pattern admits
 * and whose every status is one of KCIDB's; with and without --build-id. */
#include "output/kcidb.h"

#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool path_ok(const char *p)
{
	if (!*p || *p == '.')
		return false;
	for (; *p; p++) {
		bool ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
			  *p == '_' || *p == '-' || (*p == '.' && p[1] && p[1] != '.');
		if (!ok)
			return false;
	}
	return true;
}

static void check_document(const char *text)
{
	static const char *const statuses[] = { "FAIL", "ERROR", "MISS", "PASS", "DONE", "SKIP" };
	json_object *doc = json_tokener_parse(text), *tests;
	if (!doc || !json_object_object_get_ex(doc, "tests", &tests))
		abort();
	for (size_t i = 0; i < json_object_array_length(tests); i++) {
		json_object *t = json_object_array_get_idx(tests, i), *path, *status;
		if (!json_object_object_get_ex(t, "path", &path) || !path_ok(json_object_get_string(path)) ||
		    !json_object_object_get_ex(t, "status", &status))
			abort();
		bool known = false;
		for (size_t s = 0; s < sizeof(statuses) / sizeof(statuses[0]); s++)
			known = known || strcmp(json_object_get_string(status), statuses[s]) == 0;
		if (!known)
			abort();
	}
	json_object_put(doc);
}

static void convert(const struct aw_snapshot *s, const struct aw_kcidb_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f || aw_kcidb_write(f, &s, 1, o) != 0 || fclose(f) != 0)
		abort();
	check_document(buf);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct aw_snapshot s;
	char *err = NULL;
	if (aw_snapshot_parse((const char *)data, size, "fuzz", &s, &err) != 0) {
		free(err);
		return 0;
	}
	convert(&s, &(struct aw_kcidb_opts){ 0 });
	convert(&s, &(struct aw_kcidb_opts){ .origin = "fuzz", .build_id = "fuzz:1" });
	aw_snapshot_free(&s);
	return 0;
}
