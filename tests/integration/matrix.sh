#!/usr/bin/env bash
# tests/run: sealed
# abiwatch matrix: Debian's 6.1 and 6.12 cloud kernels in QEMU and the
# host, in parallel, from one command: a snapshot each, the diffs between
# neighbours (in version order), matrix.txt; and the report of the
# directory, opened in headless Chromium, showing what changed between the
# kernels (tmpfs cookies are stable since 6.6) and the privileged mqueue
# checks passing in the VMs.
set -u
abiwatch=${ABIWATCH:-./abiwatch}
skip() { echo "SKIP: $*"; exit 4; }
status=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; status=1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-matrix.XXXXXX")
trap 'rm -rf "$work"' EXIT

one_line_error() { # description command...
	local what=$1
	shift
	"$@" >"$work/out" 2>"$work/err"
	local got=$?
	if [[ $got == 2 && $(wc -l <"$work/err") == 1 && ! -s $work/out ]]; then ok "$what: $(cat "$work/err")"
	else bad "$what: exit $got, stderr:"; cat "$work/err"; fi
}
"$abiwatch" matrix --help >"$work/out" && grep -q -- '--host' "$work/out" && ok "matrix --help" || bad "matrix --help"
one_line_error "no -o" "$abiwatch" matrix --host
one_line_error "no kernel" "$abiwatch" matrix -o "$work/m0"
one_line_error "bad --jobs" "$abiwatch" matrix -o "$work/m0" --host -j 0
one_line_error "not a kernel" "$abiwatch" matrix -o "$work/m0" /etc/passwd
one_line_error "RUN-ARGS setting -o" "$abiwatch" matrix -o "$work/m0" --host -- -o x

. tests/lib/vm-kernels.sh
vm_kernels 6.1 6.12
deb=${debs[1]}

out=$work/m
"$abiwatch" matrix -o "$out" --host "${debs[@]}" -- mqueue dirent --fs tmpfs --entries 1000 >"$work/out" 2>"$work/err"
rc=$?
cat "$work/err"
echo "matrix: exit $rc"
[[ $rc == 0 ]] && ok "matrix exits 0" || bad "matrix exits $rc"
cat "$out/matrix.txt"

guests=$(sed -n 's/^\([^# ][^ ]*\) \(tcg\|kvm\) ok 0 .*/\1/p' "$out/matrix.txt" | sort -V)
host=host-$(uname -r)
[[ $(wc -l <<<"$guests") == 2 ]] && ok "matrix.txt: both guests ran ($(echo $guests))" ||
	bad "matrix.txt: guests that ran: $(echo $guests)"
old=$(head -n 1 <<<"$guests") new=$(tail -n 1 <<<"$guests")
grep -q "^$host host ok 0 " "$out/matrix.txt" && ok "matrix.txt: the host ran" || bad "matrix.txt: no host run"
for guest in $guests; do
	for f in "$guest.snapshot" "$guest.ktap" "$guest.console"; do
		[[ -s $out/$f ]] && ok "$f written" || bad "$f missing"
	done
	grep -qx "env.kernel.release = $guest" "$out/$guest.snapshot" && ok "the snapshot of $guest is of it" ||
		bad "the snapshot of $guest is of another kernel"
done
# A column per family: each run's family time, the one its KTAP gives.
header=$(grep -m1 '^# label ' "$out/matrix.txt")
[[ $header == "# label where outcome exit total_s boot_s run_s dirent_s mqueue_s source" ]] &&
	ok "matrix.txt: a column per family" || bad "matrix.txt header: $header"
for run in $guests $host; do
	want=$(awk '/^  # time:/ { t = $3 } /^ok [0-9]+ / { printf "%.2f ", t }' "$out/$run.ktap")
	got=$(awk -v r="$run" '$1 == r { print $8, $9 }' "$out/matrix.txt")
	[[ -n $got && "$got " == "$want" ]] && ok "matrix.txt: $run's family times ($got) are its KTAP's" ||
		bad "matrix.txt: $run's family times '$got', its KTAP's '$want'"
done
for f in "$host.snapshot" "$host.ktap"; do [[ -s $out/$f ]] && ok "$f written" || bad "$f missing"; done
[[ -f $out/$old--$new.diff ]] && ok "neighbour diff $old--$new.diff" || bad "no $old--$new.diff"
grep -q 'obs.dirent.tmpfs.stable_after_unlink: cookies_changed -> stable' "$(verbose_diff "$out/$old--$new.diff")" &&
	ok "the 6.1 to 6.12 diff shows tmpfs cookies becoming stable" || bad "the diff lacks the tmpfs change"

# The newer Debian kernel, then the host's, in version order.
guest=$new
first=$(printf '%s\n' "$guest" "$(uname -r)" | sort -V | head -n 1)
if [[ $first == "$guest" ]]; then diff=$out/$guest--$host.diff; else diff=$out/$host--$guest.diff; fi
[[ -f $diff ]] && ok "neighbour diff ${diff##*/}" || { bad "no ${diff##*/}"; ls "$out"; }
# Where the host's root lacks CAP_SYS_RESOURCE, the diff folds the skips
# under that cause, after its summary line.
if ! grep -q '^env\.caps = .*cap_sys_resource' "$out/$host.snapshot"; then
	head -n 1 "$diff" | grep -qE '^[0-9]+ kernel changes?, [0-9]+ new failures?( \([^)]*\))?; .* need CAP_SYS_RESOURCE \(not on the (new|old) side\)' &&
		grep -qE '^  cap_sys_resource: [0-9]+ need CAP_SYS_RESOURCE' "$diff" &&
		ok "the diff folds the host's privileged skips under cap_sys_resource" || bad "the diff does not fold the skips"
fi

# matrix SIGKILLed while its VM boots: the worker and its QEMU die too.
# The waits are for events (QEMU there or matrix ended; QEMU gone), with no
# time limit: tests/run's guard of the script turns a hang into a failure.
alive() { # pid: exists and is not a zombie
	local st
	read -r st 2>/dev/null <"/proc/$1/stat" || return 1
	st=${st##*) }
	[[ ${st:0:1} != [ZX] ]]
}
"$abiwatch" matrix -q -o "$work/mk" "$deb" -- mqueue >/dev/null 2>&1 &
pid=$!
qemu=
while alive "$pid"; do
	for w in $(pgrep -P "$pid" 2>/dev/null); do
		qemu=$(pgrep -P "$w" -f qemu-system 2>/dev/null)
		[[ -n $qemu ]] && break
	done
	[[ -n $qemu ]] && break
	sleep 0.05
done
if [[ -z $qemu ]]; then
	bad "matrix SIGKILL: no QEMU seen"
	kill -KILL "$pid" 2>/dev/null
else
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	echo "# waiting for QEMU $qemu to go"
	while alive "$qemu"; do sleep 0.05; done
	ok "matrix SIGKILLed: its worker's QEMU $qemu went with it"
fi
wait "$pid" 2>/dev/null

# The report of the whole directory, as Chromium renders it, every row
# (the privileged checks below differ from no neighbour).
page=build/report-test/matrix.html
mkdir -p build/report-test
"$abiwatch" report --all -o "$page" "$out" && ok "report of the matrix directory" || bad "report failed"
chromium=$(command -v chromium || command -v chromium-browser)
[[ -n $chromium ]] || { echo "SKIP: chromium not installed (scripts/install-deps installs it)"; exit $status; }
profile=$(mktemp -d "$work/profile.XXXXXX")
"$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
	--disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" \
	--dump-dom "file://$(realpath "$page")" >"$work/dom.html" 2>/dev/null
dom=$work/dom.html
[[ -s $dom ]] && ok "chromium rendered the report" || bad "chromium rendered nothing"
"$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
	--disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" \
	--window-size=1400,1800 --screenshot="$(realpath build/report-test)/matrix.png" \
	"file://$(realpath "$page")" >/dev/null 2>&1
[[ -s build/report-test/matrix.png ]] && ok "screenshot: build/report-test/matrix.png" || bad "no screenshot"
heads=$(grep -o '<th class="kernel" data-col="[0-9]*"><span class="release">[^<]*' "$dom" | sed 's/.*>//')
[[ $(echo $heads) == "$(echo $guests) $(uname -r)" ]] && ok "columns: $(echo $heads)" || bad "columns: $(echo $heads)"
row() { grep -o "<tr class=\"item [^\"]*\" id=\"$1\">.*</tr>" "$dom" | head -n 1; }
r=$(row dirent.tmpfs.stable_after_unlink)
[[ $r == *'data-col="0"><span class="v">cookies_changed<'* &&
   $r == *'<td class="obs changed" data-col="1"><span class="v">stable<'* ]] &&
	ok "report: tmpfs stable_after_unlink cookies_changed on 6.1, stable (marked changed) on 6.12" ||
	bad "tmpfs stable_after_unlink row: $r"
r=$(row dirent.tmpfs.eof_cookie)
[[ $r == *'class="item obs changed"'* ]] && ok "report: tmpfs eof_cookie marked changed" || bad "eof_cookie row: $r"
# Privileged mqueue checks: pass in both VMs; on this host, pass or (without
# CAP_SYS_RESOURCE) skip.
priv=$(grep -o '^check\.mqueue\.privileged\.[^ ]*' "$out/$new.snapshot" | sed 's/^check\.//')
[[ $(wc -l <<<"$priv") -ge 2 ]] && ok "$(wc -l <<<"$priv") privileged mqueue checks" || bad "privileged checks: $priv"
for c in $priv; do
	r=$(row "$c")
	[[ $r =~ \<td\ class=\"pass(\ changed)?\"\ data-col=\"0\" && $r =~ \<td\ class=\"pass(\ changed)?\"\ data-col=\"1\" ]] &&
		ok "report: $c passes in both VMs" || bad "report: $c: $r"
done
exit $status
