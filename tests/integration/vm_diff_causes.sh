#!/usr/bin/env bash
# vm_diff_causes: a snapshot of Debian's 6.1 cloud kernel in QEMU (root
# with every capability, i386 programs run) against one of this machine,
# made by the same binary: `abiwatch diff` must lead with its summary
# line, list as kernel changes only what the kernel changed, and fold
# what this machine could not observe by cause (i386 programs,
# CAP_SYS_RESOURCE, as tests/lib/machine finds them) into a few lines.
# Exit status 1 for the kernel changes; --verbose lists every folded
# item; JSON agrees with the text.  The guest's snapshot carries the
# guest's environment (env.memory, env.cpus, env.fs, env.userns).
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh
. tests/lib/compat32-contract.sh

command -v jq >/dev/null || skip "jq not installed (scripts/install-deps)"
. tests/lib/vm-kernels.sh
vm_kernels 6.1
deb=${debs[0]}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-vmdiff.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

kernel_at_least() { # major minor
	local r major minor
	r=$(uname -r)
	major=${r%%.*} r=${r#*.} minor=${r%%[!0-9]*}
	((major > $1 || (major == $1 && minor >= $2)))
}

"$abiwatch" vm --deb "$deb" -o "$tmp/61.snapshot" -- mqueue dirent --fs tmpfs,ext4 >"$tmp/vm.out" 2>&1
rc=$?
[[ $rc == 0 || $rc == 1 ]] && report ok "vm run exits $rc" || { report bad "vm exits $rc"; tail "$tmp/vm.out"; finish; }
"$abiwatch" run -o "$tmp/host.snapshot" mqueue dirent --fs tmpfs,ext4 >/dev/null 2>&1
[[ -s $tmp/host.snapshot ]] || { report bad "the host run wrote no snapshot"; finish; }

# The guest's environment, as the guest decided it.
load_snapshot "$tmp/61.snapshot"
expect env.i386 yes
expect env.userns yes
expect_match env.fs '(^|,)tmpfs,ext4(,|$)'
# A guest alone gets this machine's CPUs, at most 4 (vm --cpus).
cpus=$(nproc)
expect env.cpus $((cpus < 4 ? cpus : 4))
# The 32-bit helper scans each filesystem's directory through the
# descriptor it inherits: after the tmpfs probe, ext4's too (a closed
# stdin once let that descriptor be replaced by /dev/null: ENOTDIR).
expect_dirent_compat32 tmpfs 14 0x2712
expect_dirent_compat32 ext4 31 0x7fffffff
mem=${snap[env.memory]-0}
# 1 GiB of guest RAM (the VM's default) less what the kernel reserves.
((mem > 512 * 1024 * 1024 && mem <= 1024 * 1024 * 1024)) && report ok "env.memory = $mem, the guest's" ||
	report bad "env.memory = $mem: not a 1 GiB guest's"
host_mem=$(($(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) * 1024))
[[ $(sed -n 's/^env\.memory = //p' "$tmp/host.snapshot") == "$host_mem" ]] &&
	report ok "the host snapshot has this machine's MemTotal" || report bad "host env.memory"

"$abiwatch" diff "$tmp/61.snapshot" "$tmp/host.snapshot" >"$tmp/diff" 2>"$tmp/diff.err"
rc=$?
echo "--- diff ($(wc -l <"$tmp/diff") lines)"
cut -c1-160 "$tmp/diff"
echo "---"
summary=$(head -n 1 "$tmp/diff")
# Kernel changes count objects (a line each); items changed, the keys.
[[ $summary =~ ^([0-9]+)\ kernel\ changes?,\ ([0-9]+)\ new\ failures?(\ \([^\)]*\))?\;\ ([0-9]+)\ items?\ not\ comparable ]] &&
	report ok "the summary line comes first" || report bad "first line: $summary"
nkernel=${BASH_REMATCH[1]-x} nfold=${BASH_REMATCH[4]-x}
kernel=$(sed -n '/^kernel changes:$/,/^[^ ]/{ /^  /p }' "$tmp/diff" | awk '{ print $2 }' | tr -d : | sort)
[[ $(wc -w <<<"$kernel") == "$nkernel" ]] && report ok "$nkernel kernel changes listed, as counted" ||
	report bad "kernel changes listed: $(wc -w <<<"$kernel"), counted $nkernel"
if kernel_at_least 6 14; then
	# 6.6 gave tmpfs stable offsets (a2e459555c5f, 6faddda69f62); 6.14
	# ends its scans at DIR_OFFSET_EOD, S32_MAX (68a3a6500314).  Nothing
	# else the two kernels do differs for these probes: both items of
	# one object, the tmpfs directory, on one line.
	# (mqueue's receiver_wakeup_order may change too: not asserted here.)
	want=$'dirent.tmpfs'
	[[ $(grep -E '^(obs\.|check\.|probe\.)?dirent\.' <<<"$kernel") == "$want" ]] &&
		report ok "of dirent, exactly the tmpfs directory changed, one object" ||
		report bad "kernel changes: $(echo $kernel)"
	# Where this machine runs i386 programs, the 32-bit caller's end
	# cookie is compared too, and moved with the native one.
	# Items that moved alike share one part of the line.
	compat=
	machine_i386 && compat='compat32.eof_cookie, '
	[[ $(grep -cF "  changed   dirent.tmpfs: ${compat}eof_cookie: 0x2712 -> 0x7fffffff; stable_after_unlink: cookies_changed -> stable -- " "$tmp/diff") == 1 ]] &&
		report ok "its items, ${compat}eof_cookie and stable_after_unlink, on its line" ||
		report bad "the tmpfs line: $(grep '^  changed   dirent.tmpfs' "$tmp/diff")"
else
	echo "# this kernel is older than 6.14: which tmpfs changes it shows is not asserted"
fi
# What this machine cannot observe is never a kernel change: the 32-bit
# items where it runs no i386 program, the privileged ones always (root
# here lacks CAP_SYS_RESOURCE, the guest does not).
unobservable=privileged
machine_i386 || unobservable='compat32|privileged'
grep -E '^  (skipped|changed|unskipped) ' "$tmp/diff" | grep -E "$unobservable" &&
	report bad "an item this machine cannot observe among the kernel changes" ||
	report ok "no item this machine cannot observe ($unobservable) among the kernel changes"
((rc == (nkernel > 0 ? 1 : 0))) && report ok "exit $rc: the kernel changed" || report bad "exit $rc with $nkernel kernel changes"

# What this machine lacks, folded by cause, each on one line (the
# environment's own lines follow, one per key that differs).
folded=$(sed -n '/^not comparable, by cause/,/^environment/p' "$tmp/diff" | wc -l)
((folded <= 4)) && report ok "the causes in $folded lines" || report bad "the causes take $folded lines"
cause_line() { grep -E "^  $1: [0-9]+ " "$tmp/diff"; }
if machine_i386; then
	[[ -z $(cause_line i386) ]] && report ok "i386 programs run here: no i386 cause" || report bad "an i386 cause here"
else
	[[ $(cause_line i386) == *"need i386 programs (not on the new side)"* ]] &&
		report ok "i386: $(cause_line i386 | cut -c1-80)..." || report bad "no i386 cause line"
	[[ $summary == *" need i386 programs (not on the new side)"* ]] && report ok "the summary counts the i386 items" ||
		report bad "summary without i386"
fi
if machine_cap cap_sys_resource; then
	[[ -z $(cause_line cap_sys_resource) ]] && report ok "CAP_SYS_RESOURCE held: no such cause" ||
		report bad "a cap_sys_resource cause here"
else
	[[ $(cause_line cap_sys_resource) == *"need CAP_SYS_RESOURCE (not on the new side)"* ]] &&
		report ok "cap_sys_resource: $(cause_line cap_sys_resource | cut -c1-80)..." ||
		report bad "no cap_sys_resource cause line"
fi

# --verbose lists every folded item; JSON says the same as the text.
"$abiwatch" diff --verbose "$tmp/61.snapshot" "$tmp/host.snapshot" >"$tmp/verbose"
listed=$(sed -n '/^not comparable, by cause/,/^[^ n]/p' "$tmp/verbose" | grep -c '^    ')
((listed == nfold)) && report ok "--verbose lists all $nfold folded items" || report bad "--verbose lists $listed of $nfold"
"$abiwatch" diff -f json "$tmp/61.snapshot" "$tmp/host.snapshot" >"$tmp/json"
[[ $(jq -r .summary.line "$tmp/json") == "$summary" ]] && report ok "JSON: the same summary line" || report bad "JSON summary"
[[ $(jq '.objects | length' "$tmp/json") == "$nkernel" &&
   $(jq '.summary.kernel_changes' "$tmp/json") == "$nkernel" &&
   $(jq '[.changes[] | select(.cause == null)] | length' "$tmp/json") == $(jq '.summary.kernel_change_items' "$tmp/json") &&
   $(jq '[.objects[].changes[]] | length' "$tmp/json") == $(jq '.summary.kernel_change_items' "$tmp/json") ]] &&
	report ok "JSON: $nkernel objects, every change without a cause in one" || report bad "JSON kernel changes"
[[ $(jq '[.changes[] | select(.cause == "i386") | select(.name | test("compat32") | not)] | length' "$tmp/json") == 0 ]] &&
	report ok "JSON: every i386 cause is a 32-bit item's" || report bad "an i386 cause on a native item"
"$abiwatch" diff -f ktap "$tmp/61.snapshot" "$tmp/host.snapshot" >"$tmp/ktap"
[[ $(sed -n 4p "$tmp/ktap") == "# $summary" ]] && report ok "KTAP: the summary line after the plan and the title" || report bad "KTAP summary"
[[ $(grep -c '^not ok ' "$tmp/ktap") == "$nkernel" ]] && report ok "KTAP: not ok only for the kernel changes" ||
	report bad "KTAP: $(grep -c '^not ok ' "$tmp/ktap") not ok"

# The report of the same pair opens with the kernel's changes.
chromium=$(command -v chromium || command -v chromium-browser)
if [[ -z $chromium ]]; then
	echo "# chromium not installed (scripts/install-deps installs it): the report is not rendered"
	finish
fi
mkdir -p build/report-test
page=build/report-test/vm-diff-causes.html
"$abiwatch" report -o "$page" "$tmp/61.snapshot" "$tmp/host.snapshot" && report ok "report written" || report bad "report failed"
flags=(--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update
       --disable-sync --no-first-run --user-data-dir="$tmp/profile")
"$chromium" "${flags[@]}" --dump-dom "file://$(realpath "$page")" >"$tmp/dom" 2>"$tmp/chromium.err"
"$chromium" "${flags[@]}" --window-size=1400,900 --screenshot="$(realpath build/report-test)/vm-diff-causes.png" \
	"file://$(realpath "$page")" >/dev/null 2>>"$tmp/chromium.err"
[[ -s build/report-test/vm-diff-causes.png ]] && report ok "first screen: build/report-test/vm-diff-causes.png" ||
	report bad "no screenshot"
listed=$(grep -o '<li class="kernel-change" data-name="[^"]*"' "$tmp/dom" | sed 's/.*data-name="//; s/"$//' | sort)
[[ $listed == "$kernel" ]] && report ok "the report's kernel changes are diff's: $(echo $listed)" ||
	report bad "report kernel changes: $(echo $listed)"
grep -q "<p class=\"pair-summary\" id=\"pair-summary-1\">$summary</p>" "$tmp/dom" &&
	report ok "the report's pair leads with diff's summary line" || report bad "report summary"
pos() { grep -b -o "$1" "$tmp/dom" | head -n 1 | cut -d: -f1; }
k=$(pos '<li class="kernel-change"'); c=$(pos '<details class="cause"'); e=$(pos '<table class="env"')
[[ -n $k && -n $c && -n $e && $k -lt $c && $c -lt $e ]] &&
	report ok "kernel changes before the folded causes, before the environments" || report bad "order $k $c $e"
finish
