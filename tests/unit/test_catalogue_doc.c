// SPDX-License-Identifier: GPL-2.0-or-later
/* docs/catalogue.md as the report reads it: headings of families, probes
 * and items, grouped names expanded, patterns matched with fnmatch (the
 * most specific first), what each entry means and its sources; and the
 * real catalogue: every item of this binary's finds its entry. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "output/catalogue_doc.h"
#include "core/registry.h"
#include "lib/procfs.h"

#include <stdlib.h>
#include <string.h>

static void test_anchor(void **state)
{
	(void)state;
	static const char *const cases[][2] = {
		{ "mqueue.noattr.maxmsg", "mqueuenoattrmaxmsg" },
		{ "mqueue.sysctl.msg_max.min, .max, .initial", "mqueuesysctlmsg_maxmin-max-initial" },
		{ "mqueue: POSIX message queue limits", "mqueue-posix-message-queue-limits" },
		{ "dirent.tmpfs: cookies (getdents64)", "direnttmpfs-cookies-getdents64" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *a = aw_heading_anchor(cases[i][0]);
		assert_string_equal(a, cases[i][1]);
		free(a);
	}
}

static const char doc_text[] =
	"# The catalogue\n\nIntro.\n\n"
	"## fam: a family\n\nWhat it is,\nover two lines.\n\nA second paragraph.\n\n"
	"### fam.p, .q: two probes\n\n"
	"- `fam.p`: a list first\n\nThen prose.\n\n"
	"#### fam.p.grp.min, .max, .sub.x\n"
	"- Kind: observations. Seen: 1.\n"
	"- Means: the `min` and\n  the max.\n"
	"- Why programs care: they size\n  buffers.\n"
	"- Sources: mq_open(3);\n  ipc/mqueue.c.\n\n"
	"#### fam.*.value\n- Kind: x.\n- Call: `f()` with\n  flags.\n\n"
	"#### fam.*.deep.value\n- Means: deeper.\n\n"
	"#### fam.q.v_[rw]\n- Means: r or w.\n\n"
	"```\n## not.a.heading\n```\n"
	"### Coverage: no name\n\n"
	"### fam.p: the same name again\n";

static void test_parse(void **state)
{
	(void)state;
	struct aw_catdoc d;
	aw_catdoc_parse(doc_text, sizeof(doc_text) - 1, &d);
	/* fam, fam.p/.q, grp, 3 items, the second fam.p; not Coverage, not the
	 * fenced line. */
	assert_int_equal(d.n, 7);
	const struct aw_catdoc_entry *e = aw_catdoc_find(&d, "fam", 2);
	assert_non_null(e);
	assert_string_equal(e->id, "fam");
	assert_string_equal(e->text, "What it is, over two lines.");
	assert_null(e->sources);
	assert_null(aw_catdoc_find(&d, "fam", 4));

	e = aw_catdoc_find(&d, "fam.q", 3);
	assert_non_null(e);
	assert_string_equal(e->heading, "fam.p, .q: two probes");
	assert_string_equal(e->text, "Then prose.");
	/* The first heading of a name wins; the second gets an id of its own. */
	assert_ptr_equal(aw_catdoc_find(&d, "fam.p", 3), e);
	assert_string_equal(d.entries[6].id, "fam.p~2");

	e = aw_catdoc_find(&d, "fam.p.grp.max", 4);
	assert_non_null(e);
	assert_ptr_equal(aw_catdoc_find(&d, "fam.p.grp.sub.x", 4), e);
	assert_string_equal(e->id, "fam.p.grp.min");
	assert_string_equal(e->text, "Means: the `min` and the max.\nWhy programs care: they size buffers.");
	assert_string_equal(e->sources, "mq_open(3); ipc/mqueue.c.");
	assert_null(aw_catdoc_find(&d, "fam.p.grp", 4));

	/* Patterns: the most literal one that matches. */
	e = aw_catdoc_find(&d, "fam.x.value", 4);
	assert_non_null(e);
	assert_string_equal(e->text, "Call: `f()` with flags.");
	e = aw_catdoc_find(&d, "fam.x.deep.value", 4);
	assert_non_null(e);
	assert_string_equal(e->text, "Means: deeper.");
	e = aw_catdoc_find(&d, "fam.q.v_w", 0);
	assert_non_null(e);
	assert_string_equal(e->id, "fam.q.v_-rw-");
	assert_null(aw_catdoc_find(&d, "fam.q.v_x", 0));
	assert_null(aw_catdoc_find(&d, "not.a.heading", 0));
	assert_null(aw_catdoc_find(&d, "Coverage", 0));
	aw_catdoc_free(&d);

	/* Nothing, NUL bytes, a heading at the very end: no entry lost. */
	aw_catdoc_parse("", 0, &d);
	assert_int_equal(d.n, 0);
	aw_catdoc_free(&d);
	aw_catdoc_parse("## a\0b: x\n#### a.b.c", 20, &d);
	assert_int_equal(d.n, 2);
	assert_string_equal(d.entries[0].id, "ab");
	assert_null(d.entries[1].text);
	aw_catdoc_free(&d);
}

/* A part's lead: whole sentences, else words, never half a character. */
static void test_lead(void **state)
{
	(void)state;
	bool cut;
	assert_int_equal(aw_catdoc_lead("short.", 10, &cut), 6);
	assert_false(cut);
	/* Sentences that fit; a clause's ';' is dropped. */
	assert_int_equal(aw_catdoc_lead("One two. Three four. Five six.", 24, &cut), 20);
	assert_true(cut);
	assert_int_equal(aw_catdoc_lead("One two three; four five six", 20, &cut), 13);
	/* Not inside `code`: the word before it. */
	assert_int_equal(aw_catdoc_lead("Aaaa bbbb `x. y. z. w` tail", 20, &cut), 9);
	/* A first sentence too long: its words. */
	assert_int_equal(aw_catdoc_lead("a bb ccc dddd eeeee. Next.", 12, &cut), 8);
	/* One long word: cut before a UTF-8 continuation byte. */
	assert_int_equal(aw_catdoc_lead("abc\xe2\x80\xa6" "def", 4, &cut), 3);
	assert_true(cut);
}

/* The real catalogue: every family, probe and item this binary declares
 * has its entry (the page links every row it can). */
static void test_real_catalogue(void **state)
{
	(void)state;
	char *text;
	size_t len;
	if (aw_file_slurp("docs/catalogue.md", &text, &len) != 0)
		skip();
	struct aw_catdoc d;
	aw_catdoc_parse(text, len, &d);
	const struct aw_catalogue_entry *cat;
	size_t n = aw_catalogue(&cat), missing = 0;
	for (size_t i = 0; i < n; i++) {
		int level = !cat[i].ref.probe ? 2 : !cat[i].item ? 3 : 4;
		/* The selftest fixtures are in no catalogue. */
		if (strncmp(cat[i].name, "selftest", 8) == 0 || strncmp(cat[i].name, "sized", 5) == 0)
			continue;
		if (!aw_catdoc_find(&d, cat[i].name, level)) {
			print_message("no entry: %s\n", cat[i].name);
			missing++;
		}
	}
	assert_int_equal(missing, 0);
	/* An item's entry: its meaning and its sources. */
	const struct aw_catdoc_entry *e = aw_catdoc_find(&d, "mqueue.noattr.maxmsg", 4);
	assert_non_null(e);
	assert_non_null(e->text);
	assert_non_null(strstr(e->text, "Means: "));
	assert_non_null(e->sources);
	aw_catdoc_free(&d);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_anchor),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_lead),
		cmocka_unit_test(test_real_catalogue),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
