// SPDX-License-Identifier: GPL-2.0-or-later
/* abiwatch list: what there is to run, with one line each. */
#include "commands.h"
#include "core/env.h"
#include "core/registry.h"
#include "core/verify.h"
#include "lib/util.h"
#include "lib/caps.h"
#include "core/params.h"

#include <ctype.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char list_usage[] =
	"Usage: abiwatch list [OPTION...] [GLOB...]\n"
	"List the families, probes, checks and observations that the globs select\n"
	"(all by default), each with a one-line description.\n"
	"\n"
	"Options:\n"
	"  -v, --verbose   also show what each probe needs and its sources (tags)\n"
	"      --verify    check the probe tables themselves; exit 1 on a problem\n"
	"  -h, --help      show this help and exit\n";

static void print_needs(const struct aw_probe *p)
{
	for (const int *c = p->needs.caps; c && *c >= 0; c++) {
		printf("      needs: ");
		for (const char *n = aw_cap_name(*c); *n; n++)
			putchar(toupper((unsigned char)*n));
		putchar('\n');
	}
	for (const char *const *f = p->needs.files; f && *f; f++)
		printf("      needs: %s\n", *f);
	if (p->needs.vm_guest)
		printf("      needs: the VM guest (%s)\n", p->needs.vm_guest);
	if (p->needs.userns)
		printf("      needs: user namespaces\n");
	if (p->needs.i386_programs)
		printf("      needs: i386 programs\n");
	for (const char *const *k = p->needs.kconfig; k && *k; k++)
		printf("      kconfig: %s\n", *k);
	for (const char *const *m = p->needs.modules; m && *m; m++)
		printf("      module: %s (the VM guest carries it)\n", *m);
	if (p->alone)
		printf("      runs alone: %s\n", p->alone);
	for (const char *const *t = p->tags; t && *t; t++)
		printf("      source: %s\n", *t);
}

static void print_family(const struct aw_family *f)
{
	printf("%-42s %s\n", f->name, f->summary);
	for (const struct aw_param *p = f->params; p && p->name; p++) {
		char *opt = aw_param_spelling(f, p);
		char *left = xasprintf("--%s %s", opt, p->metavar);
		printf("  option %-33s %s\n", left, p->help);
		if (p->alias)
			printf("         %-33s (also --%s)\n", "", p->alias);
		free(left);
		free(opt);
	}
}

static void print_probe(const struct aw_probe_ref *ref, bool verbose)
{
	char name[512];
	aw_probe_fullname(ref, name, sizeof(name));
	printf("  %-40s %s\n", name, ref->probe->summary);
	if (verbose)
		print_needs(ref->probe);
	for (const struct aw_item *it = ref->probe->items; it->name; it++) {
		char *full = xasprintf("%s.%s", name, it->name);
		printf("    %-5s %-40s %s\n", it->kind == AW_CHECK ? "check" : "obs", full, it->summary);
		if (verbose && it->unit)
			printf("          unit: %s\n", it->unit);
		if (verbose && it->varies_with)
			printf("          varies with: %s\n", it->varies_with);
		if (verbose && it->vm_guest)
			printf("          needs: the VM guest (%s)\n", it->vm_guest);
		free(full);
	}
}

struct list_opts {
	bool verbose, verify;
	char **globs;
	size_t nglobs;
};

static void free_list(void *opts)
{
	free(opts);
}

/* 0 to go on, -1 after --help, else the usage status.  --verify ends the
 * parse: it checks the tables whatever else is given. */
static int parse_args(int argc, char **argv, struct list_opts *l)
{
	static const struct option opts[] = {
		{ "verbose", no_argument, NULL, 'v' },
		{ "verify", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "vh", opts, NULL)) != -1) {
		switch (c) {
		case 'v':
			l->verbose = true;
			break;
		case 'C':
			l->verify = true;
			return 0;
		case 'h':
			fputs(list_usage, stdout);
			return -1;
		default:
			return usage_error("list", "unknown option '%s'", argv[optind - 1]);
		}
	}
	l->globs = argv + optind;
	l->nglobs = (size_t)(argc - optind);
	return 0;
}

static int parse(int argc, char **argv, void **opts)
{
	struct list_opts *l = xcalloc(1, sizeof(*l));
	return command_parsed(parse_args(argc, argv, l), l, free_list, opts);
}

static int list(const struct list_opts *l)
{
	if (l->verify)
		return aw_registry_verify() ? AW_EXIT_FAIL : AW_EXIT_PASS;
	struct aw_probe_ref *refs;
	size_t n, unmatched;
	if (aw_select(l->globs, l->nglobs, &refs, &n, &unmatched) != 0)
		return usage_error("list", "nothing matches '%s'", l->globs[unmatched]);
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || refs[i].family != refs[i - 1].family)
			print_family(refs[i].family);
		print_probe(&refs[i], l->verbose);
	}
	free(refs);
	return AW_EXIT_PASS;
}

static int run(void *opts)
{
	int rc = list(opts);
	free_list(opts);
	return rc;
}

const struct command list_command = {
	"list",
	"  list [GLOB...]  list families, probes, checks and observations\n",
	parse, run,
};
