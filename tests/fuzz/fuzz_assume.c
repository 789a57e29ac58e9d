// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: the assumptions parser never crashes, every error
 * names the input with a line (and a column), and whatever it accepts has
 * a canonical form that parses back to the same canonical form and gives
 * the same verdict against a fixed snapshot. */
#include "model/assume.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Keys the corpus uses, so that evaluation reaches every path. */
static const char snapshot_text[] =
	"abiwatch-snapshot 1.0\n"
	"check.a.b.fail = fail: why\n"
	"check.a.b.pass = pass\n"
	"check.a.b.skip = skip: needs CAP_X\n"
	"check.a.b.slow = timeout: slow\n"
	"obs.a.b.c = 10\n"
	"obs.a.b.hex = 0x7fffffffffffffff\n"
	"obs.a.b.none = none\n"
	"obs.a.b.word = maxima\n"
	"obs.dirent.ext4.compat32.cookie_bits = 31\n"
	"obs.dirent.ext4.cookie_bits = 63\n"
	"obs.dirent.xfs.cookie_bits = 11\n"
	"obs.mqueue.noattr.source = default_knobs\n"
	"probe.a.b = ran\n"
	"probe.q.r = skip: needs CAP_Q\n"
	"unobserved.dirent.btrfs.cookie_bits = skip: no mkfs.btrfs\n"
	"unobserved.mqueue.privileged.queues_ceiling = skip: needs CAP_SYS_RESOURCE\n";

static struct aw_snapshot snap;

static void load_snapshot(void)
{
	char *err = NULL;
	if (snap.n == 0 &&
	    aw_snapshot_parse(snapshot_text, sizeof(snapshot_text) - 1, "s", &snap, &err) != 0)
		abort();
}

/* "fuzz:LINE:" at least: the reader always says where. */
static void check_error(const char *err)
{
	if (!err || strncmp(err, "fuzz:", 5) != 0 || !isdigit((unsigned char)err[5]))
		abort();
}

static enum aw_verdict verdict(const struct aw_rule *r)
{
	struct aw_rule_result res;
	aw_rule_eval(r, &snap, &res);
	enum aw_verdict v = res.verdict;
	if (res.ndetails == 0)
		abort(); /* every verdict says what it rests on */
	aw_rule_result_free(&res);
	return v;
}

static void check_canonical(const struct aw_rule *r)
{
	char *canon = aw_rule_format(r), *err = NULL;
	struct aw_assumptions again;
	if (aw_assume_parse(canon, strlen(canon), "canon", &again, &err) != 0 || again.n != 1)
		abort();
	char *twice = aw_rule_format(&again.rules[0]);
	if (strcmp(canon, twice) != 0 || verdict(r) != verdict(&again.rules[0]))
		abort();
	free(twice);
	free(canon);
	aw_assume_free(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct aw_assumptions a;
	char *err = NULL;

	load_snapshot();
	if (aw_assume_parse((const char *)data, size, "fuzz", &a, &err) != 0) {
		check_error(err);
		free(err);
		return 0;
	}
	for (size_t i = 0; i < a.n; i++)
		check_canonical(&a.rules[i]);
	aw_assume_free(&a);
	return 0;
}
