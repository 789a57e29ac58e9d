// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sandbox family: the interfaces a sandbox is built from, which every
 * sandboxing program probes at start-up and whose answers decide what it
 * enforces: Chromium's and Firefox's sandboxes (seccomp filters and their
 * flags, user namespaces), systemd's unit hardening (seccomp actions,
 * Landlock, no_new_privs, ambient capabilities), bubblewrap, the Landlock
 * libraries of Go and Rust (go-landlock, rust-landlock: "best effort" by
 * the ABI version), libbpf and bpftool (which BPF types load).  A kernel
 * that gains one is a new interface named in the diff; one that loses it
 * makes those programs fall back or refuse to start (docs/catalogue.md,
 * "sandbox").  Whatever a probe makes (a ruleset, a filter, a BPF object)
 * is closed before it ends or dies with a child made to be thrown away.
 */
#include "sandbox.h"
#include "lib/child.h"

#include <stdlib.h>

void sandbox_observe_bits(struct aw_ctx *ctx, const char *obs, uint64_t mask, const struct aw_bitname *names,
			  size_t n, const char *unknown_prefix, const char *none)
{
	char *s = aw_bitnames(mask, names, n, unknown_prefix, none);
	aw_observe(ctx, obs, "%s", s);
	free(s);
}

/* A child has 10 s (stretched by the machine's pace, lib/steady.h) for
 * what takes it a few milliseconds. */
#define SANDBOX_CHILD_MS 10000

int sandbox_in_child(int (*fn)(void *), void *arg)
{
	int st = aw_child_run(fn, arg, SANDBOX_CHILD_MS);
	return st < 0 ? 256 - st : st;
}

static const struct aw_probe *const tables[] = {
	sandbox_landlock_probes, sandbox_seccomp_probes, sandbox_creds_probes, sandbox_bpf_probes, NULL,
};

static const struct aw_family sandbox_family = {
	.name = "sandbox",
	.summary = "what sandboxes are built from: Landlock's ABI and rights, seccomp's actions and flags, "
		   "the security modules, capability bits, no_new_privs, BPF's program and map types",
	.tables = tables,
};

AW_FAMILY(sandbox_family);
