#!/usr/bin/env bash
# tests/run: sealed
# diff_scale: abiwatch diff and report at the scale of every family, on
# real snapshots (tests/fixtures/matrix: `abiwatch matrix --host` over
# Debian's 6.1.192 and 6.12.118 cloud kernels in QEMU and a 6.18 host).
#   - 6.1 -> 6.12, all twelve families: the behaviour changes and the
#     sysctl summary fit in 60 lines; each is one line per object (the
#     four pidfd items, a knob's mode, value and write-back; the same
#     change on sibling probes shares a line), the named ones listed; the
#     knobs that appeared are all named, wrapped; the kernel configurations
#     are compared, read from each package's /boot/config-RELEASE.
#   - 6.12 -> host: no write-back a host never makes, no fresh cgroup it
#     never creates, among the kernel changes: they are skips of cause vm.
#   - a skip -> skip for the same cause is no change, whatever release
#     the reasons name; absent -> a value is an interface that appeared.
#   - the report of the three is a page of the changes, not of every row.
set -u
export LC_ALL=C
abiwatch=${ABIWATCH:-./abiwatch}
status=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; status=1; }
command -v jq >/dev/null || { echo "jq not installed (scripts/install-deps)"; exit 4; }
work=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT
for f in tests/fixtures/matrix/*.snapshot.gz; do
	b=${f##*/}
	gzip -dc "$f" >"$work/${b%.gz}"
done
s61=$(ls "$work"/6.1.0-*.snapshot) s612=$(ls "$work"/6.12.*.snapshot) host=$(ls "$work"/host-*.snapshot)

# ---- 6.1 -> 6.12 ----
"$abiwatch" diff "$s61" "$s612" >"$work/d61"
rc=$?
[[ $rc == 1 ]] && ok "6.1 -> 6.12: exit 1" || bad "6.1 -> 6.12: exit $rc"
head -n 1 "$work/d61" | grep -qE '^[0-9]+ kernel changes, 0 new failures \(surface [0-9]+ \+ [0-9]+ appeared, sysctl 8 \+ 37 appeared \+ 1 vanished, fdio 7, mm 6, vfs 6, cgroup 5, .*dirent 2, .*\); [0-9]+ items not comparable: 19 follow the machine.s memory \(it differs\), 19 follow the network namespace they were read in .*, 9 need the kernel option memory_failure \(not on the old side\), 5 need the kernel option x86_user_shadow_stack \(not on the old side\), 3 need the kernel option print_quota_warning \(not on the new side\)$' &&
	ok "the first line sums up per family: $(head -n 1 "$work/d61" | cut -c1-110)..." ||
	bad "first line: $(head -n 1 "$work/d61")"
# Every family: the kernel changes come first, then what appeared; the
# line that sums up the knobs that appeared is within the first 80.
sysctl_line=$(grep -n '^  sysctl\.knob 37: ' "$work/d61" | cut -d: -f1)
first_appeared=$(grep -n '^interfaces that appeared' "$work/d61" | cut -d: -f1)
[[ -n $sysctl_line && $sysctl_line -le 80 && $first_appeared -lt $sysctl_line ]] &&
	ok "the behaviour changes ($((first_appeared - 3)) lines) and the sysctl summary in $sysctl_line lines" ||
	bad "the sysctl summary at line ${sysctl_line:-none}, what appeared from line $first_appeared"
appeared=$(sed -n '/^interfaces that appeared/,/^[^ ]/{ /^  /p }' "$work/d61")
# Every knob that appeared is named, wrapped under its family's head.
knobs=$(sed -n '/^  sysctl\.knob 37: /,/^  [a-z]/p' <<<"$appeared" | sed '$d' | sed 's/^  sysctl\.knob 37://' | tr -d ' \n' | tr ',' '\n')
grep -qE '^interfaces that appeared \([0-9]+, nothing that worked breaks\):$' "$work/d61" &&
	[[ $(wc -l <<<"$knobs") == 37 ]] && grep -qx kernel.io_uring_disabled <<<"$knobs" && grep -qx vm.memfd_noexec <<<"$knobs" &&
	[[ -z $(grep -vE '^  [a-z0-9_.]+ [0-9]+: |^ {4,}[a-z0-9_.]' <<<"$appeared") ]] &&
	ok "37 knobs appeared: every one named (io_uring_disabled, memfd_noexec), wrapped; a head per family" ||
	bad "appeared: $(wc -l <<<"$knobs") knobs: $appeared"
"$abiwatch" diff --verbose "$s61" "$s612" | grep -q '^  appeared  sysctl\.knob\.vm\.memfd_noexec: ' &&
	ok "--verbose: every knob that appeared on a line of its own" || bad "--verbose: no line for vm.memfd_noexec"
kernel=$(sed -n '/^kernel changes:$/,/^[^ ]/{ /^  /p }' "$work/d61")
# The behaviour changes the two kernels are known for, each one line (the
# same change on sibling probes, one per filesystem, one line for all).
for want in 'changed   vfs\.anon\.pidfd: f_type: 0x09041934 -> 0x50494446; ino_per_process: no -> yes; ino_shared: yes -> no; mode: 0600 -> 0700 -- ' \
	'changed   obs\.vfs\.\{btrfs,ext4,tmpfs,xfs\}\.flink_unprivileged: ENOENT -> ok -- ' \
	'changed   vfs\.overlay: .*tmpfile' \
	'changed   fdio\.eventfd: .*write_16: 8 -> EINVAL' \
	'changed   obs\.fdio\.timerfd\.readv_4_4: EINVAL -> 8 -- ' \
	'changed   obs\.fdio\.signalfd\.readv_64_64: EINVAL -> 128 -- ' \
	'changed   obs\.fdio\.splice\.zero_to_pipe: EINVAL -> 100 -- ' \
	'changed   obs\.fdio\.splice\.sendfile\.zero_to_pipe: EINVAL -> 100 -- ' \
	'changed   mm\.memfd: add_seal_exec: EINVAL -> ' \
	'changed   obs\.mm\.thp\.anon64\.pmd_multiple: unaligned -> aligned -- ' \
	'changed   obs\.mm\.map_stack\.nohuge: no -> yes -- ' \
	'changed   obs\.cgroup\.v1\.memory\.mount: ok -> EINVAL -- ' \
	'changed   obs\.cgroup\.v1\.cpuset\.mount: ok -> EINVAL -- ' \
	'changed   dirent\.\{overlay_single,tmpfs\}: compat32\.eof_cookie, eof_cookie: 0x2712 -> 0x7fffffff; stable_after_unlink: cookies_changed -> stable -- ' \
	'vanished  sysctl\.knob\.kernel\.sched_child_runs_first: mode \(was 0644\); value: 0 -> absent; writeback \(was accepted\) -- ' \
	'changed   sysctl\.kconfig: memory_failure: n -> y; print_quota_warning: y -> n; source: /boot/config-6\.1\.0-57-cloud-amd64 -> /boot/config-6\.12\.118\+deb12-cloud-amd64 -- '; do
	grep -qE "^  $want" <<<"$kernel" && ok "listed: ${want:10:60}" || bad "not among the kernel changes: $want"
done
pidfd=$(grep -n 'vfs\.anon\.pidfd' <<<"$kernel" | cut -d: -f1)
moved=$(grep -n 'sched_autogroup_enabled' <<<"$kernel" | cut -d: -f1)
[[ -n $pidfd && -n $moved && $pidfd -lt $moved ]] && ok "named consequences (pidfd, line $pidfd) before a default that moved (line $moved)" ||
	bad "rank: pidfd $pidfd, sched_autogroup_enabled $moved"
grep -qE '^  (added|removed) +obs\.sysctl\.knob\.[^ ]*\.(mode|writeback)' "$work/d61" &&
	bad "a knob split into mode/value/writeback lines" || ok "no knob split into mode/value/writeback lines"
grep -q 'no kernel configuration' "$work/d61" && bad "a kconfig skip" || ok "no kconfig skip: both configurations compared"
for s in "$s61" "$s612"; do
	rel=$(sed -n 's/^env\.kernel\.release = //p' "$s")
	# The place (/boot/config-RELEASE); a snapshot older than that form names the file.
	grep -qxF -e "obs.sysctl.kconfig.source = /boot/config-RELEASE" -e "obs.sysctl.kconfig.source = /boot/config-$rel" "$s" && ok "$rel: the configuration came with the package" ||
		bad "$rel: kconfig source $(grep '^[a-z]*\.sysctl\.kconfig\.source' "$s")"
done
"$abiwatch" diff -f json "$s61" "$s612" >"$work/d61.json"
# Of the 45 knobs that came and 2 that went, 8 (net.core.*mem*, ...) went
# per network namespace (read in the initial one on 6.1, a child's on 6.12)
# and fs.quota.warnings is print_quota_warning's: causes, not the kernel.
jq -e '(.objects | length) == .summary.kernel_changes and
	([.objects[] | select(.object == "sysctl.knob.kernel.sched_child_runs_first")][0] | .rank == "named" and .shape == "vanished") and
	([.objects[] | select(.object == "sysctl.knob.kernel.io_uring_disabled")][0] | .rank == "appeared" and .shape == "appeared"
	 and (.changes | length) == 3) and
	([.summary.families[] | select(.family == "sysctl")][0] | .appeared == 37 and .vanished == 1)' "$work/d61.json" >/dev/null &&
	ok "JSON: objects, ranks and shapes (absent -> 0 appeared), family counts" || bad "JSON objects"
"$abiwatch" diff -f ktap "$s61" "$s612" >"$work/d61.ktap"
"$abiwatch" diff -f ktap --fail-on any "$s61" "$s612" >"$work/d61.any.ktap"
tests/lib/ktap-check "$work/d61.ktap" && [[ $(grep -c '^not ok ' "$work/d61.ktap") == $(jq '[.objects[] | select(.fails)] | length' "$work/d61.json") ]] &&
	[[ $(grep -c '^not ok ' "$work/d61.any.ktap") == $(jq .summary.kernel_changes "$work/d61.json") ]] &&
	ok "KTAP: a result per object, not ok when it fails the gate (all of them with --fail-on any)" || bad "KTAP"
"$abiwatch" diff --verbose "$s61" "$s612" >"$work/v61"
grep -qE '^    added     obs\.sysctl\.knob\.kernel\.io_uring_disabled\.mode = 0644' "$work/v61" &&
	ok "--verbose: each item below its object" || bad "--verbose lacks the items"

# ---- 6.12 -> host ----
"$abiwatch" diff -f json "$s612" "$host" >"$work/dh.json"
# A write-back is a kernel change only with its knob, as one that came
# or went.
jq -e '[.objects[] | select(.shape == "changed") | .changes[] | select(endswith(".writeback"))] | length == 0' \
	"$work/dh.json" >/dev/null && ok "6.12 -> host: no write-back among the kernel changes but of knobs that came or went" ||
	bad "write-backs among the kernel changes: $(jq -c '[.objects[] | select(.shape == "changed") | .changes[] | select(endswith(".writeback"))][:3]' "$work/dh.json")"
n=$(jq '[.changes[] | select(.cause == "vm" and (.name | endswith(".writeback")))] | length' "$work/dh.json")
((n > 200)) && ok "6.12 -> host: $n write-backs of global knobs folded under the cause vm" || bad "only $n write-backs under vm"
jq -e '[.objects[] | select(.object | startswith("cgroup.v2.child"))] | length == 0' "$work/dh.json" >/dev/null &&
	ok "6.12 -> host: the fresh child cgroup a host never makes is no kernel change" || bad "cgroup.v2.child among the kernel changes"
# The environment's doing, folded under its cause, never a kernel change:
# the initial network namespace only a guest reads (vm), the machine's
# settings against a fresh boot (setup: knob values but the catalogue's
# own, the default congestion control, socket buffer clamps, the THP mode,
# a container's cgroup root), the backlogs a guest without the diag
# modules could not read.  (A knob that came or went is the kernel's.)
env_effects=$(jq -r '.objects[] | select(.shape == "changed") | .changes[] | select(test("^obs\\.net\\.initns\\.|^(obs|unobserved)\\.net\\.listen\\.backlog|^obs\\.net\\.tcp\\.congestion$|^obs\\.net\\.sockbuf\\..*\\.(default|set_1g)$|^obs\\.mm\\.thp\\.mode$|^obs\\.cgroup\\.v2\\.(controllers|root_files)$|^obs\\.sysctl\\.knob\\..*\\.value$")) |
	select(. != "obs.sysctl.knob.dev.tty.legacy_tiocsti.value")' "$work/dh.json")
[[ -z $env_effects ]] && ok "6.12 -> host: no setting, guest-only probe or missing module among the kernel changes" ||
	bad "6.12 -> host: environment effects among the kernel changes: $(echo $env_effects | cut -c1-300)"
jq -e '[.changes[] | select(.cause == "setup")] | length > 10' "$work/dh.json" >/dev/null &&
	ok "6.12 -> host: the machine's settings folded under the cause setup" || bad "no change of cause setup"
jq -e '[.objects[] | select(.object == "sysctl.kconfig")] | length == 1' "$work/dh.json" >/dev/null &&
	ok "6.12 -> host: the configurations compared (the host has /proc/config.gz)" || bad "kconfig"

# ---- skips of one cause compare equal ----
noconfig() { # release: every kconfig item skipped as a host without the file does
	sed -E "s|^(obs\|unobserved)\.sysctl\.kconfig\.([a-z_0-9]+) = .*|unobserved.sysctl.kconfig.\2 = skip: needs kconfig: no kernel configuration: none found: no /proc/config.gz, /boot/config-$1 or /lib/modules/$1/build/.config|"
}
resort() { { head -n 1 "$1"; tail -n +2 "$1" | LC_ALL=C sort; } >"$1.tmp" && mv "$1.tmp" "$1"; }
noconfig 6.1.0-57-cloud-amd64 <"$s61" >"$work/n61.snapshot"
noconfig 6.12.118+deb12-cloud-amd64 <"$s612" >"$work/n612.snapshot"
resort "$work/n61.snapshot"
resort "$work/n612.snapshot"
"$abiwatch" diff -f json "$work/n61.snapshot" "$work/n612.snapshot" >"$work/n.json"
jq -e '[.changes[] | select(.name | startswith("obs.sysctl.kconfig."))] | length == 0' "$work/n.json" >/dev/null &&
	ok "kconfig skipped on both sides for the same cause: no change, though the paths name other releases" ||
	bad "kconfig skips compared: $(jq -c '[.changes[] | select(.name | startswith("obs.sysctl.kconfig."))][:2]' "$work/n.json")"
"$abiwatch" diff -f json "$s612" "$work/n612.snapshot" >"$work/n2.json"
jq -e '([.changes[] | select(.name | startswith("obs.sysctl.kconfig.")) | select(.cause != "kconfig")] | length == 0) and
	.summary.kernel_changes == 0' "$work/n2.json" >/dev/null &&
	ok "a side without the configuration file: folded under the cause kconfig" || bad "kconfig cause"

# ---- the report of the three ----
"$abiwatch" report -o "$work/r.html" "$s61" "$s612" "$host" && "$abiwatch" report --all -o "$work/all.html" "$s61" "$s612" "$host" ||
	bad "report failed"
size=$(wc -c <"$work/r.html") all=$(wc -c <"$work/all.html")
# Every family, 145 and ~170 kernel changes in the two pairs: about 1.2 KB a
# change; every row of every snapshot is ten times that.
((size < 512000 && size * 8 < all)) && ok "report: $size bytes (every row: $all)" || bad "report: $size bytes, --all $all"
pos() { grep -b -o "$1" "$work/r.html" | head -n 1 | cut -d: -f1; }
t=$(pos 'id="summary-table"') k=$(pos '<li class="kernel-change"') r=$(pos '<table class="results"')
[[ -n $t && -n $k && -n $r && $t -lt $k && $k -lt $r ]] && ok "report: the summary table, the changes, then the results" ||
	bad "report order: $t $k $r"
grep -q '<td class="count"><a href="#pair-1-vfs"><b>6</b></a></td>' "$work/r.html" && grep -q ' id="pair-1-vfs"' "$work/r.html" &&
	ok "report: vfs 6 in the first pair, linked to its first change" || bad "report: no vfs cell"
exit $status
