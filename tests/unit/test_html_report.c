// SPDX-License-Identifier: GPL-2.0-or-later
/* The report page: rows linked to the catalogue entries the page carries
 * (grouped headings too), each entry once, none when there is no
 * catalogue (and the page says so), cells marked when they differ from
 * their left neighbour, everything escaped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "output/html_report.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

static void parse(const char *text, struct aw_snapshot *s)
{
	char *err = NULL;
	if (aw_snapshot_parse(text, strlen(text), "t", s, &err) != 0)
		fail_msg("%s", err);
}

/* Not inlined: GCC would take the page for the local buf it was made in. */
__attribute__((noinline)) static char *render(struct aw_report_column *cols, size_t n, const char *catalogue,
		    const char *url, struct aw_report_stats *st)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct aw_report_opts o = { .cols = cols, .ncols = n, .catalogue_text = catalogue,
				    .catalogue_len = catalogue ? strlen(catalogue) : 0,
				    .catalogue_url = url, .title = "t<&>" };
	aw_html_report(f, &o, st);
	fclose(f);
	return buf;
}

/* The <tr> of a row, from its id to the end of the line. */
static char *row(const char *html, const char *id)
{
	char *needle = xasprintf("id=\"%s\">", id);
	const char *p = strstr(html, needle);
	free(needle);
	if (!p)
		return NULL;
	const char *start = p;
	while (start > html && strncmp(start, "<tr", 3) != 0)
		start--;
	return strndup(start, strcspn(start, "\n"));
}

static void test_report(void **state)
{
	(void)state;
	struct aw_report_column cols[3] = {
		{ .file = "dir/a.snapshot" }, { .file = "b.snapshot" }, { .file = "c.snapshot" },
	};
	parse("abiwatch-snapshot 1.0\n"
	      "check.fam.p.ok = pass\n"
	      "env.kernel.release = 6.1.0\n"
	      "env.vm.accel = tcg\n"
	      "obs.fam.p.grp.min = 1\n"
	      "obs.fam.p.value = <old>\n"
	      "probe.fam.p = ran\n", &cols[0].snap);
	parse("abiwatch-snapshot 1.0\n"
	      "check.fam.p.ok = fail: broke & \"worse\"\n"
	      "env.kernel.release = 6.12.0\n"
	      "obs.fam.p.grp.min = 1\n"
	      "obs.fam.p.value = new\n"
	      "probe.fam.p = ran\n", &cols[1].snap);
	parse("abiwatch-snapshot 1.0\n"
	      "check.fam.p.ok = fail: broke & \"worse\"\n"
	      "env.kernel.release = 6.18.0\n"
	      "probe.fam.p = ran\n"
	      "unobserved.fam.p.value = skip: needs X\n", &cols[2].snap);
	const char *catalogue = "## fam: a family\n\nA family of `x<y>`.\n\n### fam.p: a probe\n"
				"#### fam.p.ok\n- Kind: check.\n- Means: it is ok.\n- Sources: here.\n"
				"#### fam.p.grp.min, .max\n- Means: grouped.\n#### fam.p.unused\n- Means: unseen.\n";
	struct aw_report_stats st;
	char *html = render(cols, 3, catalogue, NULL, &st);

	assert_non_null(strstr(html, "<title>t&lt;&amp;&gt;</title>"));
	assert_null(strstr(html, "<script"));
	assert_int_equal(st.rows, 3);
	assert_int_equal(st.changed_rows, 3); /* grp.min too: absent at the end */

	char *r = row(html, "fam.p.ok");
	assert_non_null(r);
	assert_non_null(strstr(r, "<a href=\"#cat-fam.p.ok\">ok</a>"));
	assert_non_null(strstr(r, "<td class=\"pass\" data-col=\"0\""));
	assert_non_null(strstr(r, "<td class=\"fail changed\" data-col=\"1\""));
	assert_non_null(strstr(r, "<td class=\"fail\" data-col=\"2\""));
	assert_non_null(strstr(r, "broke &amp; &quot;worse&quot;"));
	free(r);

	r = row(html, "fam.p.value");
	assert_non_null(strstr(r, "class=\"item obs changed\""));
	assert_non_null(strstr(r, "<span class=\"v\">&lt;old&gt;</span>"));
	assert_non_null(strstr(r, "<td class=\"unobserved changed\" data-col=\"2\""));
	free(r);

	/* A grouped heading: fam.p.grp.min, .max */
	r = row(html, "fam.p.grp.min");
	assert_non_null(strstr(r, "<a href=\"#cat-fam.p.grp.min\">grp.min</a>"));
	assert_non_null(strstr(r, "<td class=\"absent changed\" data-col=\"2\""));
	free(r);

	/* Family and probe headings link to theirs. */
	assert_non_null(strstr(html, "<a href=\"#cat-fam\">fam</a>"));
	assert_non_null(strstr(html, "<a href=\"#cat-fam.p\">fam.p</a>"));
	/* The entries, each once, at the end: what they mean, their sources;
	 * none that no row uses; no outside link without a URL. */
	const char *cat = strstr(html, "<h2 id=\"catalogue\">");
	assert_non_null(cat);
	assert_true(cat > strstr(html, "<table class=\"results\""));
	assert_non_null(strstr(cat, "<dt id=\"cat-fam\">fam: a family</dt><dd><p>A family of "
				    "<code>x&lt;y&gt;</code>.</p></dd>"));
	assert_non_null(strstr(cat, "<dt id=\"cat-fam.p.ok\">fam.p.ok</dt><dd><p>Means: it is ok.</p>"
				    "<p class=\"sources\">Sources: here.</p></dd>"));
	assert_non_null(strstr(cat, "<dt id=\"cat-fam.p.grp.min\">"));
	assert_null(strstr(html, "cat-fam.p.unused"));
	const char *dt = strstr(cat, "id=\"cat-fam.p.ok\"");
	assert_null(strstr(dt + 1, "id=\"cat-fam.p.ok\""));
	assert_null(strstr(html, "catalogue-missing"));
	assert_null(strstr(cat, "<a href"));
	/* The column heads: release, where, file. */
	assert_non_null(strstr(html, "<span class=\"release\">6.1.0</span><span class=\"where\">VM (tcg)"));
	assert_non_null(strstr(html, "<span class=\"release\">6.18.0</span><span class=\"where\">this machine"));
	assert_non_null(strstr(html, "<span class=\"file\">a.snapshot</span>"));
	/* The changes between neighbours, one per object (the probe's items
	 * without a dot: the probe), linked to their rows. */
	assert_non_null(strstr(html, "<li class=\"kernel-change\" data-name=\"fam.p\" data-rank=\"named\" "
				   "data-family=\"fam\" id=\"pair-1-fam\"><span class=\"kind\">changed</span> "
				   "<a href=\"#fam.p.ok\">fam.p</a>: ok <code>pass</code> &#8594; "
				   "<code>fail: broke &amp; &quot;worse&quot;</code>; value <code>&lt;old&gt;</code> "
				   "&#8594; <code>new</code>"));
	/* The summary table: families x pairs, linked to the changes. */
	const char *table = strstr(html, "<table class=\"summary\" id=\"summary-table\">");
	assert_non_null(table);
	assert_true(table < strstr(html, "<li class=\"kernel-change\""));
	assert_non_null(strstr(table, "<tr><th>fam</th><td class=\"count\"><a href=\"#pair-1-fam\"><b>1</b></a></td>"));
	free(html);

	/* With the catalogue's address, each entry links to its heading there. */
	html = render(cols, 3, catalogue, "https://x.org/c.md", &st);
	assert_non_null(strstr(html, "<dt id=\"cat-fam.p.grp.min\"><a href=\"https://x.org/c.md#fampgrpmin-max\">"
				     "fam.p.grp.min, .max</a></dt>"));
	free(html);

	/* Without a catalogue: no link at all, and the page says why, once. */
	html = render(cols, 3, NULL, NULL, &st);
	r = row(html, "fam.p.grp.min");
	assert_null(strstr(r, "href"));
	free(r);
	const char *missing = strstr(html, "<p class=\"meta\" id=\"catalogue-missing\">Catalogue entries not "
					   "embedded: no catalogue given.</p>");
	assert_non_null(missing);
	assert_null(strstr(strstr(html, "catalogue-missing") + 1, "catalogue-missing"));
	assert_null(strstr(html, "id=\"catalogue\""));
	free(html);
	/* A file without one heading of the catalogue's: said too. */
	html = render(cols, 3, "# nothing\n\ntext\n", NULL, &st);
	assert_non_null(strstr(html, "not embedded: the catalogue given has no entry headings."));
	free(html);
	for (size_t i = 0; i < 3; i++)
		aw_snapshot_free(&cols[i].snap);
}

/* A pair whose new side runs no i386 programs: the kernel's change is
 * listed first, in the open; the skips the machine caused are folded
 * under their cause, after it; the summary line is diff's. */
static void test_pair_with_causes(void **state)
{
	(void)state;
	struct aw_report_column cols[2] = { { .file = "old.snapshot" }, { .file = "new.snapshot" } };
	parse("abiwatch-snapshot 1.1\n"
	      "check.fam.p.a32 = pass\ncheck.fam.p.b32 = pass\n"
	      "env.i386 = yes\nenv.kernel.release = 6.1.0\n"
	      "obs.fam.p.cookie = 0x2712\nobs.fam.p.w32 = 14\nprobe.fam.p = ran\n", &cols[0].snap);
	parse("abiwatch-snapshot 1.1\n"
	      "check.fam.p.a32 = skip: needs i386: this kernel runs no i386 programs\n"
	      "check.fam.p.b32 = skip: needs i386: this kernel runs no i386 programs\n"
	      "env.i386 = no: this kernel runs no i386 programs\nenv.kernel.release = 6.18.0\n"
	      "obs.fam.p.cookie = 0x7fffffff\nprobe.fam.p = ran\n"
	      "unobserved.fam.p.w32 = skip: needs i386: this kernel runs no i386 programs\n",
	      &cols[1].snap);
	struct aw_report_stats st;
	char *html = render(cols, 2, NULL, NULL, &st);
	const char *summary = strstr(html, "<p class=\"pair-summary\" id=\"pair-summary-1\">1 kernel change, "
					   "0 new failures (fam 1); 3 items not comparable: 3 need i386 programs "
					   "(not on the new side)</p>");
	const char *kernel = strstr(html, "<li class=\"kernel-change\" data-name=\"obs.fam.p.cookie\" ");
	const char *folded = strstr(html, "<details class=\"cause\" data-cause=\"i386\"><summary>3 need "
					  "i386 programs (not on the new side)</summary>");
	const char *results = strstr(html, "<table class=\"results\"");
	assert_non_null(summary);
	assert_non_null(kernel);
	assert_non_null(folded);
	assert_true(summary < kernel && kernel < folded && folded < results);
	/* Every skip the machine caused is under its cause, none among the kernel's. */
	assert_null(strstr(html, "<li class=\"kernel-change\" data-name=\"check.fam.p.a32\""));
	assert_non_null(strstr(folded, "<li class=\"env-change\" data-name=\"check.fam.p.a32\">"));
	assert_non_null(strstr(folded, "<li class=\"env-change\" data-name=\"obs.fam.p.w32\">"));
	/* Collapsed: no "open" on the cause's details. */
	assert_null(strstr(html, "<details class=\"cause\" open"));
	free(html);
	for (size_t i = 0; i < 2; i++)
		aw_snapshot_free(&cols[i].snap);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report),
		cmocka_unit_test(test_pair_with_causes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
