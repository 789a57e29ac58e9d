// SPDX-License-Identifier: GPL-2.0-or-later
/* abiwatch bisect KERNEL...: the kernels in version order, searched with
 * lib/bisect.h, each judged by bisect_judge.c. */
#include "bisect_judge.h"
#include "bisect_strategy.h"
#include "session.h"
#include "core/status.h"
#include "lib/bisect.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct kernel {
	char *spec;
	struct aw_kernel_spec k;
	char *label;    /* its files' name in the output directory */
	char *snapshot; /* OUT/LABEL.snapshot */
	struct aw_snapshot snap;
	struct aw_answer answer;
	enum judged how;
	bool judged;
};

struct search {
	struct kernel *kernels;
	size_t n;
	unsigned booted, kept, unanswered;
};

static int read_kernels(char **specs, size_t n, struct search *s)
{
	s->kernels = xcalloc(n, sizeof(*s->kernels));
	s->n = n;
	for (size_t i = 0; i < n; i++) {
		char *err = NULL;
		s->kernels[i].spec = specs[i];
		if (aw_kernel_spec_parse(specs[i], true, &s->kernels[i].k, &err) != 0) {
			int rc = usage_error("bisect", "%s", err);
			free(err);
			return rc;
		}
	}
	return 0;
}

/* Version order, kernels of one version in the order given. */
static void order_kernels(struct search *s)
{
	for (size_t i = 1; i < s->n; i++)
		for (size_t j = i; j > 0 && aw_kernel_spec_cmp(&s->kernels[j - 1].k,
							       &s->kernels[j].k) > 0; j--) {
			struct kernel t = s->kernels[j];
			s->kernels[j] = s->kernels[j - 1];
			s->kernels[j - 1] = t;
		}
}

/* The file's name without .deb, made unique: the same list names the same
 * snapshots when the bisect is run again. */
static void label_kernels(struct search *s, const char *out)
{
	for (size_t i = 0; i < s->n; i++) {
		struct kernel *k = &s->kernels[i];
		const char *base = strrchr(k->spec, '/') ? strrchr(k->spec, '/') + 1 : k->spec;
		size_t len = strcspn(base, ":");
		if (len > 4 && strncmp(base + len - 4, ".deb", 4) == 0)
			len -= 4;
		k->label = xasprintf("%.*s", (int)len, base);
		for (unsigned dup = 2;; dup++) {
			bool clash = false;
			for (size_t j = 0; j < i && !clash; j++)
				clash = strcmp(s->kernels[j].label, k->label) == 0;
			if (!clash)
				break;
			free(k->label);
			k->label = xasprintf("%.*s-%u", (int)len, base, dup);
		}
		k->snapshot = xasprintf("%s/%s.snapshot", out, k->label);
	}
}

static void free_search(struct search *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct kernel *k = &s->kernels[i];
		aw_kernel_spec_free(&k->k);
		free(k->label);
		free(k->snapshot);
		aw_snapshot_free(&k->snap);
		aw_answer_free(&k->answer);
	}
	free(s->kernels);
}

static enum aw_bisect_mark judge_kernel(const struct bisect *b, struct search *s, size_t i)
{
	struct kernel *k = &s->kernels[i];
	char *label = xasprintf("[%zu/%zu] %s", i + 1, s->n, k->label);
	k->how = bisect_judge(b, &k->k, label, k->snapshot, &k->snap, &k->answer);
	k->judged = true;
	free(label);
	if (k->how == JUDGED_BOOTED)
		s->booted++;
	else
		s->kept++;
	if (!k->answer.known) {
		s->unanswered++;
		return AW_BISECT_SKIP;
	}
	if (i == 0)
		return AW_BISECT_GOOD;
	return aw_answer_same(&k->answer, &s->kernels[0].answer) ? AW_BISECT_GOOD : AW_BISECT_BAD;
}

static char *kernel_name(const struct search *s, size_t i)
{
	const struct kernel *k = &s->kernels[i];
	if (k->k.version)
		return xasprintf("kernel %zu of %zu, %s (%s, package %s)", i + 1, s->n, k->label,
				 k->k.release, k->k.version);
	return xasprintf("kernel %zu of %zu, %s (%s)", i + 1, s->n, k->label, k->k.release);
}

static void print_answer(const char *side, const struct search *s, size_t i)
{
	char *name = kernel_name(s, i);
	printf("  %-7s%s: %s\n", side, name, s->kernels[i].answer.value);
	if (s->kernels[i].answer.detail)
		printf("%s\n", s->kernels[i].answer.detail);
	free(name);
}

static void print_steps(const struct search *s, double seconds)
{
	unsigned judged = s->booted + s->kept;
	printf("%u of %zu kernels judged: %u booted, %u from kept snapshots, %u without an "
	       "answer; %.1f s\n", judged, s->n, s->booted, s->kept, s->unanswered, seconds);
}

static int report_search(const struct bisect *b, const struct search *s,
			 const struct aw_bisect_state *st, double seconds)
{
	char *what = aw_question_describe(&b->q);
	int rc = AW_EXIT_FAIL;
	switch (st->end) {
	case AW_BISECT_FOUND: {
		char *name = kernel_name(s, st->first_bad);
		printf("%s changed first in %s\n", what, name);
		free(name);
		print_answer("before", s, st->last_good);
		print_answer("after", s, st->first_bad);
		rc = AW_EXIT_PASS;
		break;
	}
	case AW_BISECT_AMBIGUOUS:
		printf("%s changed first in one of kernels %zu to %zu: those before %zu gave no "
		       "answer\n", what, st->from + 1, st->first_bad + 1, st->first_bad + 1);
		print_answer("before", s, st->last_good);
		print_answer("after", s, st->first_bad);
		break;
	case AW_BISECT_NO_CHANGE:
		printf("no change: %s is the same on the first and the last kernel, and on every "
		       "kernel judged between\n", what);
		print_answer("first", s, 0);
		print_answer("last", s, s->n - 1);
		break;
	default:
		printf("undecided: kernels %zu to %zu gave no answer\n", st->from + 1, s->n);
		print_answer("last", s, st->last_good);
		break;
	}
	print_steps(s, seconds);
	if (st->end == AW_BISECT_FOUND || st->end == AW_BISECT_AMBIGUOUS)
		bisect_print_diff(&s->kernels[st->last_good].snap, s->kernels[st->last_good].snapshot,
				  &s->kernels[st->first_bad].snap, s->kernels[st->first_bad].snapshot);
	free(what);
	return rc;
}

static int search_kernels(struct bisect *b, char **specs, size_t n)
{
	struct search s = { 0 };
	double start = aw_now();
	int rc = read_kernels(specs, n, &s);
	if (rc == 0)
		rc = prepare_output_dir("bisect", b->out);
	if (rc != 0) {
		free_search(&s);
		return rc;
	}
	order_kernels(&s);
	label_kernels(&s, b->out);
	for (size_t i = 0; b->verbose && i < s.n; i++)
		aw_say(&b->say, "kernel %zu: %s", i + 1, s.kernels[i].spec);

	struct aw_bisect search;
	aw_bisect_init(&search, s.n);
	struct aw_bisect_state st;
	if (judge_kernel(b, &s, 0) != AW_BISECT_GOOD) {
		char *what = aw_question_describe(&b->q);
		printf("the first kernel, %s, cannot answer %s: %s\n", s.kernels[0].label, what,
		       s.kernels[0].answer.value);
		free(what);
		rc = AW_EXIT_FAIL;
	} else {
		aw_bisect_mark(&search, 0, AW_BISECT_GOOD);
		while ((st = aw_bisect_state(&search)).end == AW_BISECT_GOING)
			aw_bisect_mark(&search, st.next, judge_kernel(b, &s, st.next));
		rc = report_search(b, &s, &st, aw_now() - start);
	}
	aw_bisect_free(&search);
	free_search(&s);
	return rc;
}

static bool chosen(const struct bisect *b)
{
	return !b->git;
}

const struct bisect_strategy bisect_list = { chosen, search_kernels };
