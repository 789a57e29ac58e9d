/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The line format in which abiwatch-mqueue-m32, the family's 32-bit
 * helper, hands its results to the compat32 probe through a pipe.  The
 * helper writes lines with mqm_format(); the probe reads them with the
 * strict parser of ../m32_parse.c.  This header is all they share, so
 * that both ends agree byte for byte:
 *
 *   abiwatch-mqueue-m32 1             the first line: format version 1
 *   check NAME pass                   a check passed
 *   check NAME fail|skip TEXT         a check failed or was skipped, and why
 *   obs NAME VALUE                    an observation
 *   unobs NAME TEXT                   an observation that could not be made
 *   end N                             the last line: N records came before
 *
 * NAME is 1..63 of [a-z0-9_.], neither starting nor ending with '.',
 * without "..".  TEXT and VALUE are 1..255 printable ASCII characters
 * (0x20..0x7e).  Every line ends with '\n'; nothing follows "end N", and
 * N is written without leading zeros.  A line has at most
 * MQM_LINE_MAX bytes, the newline included.
 */
#ifndef ABIWATCH_MQ_M32_PROTO_H
#define ABIWATCH_MQ_M32_PROTO_H

#include <stddef.h>
#include <stdio.h>

#define MQM_HEADER   "abiwatch-mqueue-m32 1"
#define MQM_NAME_MAX 63
#define MQM_TEXT_MAX 255
#define MQM_LINE_MAX (6 + MQM_NAME_MAX + 6 + MQM_TEXT_MAX + 1)
#define MQM_RECORDS_MAX 512

enum mqm_kind { MQM_CHECK, MQM_OBS, MQM_UNOBS };
enum mqm_status { MQM_PASS, MQM_FAIL, MQM_SKIP };

struct mqm_record {
	enum mqm_kind kind;
	enum mqm_status status; /* checks only */
	char name[MQM_NAME_MAX + 1];
	char text[MQM_TEXT_MAX + 1]; /* empty for a passed check */
};

static inline const char *mqm_status_word(enum mqm_status s)
{
	return s == MQM_PASS ? "pass" : s == MQM_FAIL ? "fail" : "skip";
}

/* The record as one line, '\n' included, into buf: its length, or -1 when
 * it does not fit.  The record must be valid (see above). */
static inline int mqm_format(const struct mqm_record *r, char *buf, size_t len)
{
	int n;

	if (r->kind == MQM_CHECK && r->status == MQM_PASS)
		n = snprintf(buf, len, "check %s pass\n", r->name);
	else if (r->kind == MQM_CHECK)
		n = snprintf(buf, len, "check %s %s %s\n", r->name, mqm_status_word(r->status), r->text);
	else
		n = snprintf(buf, len, "%s %s %s\n", r->kind == MQM_OBS ? "obs" : "unobs", r->name,
			     r->text);
	return n < 0 || (size_t)n >= len ? -1 : n;
}

/* Make text valid for a record: non-printable bytes become '?', at most
 * MQM_TEXT_MAX are kept, and an empty text becomes "-". */
static inline void mqm_sanitize(char *text)
{
	size_t i;

	for (i = 0; text[i] && i < MQM_TEXT_MAX; i++)
		if ((unsigned char)text[i] < 0x20 || (unsigned char)text[i] > 0x7e)
			text[i] = '?';
	text[i] = '\0';
	if (i == 0) {
		text[0] = '-';
		text[1] = '\0';
	}
}

#endif
