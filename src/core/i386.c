// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Whether this kernel runs i386 programs: decided once per run, before
 * any probe starts, by running a family's static 32-bit helper with
 * --hello (it answers AW_HELPER_HELLO and exits).  A kernel with
 * CONFIG_IA32_EMULATION can still refuse them (ia32_emulation=0, or a
 * binfmt missing), so only an exec tells.
 *
 * One answer serves the whole run: the snapshot's env.i386 records it,
 * and a probe asks aw_i386_refused() instead of exec'ing into a refusal
 * of its own, so every item that needs i386 gives the same reason, which
 * diff can attribute to the machine.  Under valgrind a failed execve()
 * kills the process that tried it: only the child of this check dies,
 * silently (its stderr is /dev/null), and the answer is "unknown".
 */
#include "i386.h"
#include "registry.h"
#include "lib/util.h"
#include "helper_path.h"
#include "lib/proc.h"
#include "lib/wire.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* A helper that has not answered by then never will. */
#define HELLO_TIMEOUT_S 10.0

static bool decided;
static char *refusal; /* NULL: i386 programs run */

/* The first 32-bit helper of any family that is installed, malloc'd. */
static char *some_helper(const char **name)
{
	const struct aw_family *const *fams;
	size_t n = aw_families(&fams);
	*name = NULL;
	for (size_t i = 0; i < n; i++) {
		if (!fams[i]->helper32)
			continue;
		if (!*name)
			*name = fams[i]->helper32;
		char *path = aw_helper_path(fams[i]->helper32);
		if (path)
			return path;
	}
	return NULL;
}

/* Run path --hello: NULL when it answered, else why not. */
static char *ask(const char *path)
{
	const char *argv[] = { path, "--hello", NULL };
	struct aw_spawn how = { .in = -1, .out = -1, .err = -1 };
	struct aw_capture cap = { .out = true, .timeout_s = HELLO_TIMEOUT_S, .max = 256 };

	if (aw_capture(argv, &how, &cap) != 0)
		return aw_helper_exec_failed(path, errno);
	bool hello = strncmp(cap.text, AW_HELPER_HELLO "\n", strlen(AW_HELPER_HELLO) + 1) == 0;
	free(cap.text);
	int status = cap.status;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && hello)
		return NULL;
	return xasprintf("could not tell whether this kernel runs i386 programs: %s --hello %s %d "
			 "without its answer", path, WIFSIGNALED(status) ? "died of signal" : "exited with",
			 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
}

void aw_i386_decide(void)
{
	if (decided)
		return;
	decided = true;
	const char *name;
	char *path = some_helper(&name);
	if (!path) {
		refusal = name ? aw_helper_missing(name)
			       : xstrdup("no family of this abiwatch has a 32-bit helper");
		return;
	}
	refusal = ask(path);
	free(path);
}

const char *aw_i386_refused(void)
{
	aw_i386_decide();
	return refusal;
}
