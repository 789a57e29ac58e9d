// SPDX-License-Identifier: GPL-2.0-or-later
/* abiwatch report: snapshots side by side, as one static HTML page. */
#include "commands.h"
#include "vm_commands.h"
#include "output/format.h"
#include "model/snapshot.h"
#include "lib/outfile.h"
#include "lib/util.h"
#include "lib/proc.h"
#include "lib/procfs.h"

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char report_usage[] =
	"Usage: abiwatch report [OPTION...] -o FILE SNAPSHOT...\n"
	"Write the snapshots side by side as one static HTML page.  First the\n"
	"series: per neighbouring pair its behaviour changes and their objects,\n"
	"each linked to its changes, then a row per item that changed anywhere,\n"
	"a cell per kernel, where each new value first appears marked, a value\n"
	"that comes back within a stable line marked flapping (not counted).\n"
	"Then a table of the kernel changes by family and neighbouring pair, each\n"
	"count linked to its changes; then each pair as 'abiwatch diff' shows it: its summary\n"
	"line, the changes one per object (named consequences and vanished\n"
	"interfaces, other behaviour changes, interfaces that appeared), what the\n"
	"environment explains folded by cause.  Last a column per kernel and a\n"
	"row per check and observation that differs between neighbours (every\n"
	"row with --all, and for a single snapshot, which has no neighbour),\n"
	"grouped by family and probe, each cell marked when it differs from the\n"
	"column to its left, each row linked to its catalogue entry, which the\n"
	"page carries at its end (each entry its rows use, once: what it means\n"
	"and why programs care, in its first sentences, and its sources), so\n"
	"that the links hold wherever the page is copied.  The page needs\n"
	"nothing else: no script, no network.  A directory stands for the\n"
	"*.snapshot files in it (the output of 'abiwatch matrix').\n"
	"\n"
	"Options:\n"
	"  -o, --output FILE      the page to write ('-': standard output)\n"
	"      --catalogue FILE   the catalogue (docs/catalogue.md) whose entries\n"
	"                         the page carries (default: the one beside\n"
	"                         abiwatch; none there: the page says so, and rows\n"
	"                         link nowhere)\n"
	"      --catalogue-url URL  where the whole catalogue is: each entry on the\n"
	"                         page links to its heading there (default: none)\n"
	"      --title TEXT       the page's title\n"
	"      --all              every row of every snapshot, not only the rows\n"
	"                         where a neighbour differs (the default)\n"
	"      --changed-only     only the rows where a neighbour differs (the default\n"
	"                         for two snapshots or more)\n"
	"      --keep-order       columns in the order given (default: by kernel\n"
	"                         release, in version order)\n"
	"  -h, --help           show this help and exit\n"
	"\n"
	"Exit status: 0 written, 2 bad usage or a snapshot that cannot be read.\n";

enum { OPT_CATALOGUE = 0x100, OPT_CATALOGUE_URL, OPT_TITLE, OPT_CHANGED_ONLY, OPT_KEEP_ORDER, OPT_ALL };

static const struct option report_options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "catalogue", required_argument, NULL, OPT_CATALOGUE },
	{ "catalogue-url", required_argument, NULL, OPT_CATALOGUE_URL },
	{ "title", required_argument, NULL, OPT_TITLE },
	{ "changed-only", no_argument, NULL, OPT_CHANGED_ONLY },
	{ "all", no_argument, NULL, OPT_ALL },
	{ "keep-order", no_argument, NULL, OPT_KEEP_ORDER },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct report_cli {
	const char *output, *catalogue, *catalogue_url, *title;
	int all; /* 1 --all, 0 --changed-only, -1 neither: by the number of snapshots */
	bool keep_order;
	char **files;
	size_t nfiles;
};

static int parse(int argc, char **argv, struct report_cli *c)
{
	int opt;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:h", report_options, NULL)) != -1) {
		switch (opt) {
		case 'o': c->output = optarg; break;
		case OPT_CATALOGUE: c->catalogue = optarg; break;
		case OPT_CATALOGUE_URL: c->catalogue_url = optarg; break;
		case OPT_TITLE: c->title = optarg; break;
		case OPT_CHANGED_ONLY: c->all = 0; break;
		case OPT_ALL: c->all = 1; break;
		case OPT_KEEP_ORDER: c->keep_order = true; break;
		case 'h':
			fputs(report_usage, stdout);
			return -1;
		case ':':
			return usage_error("report", "option '%s' needs a value", argv[optind - 1]);
		default:
			return usage_error("report", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (!c->output)
		return usage_error("report", "-o FILE is needed");
	if (optind >= argc)
		return usage_error("report", "no snapshot given");
	return snapshot_args("report", argv + optind, (size_t)(argc - optind), &c->files, &c->nfiles);
}

/* docs/catalogue.md beside the binary: in the source tree (./abiwatch,
 * build/asan/abiwatch) or installed (../share/abiwatch/, not the doc
 * directory, which a system may leave out). */
static char *find_catalogue(void)
{
	char *dir = aw_exe_dir(), *found = NULL;
	static const char *const rel[] = { "docs/catalogue.md", "../../docs/catalogue.md",
					   "../share/abiwatch/catalogue.md" };
	for (size_t i = 0; dir && !found && i < sizeof(rel) / sizeof(rel[0]); i++) {
		char *cand = xasprintf("%s/%s", dir, rel[i]);
		char *real = realpath(cand, NULL);
		free(cand);
		if (real && access(real, R_OK) == 0)
			found = real;
		else
			free(real);
	}
	free(dir);
	return found;
}

static const char *release_of(const struct aw_report_column *c)
{
	const char *r = aw_snapshot_get(&c->snap, "env.kernel.release");
	return r ? r : "";
}

static int by_release(const void *a, const void *b)
{
	const struct aw_report_column *x = a, *y = b;
	int c = strverscmp(release_of(x), release_of(y));
	if (c)
		return c;
	/* A VM before this machine, then as given (stable by file name). */
	bool vx = aw_snapshot_get(&x->snap, "env.vm.accel"), vy = aw_snapshot_get(&y->snap, "env.vm.accel");
	if (vx != vy)
		return vx ? -1 : 1;
	return strcmp(x->file, y->file);
}

static void free_report(void *opts)
{
	struct report_cli *c = opts;
	for (size_t i = 0; i < c->nfiles; i++)
		free(c->files[i]);
	free(c->files);
	free(c);
}

static int parse_report(int argc, char **argv, void **opts)
{
	struct report_cli *c = xcalloc(1, sizeof(*c));
	c->all = -1;
	return command_parsed(parse(argc, argv, c), c, free_report, opts);
}

static int report(const struct report_cli *c)
{
	struct aw_report_column *cols = NULL;
	size_t ncols = 0;
	char *catalogue = NULL, *cat_text = NULL, *missing = NULL, *err = NULL;
	int rc;

	cols = xcalloc(c->nfiles, sizeof(*cols));
	for (size_t i = 0; i < c->nfiles; i++) {
		if (aw_snapshot_load(c->files[i], &cols[i].snap, &err) != 0) {
			rc = usage_error("report", "%s", err);
			goto out;
		}
		cols[i].file = c->files[i];
		ncols++;
	}
	if (!c->keep_order)
		qsort(cols, ncols, sizeof(*cols), by_release);

	catalogue = c->catalogue ? xstrdup(c->catalogue) : find_catalogue();
	size_t len = 0;
	if (catalogue && aw_file_slurp(catalogue, &cat_text, &len) != 0) {
		if (c->catalogue) {
			rc = usage_error("report", "%s: %s", catalogue, strerror(errno));
			goto out;
		}
		missing = xasprintf("%s: %s", catalogue, strerror(errno));
		cat_text = NULL;
	}
	if (!cat_text && !missing) {
		missing = xstrdup("no catalogue file beside abiwatch (docs/catalogue.md, "
				  "../share/abiwatch/catalogue.md); --catalogue FILE names one");
	}
	/* Said where scripts see it too, not only on the page (which also
	 * says it when the file has no entry). */
	if (missing)
		fprintf(stderr, "abiwatch report: catalogue entries not embedded: %s\n", missing);

	struct aw_report_opts o = {
		.cols = cols, .ncols = ncols, .catalogue_text = cat_text, .catalogue_len = len,
		.catalogue_missing = missing, .catalogue_url = c->catalogue_url,
		.title = c->title, .changed_only = c->all < 0 ? ncols > 1 : !c->all,
	};
	struct aw_report_stats st;
	bool to_stdout = strcmp(c->output, "-") == 0;
	struct aw_outfile out = { .f = stdout };
	if (!to_stdout && aw_outfile_open(&out, c->output) != 0) {
		rc = usage_error("report", "cannot write '%s': %s", c->output, strerror(errno));
		goto out;
	}
	struct aw_several page = { .report = &o, .stats = &st };
	aw_format_find("html", AW_WRITES_SEVERAL, NULL)->several(out.f, &page);
	bool ok = to_stdout ? fflush(stdout) == 0 : aw_outfile_commit(&out) == 0;
	if (!ok) {
		rc = usage_error("report", "cannot write '%s': %s", c->output, strerror(errno));
	} else {
		rc = AW_EXIT_PASS;
		if (!to_stdout && isatty(STDERR_FILENO))
			fprintf(stderr, "abiwatch report: %s: %zu snapshots, %zu rows, %zu differ\n",
				c->output, ncols, st.rows, st.changed_rows);
	}
out:
	for (size_t i = 0; i < ncols; i++)
		aw_snapshot_free(&cols[i].snap);
	free(cols);
	free(catalogue);
	free(cat_text);
	free(missing);
	free(err);
	return rc;
}

static int run(void *opts)
{
	int rc = report(opts);
	free_report(opts);
	return rc;
}

const struct command report_command = {
	"report",
	"  report SNAPSHOT... -o FILE\n"
	"                  snapshots side by side as one static HTML page\n",
	parse_report, run,
};
