// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: the command line of `abiwatch run` (and of check,
 * which shares its probe options): the options, the family options with
 * their checks and the probes they make (--path), and the globs.  Whatever
 * the arguments, parsing ends in a usage error (2) or in a selection whose
 * timeout is in range, and frees everything it made (LeakSanitizer).
 * `abiwatch list`, which only reads the registry, runs whole.
 *
 * The input is the argument vector, arguments separated by NUL bytes, so
 * that an argument may hold a newline.  Nothing is run: run's command line
 * is parsed (cmd/run.c) and the probes are only selected (session/run.c). */
#include "cmd/commands.h"
#include "core/status.h"

#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 32

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* The messages would drown libFuzzer's own, which keeps the
	 * original stderr stream. */
	stdout = fopen("/dev/null", "w");
	stderr = fopen("/dev/null", "w");
	return stdout && stderr ? 0 : -1;
}

/* glibc's getopt keeps a pointer into the last argument vector unless
 * optind is 0, which run_parse() (made for one call) never sets. */
static void reset_getopt(void)
{
	static char *none[] = { "fuzz", NULL };
	optind = 0;
	(void)getopt_long(1, none, "", NULL, NULL);
}

static size_t split(char *buf, size_t size, char **argv)
{
	size_t argc = 1;
	char *p = buf, *end = buf + size;
	while (p < end && argc < MAX_ARGS) {
		argv[argc++] = p;
		p += strlen(p) + 1;
	}
	argv[argc] = NULL;
	return argc;
}

static void parse_run(int argc, char **argv)
{
	struct run_opts a = { .pc.format = aw_format_find("ktap", AW_WRITES_RUN, NULL) };
	struct aw_probe_ref *refs = NULL;
	size_t nrefs = 0, nlater = 0;
	char **later = NULL, *why = NULL;

	reset_getopt();
	int rc = run_parse(argc, argv, &a);
	if (rc > 0 && rc != AW_EXIT_USAGE)
		abort();
	if (rc == 0) {
		if (a.pc.probes.timeout_s < 0 || a.pc.probes.timeout_s > 86400)
			abort();
		/* As session_run(): globs the registry lacks wait for the made probes. */
		probes_select(a.globs, a.nglobs, &refs, &nrefs, &later, &nlater);
		if (nlater > a.nglobs)
			abort();
		if (aw_params_apply(&a.pc.probes.params, &refs, &nrefs, &why) != 0) {
			if (!why)
				abort(); /* every refusal says why */
		} else {
			rc = probes_check_later(later, nlater, refs, nrefs);
			if (rc != 0 && rc != AW_EXIT_USAGE)
				abort();
		}
	}
	free(why);
	free(refs);
	free(later);
	aw_params_free(&a.pc.probes.params);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[MAX_ARGS + 1];
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	size_t argc = split(buf, size, argv);

	argv[0] = "run";
	parse_run((int)argc, argv);
	argv[0] = "list";
	reset_getopt();
	void *opts;
	int rc = list_command.parse((int)argc, argv, &opts);
	if (opts)
		rc = list_command.run(opts);
	if (rc != AW_EXIT_PASS && rc != AW_EXIT_USAGE)
		abort();
	free(buf);
	return 0;
}
