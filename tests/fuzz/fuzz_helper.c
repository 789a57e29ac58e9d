// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: the reader of a family's 32-bit helper output
 * (core/helper.h) never crashes, says where and why it refuses, and
 * whatever it accepts the protocol's writer (lib/wire.h) writes back
 * byte for byte, so that nothing but the canonical form is ever
 * accepted.  The probe's items cover both families' helpers. */
#include "core/helper.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct aw_item items[] = {
	AW_CHECK_ITEM("native", "not under the prefix: never the helper's"),
	AW_OBS_ITEM("compat32.abi", ""),
	AW_OBS_ITEM("compat32.sizeof_mq_attr", ""),
	AW_CHECK_ITEM("compat32.attr.getattr_shape", ""),
	AW_CHECK_ITEM("compat32.attr.foreign_shape", ""),
	AW_CHECK_ITEM("compat32.attr.created_shape", "the probe's own"),
	AW_CHECK_ITEM("compat32.limits.einval_above_msg_max", ""),
	AW_OBS_ITEM("compat32.limits.charge.1x128", ""),
	AW_OBS_ITEM("compat32.cookie_bits", ""),
	AW_OBS_ITEM("compat32.eof_cookie", ""),
	AW_OBS_ITEM("compat32.duplicates", ""),
	AW_OBS_ITEM("compat32.nonlfs_readdir", ""),
	AW_ITEMS_END,
};
static const struct aw_probe probe = { .name = "fuzz", .items = items };
static const char *const own[] = { "compat32.attr.created_shape", NULL };
static const struct aw_helper helper = { .name = "fuzz", .prefix = "compat32.", .own = own };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct aw_helper_output o;
	struct aw_helper_refusal r = { 0, NULL };

	if (aw_helper_read((const char *)data, size, &probe, &helper, &o, &r) != 0) {
		if (!r.why || r.line == 0)
			abort(); /* every refusal says where and why */
		return 0;
	}
	size_t len = 0;
	for (size_t i = 0; i < o.n; i++) {
		const struct aw_wire *w = &o.lines[i];
		char *line = aw_wire_line(w->kind, w->name, w->status, w->text);
		size_t n = strlen(line);
		if (len + n > size || memcmp(data + len, line, n) != 0)
			abort();
		len += n;
		free(line);
	}
	if (len != size)
		abort();
	aw_helper_output_free(&o);
	return 0;
}
