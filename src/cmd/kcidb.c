// SPDX-License-Identifier: GPL-2.0-or-later
/* abiwatch kcidb: snapshots as KCIDB I/O data, for kcidb-submit. */
#include "commands.h"
#include "model/snapshot.h"
#include "output/format.h"
#include "lib/outfile.h"
#include "lib/util.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char kcidb_usage[] =
	"Usage: abiwatch kcidb [OPTION...] SNAPSHOT...\n"
	"Write the snapshots as one KCIDB I/O document (kcidb-io schema v5.3),\n"
	"the JSON that KernelCI's database takes from kcidb-submit: a test per\n"
	"check (PASS, FAIL, SKIP or ERROR, the reason as log_excerpt), per\n"
	"observation with a unit (DONE, with number {value, unit}) and per probe,\n"
	"family and the root 'abiwatch' (the highest status below them; a probe's\n"
	"observations in its misc).  A directory stands for the *.snapshot files\n"
	"in it (the output of 'abiwatch matrix').\n"
	"\n"
	"Options:\n"
	"      --origin NAME    the submitting CI system, as KCIDB knows it\n"
	"                       ([a-z0-9_]+; default abiwatch)\n"
	"      --build-id ID    the build the tests belong to, as your CI submitted\n"
	"                       it (ORIGIN:...); one snapshot only.  Default: a\n"
	"                       checkout and a build made up of each snapshot's\n"
	"                       kernel release, version and architecture\n"
	"  -o, --output FILE    write the document there (default: stdout)\n"
	"  -h, --help           show this help and exit\n"
	"\n"
	"Exit status: 0 written, 2 bad usage or a snapshot that cannot be read.\n";

enum { OPT_ORIGIN = 0x100, OPT_BUILD_ID };

static const struct option kcidb_options[] = {
	{ "origin", required_argument, NULL, OPT_ORIGIN },
	{ "build-id", required_argument, NULL, OPT_BUILD_ID },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct kcidb_cli {
	struct aw_kcidb_opts opts;
	const char *output;
	char **files;
	size_t nfiles;
};

static int parse(int argc, char **argv, struct kcidb_cli *c)
{
	int opt;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:h", kcidb_options, NULL)) != -1) {
		switch (opt) {
		case OPT_ORIGIN: c->opts.origin = optarg; break;
		case OPT_BUILD_ID: c->opts.build_id = optarg; break;
		case 'o': c->output = optarg; break;
		case 'h':
			fputs(kcidb_usage, stdout);
			return -1;
		case ':':
			return usage_error("kcidb", "option '%s' needs a value", argv[optind - 1]);
		default:
			return usage_error("kcidb", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (c->opts.origin && !aw_kcidb_origin_ok(c->opts.origin))
		return usage_error("kcidb", "--origin takes lower-case letters, digits and '_', not '%s'",
				   c->opts.origin);
	if (c->opts.build_id && !aw_kcidb_id_ok(c->opts.build_id))
		return usage_error("kcidb", "--build-id takes ORIGIN:ID (ORIGIN as for --origin), not '%s'",
				   c->opts.build_id);
	if (optind >= argc)
		return usage_error("kcidb", "no snapshot given");
	int rc = snapshot_args("kcidb", argv + optind, (size_t)(argc - optind), &c->files, &c->nfiles);
	if (rc == 0 && c->opts.build_id && c->nfiles > 1)
		return usage_error("kcidb", "--build-id names one build: give one snapshot, not %zu",
				   c->nfiles);
	return rc;
}

/* The document, by the kcidb format's several (output/format.h).  0, or
 * -1 when out failed. */
static int write_kcidb(FILE *out, const struct kcidb_cli *c, const struct aw_snapshot *const *snaps)
{
	struct aw_several doc = { .snaps = snaps, .nsnaps = c->nfiles, .kcidb = &c->opts };
	return aw_format_find("kcidb", AW_WRITES_SEVERAL, NULL)->several(out, &doc);
}

/* Written whole or not at all (lib/outfile.h). */
static int write_document(const struct kcidb_cli *c, const struct aw_snapshot *const *snaps)
{
	if (!c->output || strcmp(c->output, "-") == 0)
		return write_kcidb(stdout, c, snaps) == 0 && fflush(stdout) == 0
			       ? AW_EXIT_PASS : usage_error("kcidb", "writing stdout: %s", strerror(errno));
	struct aw_outfile o;
	if (aw_outfile_open(&o, c->output) != 0)
		return usage_error("kcidb", "cannot write '%s': %s", c->output, strerror(errno));
	if (write_kcidb(o.f, c, snaps) != 0) {
		int e = errno;
		aw_outfile_abort(&o);
		return usage_error("kcidb", "writing '%s': %s", c->output, strerror(e));
	}
	if (aw_outfile_commit(&o) != 0)
		return usage_error("kcidb", "writing '%s': %s", c->output, strerror(errno));
	return AW_EXIT_PASS;
}

static void free_kcidb(void *opts)
{
	struct kcidb_cli *c = opts;
	for (size_t i = 0; i < c->nfiles; i++)
		free(c->files[i]);
	free(c->files);
	free(c);
}

static int parse_kcidb(int argc, char **argv, void **opts)
{
	struct kcidb_cli *c = xcalloc(1, sizeof(*c));
	return command_parsed(parse(argc, argv, c), c, free_kcidb, opts);
}

static int run(void *opts)
{
	struct kcidb_cli *c = opts;
	struct aw_snapshot *snaps = xcalloc(c->nfiles + 1, sizeof(*snaps));
	const struct aw_snapshot **ptrs = xcalloc(c->nfiles + 1, sizeof(*ptrs));
	size_t loaded = 0;
	char *err = NULL;
	int rc = 0;

	for (; loaded < c->nfiles; loaded++) {
		if (aw_snapshot_load(c->files[loaded], &snaps[loaded], &err) != 0) {
			rc = usage_error("kcidb", "%s", err);
			break;
		}
		ptrs[loaded] = &snaps[loaded];
	}
	if (rc == 0)
		rc = write_document(c, ptrs);
	for (size_t i = 0; i < loaded; i++)
		aw_snapshot_free(&snaps[i]);
	free_kcidb(c);
	free(snaps);
	free(ptrs);
	free(err);
	return rc;
}

const struct command kcidb_command = {
	"kcidb",
	"  kcidb SNAPSHOT...\n"
	"                  snapshots as KCIDB JSON, for KernelCI's database\n",
	parse_kcidb, run,
};
