// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: the reader of the mqueue 32-bit helper's output never
 * crashes, every record it accepts formats back to the line it came from,
 * and a whole output it accepts is rebuilt byte for byte from its records
 * (so nothing but the canonical form is ever accepted). */
#include "probes/mqueue/m32_parse.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct rebuild {
	char *buf;
	size_t len, cap;
	int records;
};

static int append(const struct mqm_record *rec, void *arg)
{
	struct rebuild *rb = arg;
	char line[MQM_LINE_MAX + 1];
	struct mqm_record back;
	const char *why;
	int n = mqm_format(rec, line, sizeof(line));

	if (n <= 0 || mqm_parse_line(line, (size_t)n - 1, &back, &why) != 0 ||
	    back.kind != rec->kind || strcmp(back.name, rec->name) != 0 ||
	    strcmp(back.text, rec->text) != 0 ||
	    (rec->kind == MQM_CHECK && back.status != rec->status))
		abort();
	if (rb->len + (size_t)n > rb->cap)
		abort(); /* more output than input: impossible for a strict reader */
	memcpy(rb->buf + rb->len, line, (size_t)n);
	rb->len += (size_t)n;
	rb->records++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char head[] = MQM_HEADER "\n";
	struct rebuild rb = { malloc(size + 1), 0, size, 0 };
	struct mqm_error err = { 0, NULL };

	if (!rb.buf)
		return 0;
	if (size >= sizeof(head) - 1) {
		memcpy(rb.buf, head, sizeof(head) - 1);
		rb.len = sizeof(head) - 1;
	}
	if (mqm_parse((const char *)data, size, append, &rb, &err) != 0) {
		if (!err.why)
			abort(); /* every refusal says why */
		free(rb.buf);
		return 0;
	}
	char end[32];
	int n = snprintf(end, sizeof(end), "end %d\n", rb.records);
	if (rb.len + (size_t)n != size || memcmp(rb.buf, data, rb.len) != 0 ||
	    memcmp(end, data + rb.len, (size_t)n) != 0)
		abort();
	free(rb.buf);
	return 0;
}
