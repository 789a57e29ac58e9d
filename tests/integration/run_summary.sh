#!/usr/bin/env bash
# tests/run: sealed
# How a run ends on stderr: one summary line (checks passed, failed and
# skipped, observations, the snapshot's path) whatever stdout and stderr
# are; on a terminal (script(1) gives stderr one) the failures and the
# skips counted by cause, each skip listed only with -v.  And a run of
# fewer probes never replaces a snapshot of more without --force.
set -u
abiwatch=${ABIWATCH:-./abiwatch}
selftest=${ABIWATCH_SELFTEST:-build/abiwatch-selftest}
status=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; status=1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-summary.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Into a file: the summary line alone, last, with the snapshot's totals.
"$abiwatch" run mqueue -o "$work/m.snapshot" >"$work/out" 2>"$work/err"
rc=$?
checks=$(grep -c '^check\..* = pass$' "$work/m.snapshot")
skips=$(grep -cE '^(check|unobserved)\..* = skip' "$work/m.snapshot")
obs=$(grep -c '^obs\.' "$work/m.snapshot")
want="abiwatch run: $checks checks passed, 0 failed, $skips skipped, 0 errors; $obs observations; snapshot $work/m.snapshot"
[[ $rc == 0 && $(cat "$work/err") == "$want" ]] && ok "stderr into a file: '$want'" ||
	bad "stderr into a file (exit $rc): $(cat "$work/err"), expected '$want'"
[[ $(tail -n 1 "$work/out") == "ok 1 mqueue" ]] && ok "stdout stays KTAP" || bad "stdout ends: $(tail -n 1 "$work/out")"
"$abiwatch" run -f text mqueue -o "$work/t.snapshot" >/dev/null 2>"$work/err"
[[ $(wc -l <"$work/err") == 1 ]] && grep -q "snapshot $work/t.snapshot\$" "$work/err" &&
	ok "with -f text too, one line" || bad "-f text: $(cat "$work/err")"

# On a terminal: no SKIP lines, the skips by cause; -v lists them.
command -v script >/dev/null || { echo "SKIP: no script(1) to give stderr a terminal"; exit 4; }
on_tty() { script -qec "$*" /dev/null | tr -d '\r'; }
on_tty "$abiwatch run mqueue.privileged mqueue.noattr -o $work/p.snapshot >/dev/null" >"$work/tty"
nskip=$(grep -cE '^(check|unobserved)\..* = skip' "$work/p.snapshot")
((nskip > 0)) || bad "mqueue.privileged skipped nothing here: cannot tell"
grep -q '^SKIP ' "$work/tty" && bad "SKIP lines on a terminal without -v: $(grep -c '^SKIP ' "$work/tty")" ||
	ok "no SKIP lines on a terminal"
line=$(grep '^skipped by cause: ' "$work/tty")
sum=$(sed 's/^skipped by cause://; s/ (-v lists each)$//' <<<"$line" | tr ',' '\n' | awk '{ n += $NF } END { print n + 0 }')
[[ $sum == "$nskip" ]] && ok "skips by cause add up to $nskip: $line" || bad "skips by cause: '$line', $nskip skips"
[[ $(tail -n 1 "$work/tty") == "abiwatch run: "*"snapshot $work/p.snapshot" ]] && ok "the summary line ends it" ||
	bad "the terminal ends: $(tail -n 1 "$work/tty")"
on_tty "$abiwatch run -v mqueue.privileged mqueue.noattr -o $work/p.snapshot >/dev/null" >"$work/tty-v"
# A skipped probe's items share its reason: -v says it once, for the probe.
reason=$(sed -n 's/^probe\.mqueue\.privileged = skip: //p' "$work/p.snapshot")
grep -qxF "SKIP mqueue.privileged: $reason" "$work/tty-v" && ok "-v lists the skip with its reason" ||
	bad "-v: $(cat "$work/tty-v")"
on_tty "$selftest run selftest.good selftest.crashes -o $work/s.snapshot >/dev/null" >"$work/tty-f"
grep -q '^ERR  selftest.crashes: crashed' "$work/tty-f" && grep -q '^abiwatch run: .* 1 errors;' "$work/tty-f" &&
	ok "a crash is listed on a terminal and counted" || bad "crash on a terminal: $(cat "$work/tty-f")"

# A smaller selection does not replace a fuller snapshot.
cp "$work/m.snapshot" "$work/keep.snapshot"
"$abiwatch" run mqueue.noattr -o "$work/m.snapshot" >/dev/null 2>"$work/err"
rc=$?
[[ $rc == 2 ]] && cmp -s "$work/m.snapshot" "$work/keep.snapshot" && grep -q -- '--force' "$work/err" &&
	ok "a run of fewer probes is refused (exit 2), the snapshot kept: $(head -c 120 "$work/err")" ||
	bad "smaller run over a fuller snapshot: exit $rc: $(cat "$work/err")"
"$abiwatch" run mqueue.noattr --force -o "$work/m.snapshot" >/dev/null 2>&1
rc=$?
[[ $rc == 0 ]] && ! grep -q '^probe\.mqueue\.attr ' "$work/m.snapshot" && ok "--force replaces it" ||
	bad "--force: exit $rc"
"$abiwatch" run mqueue -o "$work/m.snapshot" >/dev/null 2>&1 && ok "a run of more probes replaces it" ||
	bad "a larger run over a smaller snapshot: exit $?"
"$abiwatch" run mqueue -o "$work/m.snapshot" >/dev/null 2>&1 && ok "the same selection replaces it" ||
	bad "the same selection: exit $?"
"$selftest" check --force x 2>"$work/err" >/dev/null
[[ $? == 2 ]] && ok "--force is run's, not check's" || bad "check --force: $(cat "$work/err")"
exit $status
