#!/usr/bin/env bash
# fdio_repeat: no fdio item depends on timing.  The family runs five
# times in a row; the snapshots must be identical apart from nothing
# (env.* included: the same binary on the same kernel), so that a
# flaky item (an epoll_wait racing a wake-up, a pty read racing its
# flush, a busy uid) shows as a difference.  Then twice without
# CAP_SYS_ADMIN (abiwatch then runs its probes in a user namespace,
# where no unused uid is mapped): the same snapshot again, the
# fresh-uid probes skipped saying why.  tests/bench.d/fdio.sh
# makes the same comparison over 20 runs and times them.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh

tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-fdiorep.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
expect_same_runs 5 "$tmp" "$abiwatch" run fdio
items=$(grep -cE '^(check|obs|unobserved)\.fdio\.' "$tmp/1")
((items > 150)) && report ok "run 1 reports $items fdio items" || report bad "run 1 reports $items fdio items"

if command -v capsh >/dev/null && machine_userns && machine_cap cap_sys_admin; then
	for i in a b; do
		capsh --drop=cap_sys_admin -- -c '"$0" run fdio -o "$1"' "$abiwatch" "$tmp/$i" \
			>"$tmp/ktap" 2>&1 || report bad "run without CAP_SYS_ADMIN exits $?"
	done
	cmp -s "$tmp/a" "$tmp/b" && report ok "without CAP_SYS_ADMIN: the same snapshot twice" ||
		{ report bad "without CAP_SYS_ADMIN: the snapshots differ"; diff "$tmp/a" "$tmp/b" | head; }
	load_snapshot "$tmp/a"
	expect check.fdio.pipe_soft_limit.min_two_pages \
		'skip: cannot become an unused uid: EINVAL (not mapped: abiwatch runs without CAP_SYS_ADMIN)'
else
	echo "# no capsh, user namespaces or CAP_SYS_ADMIN here: the unprivileged runs are not made"
fi
finish
