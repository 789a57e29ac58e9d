// SPDX-License-Identifier: GPL-2.0-or-later
/* The options of vm and matrix that say how a guest is booted: one table,
 * one parser, one help text (guest_options.h). */
#include "guest_options.h"
#include "commands.h"
#include "vm_commands.h"
#include "lib/util.h"
#include "vm/initramfs.h"
#include "core/params.h"

#include <stdlib.h>
#include <string.h>

enum {
	OPT_TIMEOUT = AW_GUEST_OPT_BASE, OPT_ACCEL, OPT_MEMORY, OPT_QEMU, OPT_MODULE, OPT_FILE,
	OPT_SETUP, OPT_APPEND, OPT_CPUS,
};

static const struct option guest_options[] = {
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "accel", required_argument, NULL, OPT_ACCEL },
	{ "memory", required_argument, NULL, OPT_MEMORY },
	{ "cpus", required_argument, NULL, OPT_CPUS },
	{ "qemu", required_argument, NULL, OPT_QEMU },
	{ "module", required_argument, NULL, OPT_MODULE },
	{ "file", required_argument, NULL, OPT_FILE },
	{ "setup", required_argument, NULL, OPT_SETUP },
	{ "append", required_argument, NULL, OPT_APPEND },
	{ NULL, 0, NULL, 0 },
};

const char aw_guest_options_help[] =
	"      --timeout SEC    time limit of each VM from QEMU's start (default 300,\n"
	"                       plus, for each probe selected, what RUN-ARGS' options\n"
	"                       add to its own limit: 2970 s a dirent probe with\n"
	"                       --entries 1000000); the guest stops its run in time\n"
	"                       to send what it has\n"
	"      --accel ACCEL    auto (default: KVM if /dev/kvm really runs a guest,\n"
	"                       else TCG), kvm or tcg\n"
	"      --memory MB      guest memory (default 1024)\n"
	"      --cpus N         guest vCPUs, each running a probe at a time (default:\n"
	"                       this machine's CPUs shared among the guests that\n"
	"                       run at once, at most 4)\n"
	"      --qemu PROGRAM   the QEMU to run (default qemu-system-x86_64)\n"
	"      --module NAME    also load this module (or alias); repeatable\n"
	"      --file HOST[=GUEST]  also put a file in the guest, at the absolute path\n"
	"                       GUEST (default: HOST's); repeatable\n"
	"      --setup 'PROGRAM [ARG...]'  run this in the guest, as root, before the\n"
	"                       probes, and wait for it to exit 0 (a daemon it forks,\n"
	"                       such as a FUSE filesystem, keeps running); PROGRAM\n"
	"                       and its libraries go into the guest at their host\n"
	"                       paths; arguments are split at spaces; /mnt is an\n"
	"                       empty directory to mount on; repeatable, run in order.\n"
	"                       A file of --file or --setup under /tmp or /run is kept\n"
	"                       there in the guest; one under /proc, /sys or /dev, or\n"
	"                       at a path of the guest's init (/init, /vm, ...), is\n"
	"                       refused\n"
	"      --append PARAMS  more kernel parameters (after abiwatch's own)\n";

void aw_guest_opts_init(struct aw_vm_opts *vm)
{
	*vm = (struct aw_vm_opts){ .timeout_s = AW_VM_DEFAULT_TIMEOUT_S, .timeout_stretches = true,
				   .accel = "auto",
				   .memory_mb = AW_VM_DEFAULT_MEMORY_MB,
				   .qemu = "qemu-system-x86_64" };
}

struct option *aw_guest_options_join(const struct option *own)
{
	size_t n = 0, m = 0;
	while (own[n].name)
		n++;
	while (guest_options[m].name)
		m++;
	struct option *all = xcalloc(n + m + 1, sizeof(*all));
	memcpy(all, own, n * sizeof(*all));
	memcpy(all + n, guest_options, (m + 1) * sizeof(*all));
	return all;
}

static void push(char *const **list, size_t *n, char *value)
{
	char **l = xrealloc((void *)*list, (*n + 1) * sizeof(**list));
	l[(*n)++] = value;
	*list = l;
}

static int parse_accel(const char *cmd, const char *arg, const char **accel)
{
	static const char *const names[] = { "auto", "kvm", "tcg", NULL };
	int i;
	int rc = parse_choice(cmd, "--accel", arg, names, &i);
	if (rc == 0)
		*accel = names[i];
	return rc;
}

/* A setup command: a program and arguments, none of them empty. */
static bool setup_ok(const char *cmd)
{
	return *cmd && *cmd != ' ' && cmd[strlen(cmd) - 1] != ' ' && !strstr(cmd, "  ") &&
	       !strpbrk(cmd, "\n\t");
}

int aw_guest_option(const char *cmd, int opt, char *arg, struct aw_vm_opts *vm)
{
	char *checked, *err = NULL;
	switch (opt) {
	case OPT_TIMEOUT:
		vm->timeout_stretches = false;
		return parse_seconds(cmd, "--timeout", arg, &vm->timeout_s);
	case OPT_ACCEL:
		return parse_accel(cmd, arg, &vm->accel);
	case OPT_MEMORY:
		return parse_count(cmd, "--memory", arg, 128, 65536, "megabytes", &vm->memory_mb);
	case OPT_CPUS:
		return parse_count(cmd, "--cpus", arg, 1, 64, "a number", &vm->cpus);
	case OPT_QEMU:
		vm->qemu = arg;
		return 0;
	case OPT_MODULE:
		push(&vm->extra_modules, &vm->nextra_modules, arg);
		return 0;
	case OPT_FILE:
		if (!(checked = aw_guest_file_path(arg, &err)))
			break;
		push(&vm->files, &vm->nfiles, arg);
		free(checked);
		return 0;
	case OPT_SETUP:
		if (!setup_ok(arg))
			return usage_error(cmd, "--setup takes a program and its arguments separated "
					   "by single spaces, not '%s'", arg);
		if (!(checked = aw_setup_program(arg, &err)))
			break;
		push(&vm->setups, &vm->nsetups, arg);
		free(checked);
		return 0;
	case OPT_APPEND:
		vm->append = arg;
		return 0;
	default:
		return AW_GUEST_NOT_MINE;
	}
	/* What the guest could not run or would not see: refused before any
	 * VM starts. */
	int rc = usage_error(cmd, "%s", err);
	free(err);
	return rc;
}

void aw_guest_timeout_for_run(struct aw_vm_opts *vm)
{
	struct aw_params ps = { 0 };
	struct aw_probe_ref *refs = NULL;
	char **globs, *why = NULL;
	size_t nglobs, n = 0;
	run_args_peek(vm->run_args, vm->nrun_args, &ps, &globs, &nglobs);
	bool *hit = xcalloc(nglobs + 1, sizeof(*hit));
	aw_select_each(globs, nglobs, &refs, &n, hit);
	/* Refused, the guest's run says why; the selection stays unnarrowed. */
	if (aw_params_apply(&ps, &refs, &n, &why) != 0)
		free(why);
	vm->timeout_s = aw_params_run_timeout(&ps, refs, n, AW_VM_DEFAULT_TIMEOUT_S,
					      vm->timeout_stretches ? 0 : vm->timeout_s);
	free(hit);
	free(refs);
	free(globs);
	aw_params_free(&ps);
}

void aw_guest_opts_free(struct aw_vm_opts *vm)
{
	free((void *)vm->extra_modules);
	free((void *)vm->files);
	free((void *)vm->setups);
	vm->extra_modules = vm->files = vm->setups = NULL;
	vm->nextra_modules = vm->nfiles = vm->nsetups = 0;
}
