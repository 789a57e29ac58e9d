#!/usr/bin/env bash
# tests/run: sealed
# The stable series without booting: tiny fake kernel packages built with
# dpkg-deb in an --apt-cache, and snapshots of them (tests/fixtures/series)
# already in the output directory.  matrix --apt --dry-run must take the
# newest update of each ABI name in Debian's version order (9.1.10-1 after
# 9.1.10-1~deb12u1, ABI -10 after -2) and refuse a kernel given twice;
# the matrix run then reuses every snapshot and ends matrix.txt with the
# series, and the report's first screen has the same, its links ids the
# page has.
set -u
abiwatch=${ABIWATCH:-./abiwatch}
status=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; status=1; }
command -v dpkg-deb >/dev/null || { echo "SKIP: no dpkg-deb to build the fake packages"; exit 4; }
work=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-series.XXXXXX")
trap 'rm -rf "$work"' EXIT
cache=$work/cache out=$work/out
mkdir -p "$cache" "$out"

fake_deb() { # ABI-NAME VERSION: a package of the shape apt-get download leaves
	local root=$work/root-$1-$2
	mkdir -p "$root/DEBIAN" "$root/boot"
	echo "not a kernel" >"$root/boot/vmlinuz-$1"
	printf 'Package: linux-image-%s\nVersion: %s\nArchitecture: amd64\nMaintainer: t <t@example.org>\nDescription: fake\n' \
		"$1" "$2" >"$root/DEBIAN/control"
	dpkg-deb -Zgzip -b "$root" "$cache/linux-image-$1_$2_amd64.deb" >/dev/null || bad "dpkg-deb -b $1 $2"
	rm -rf "$root"
}
fake_deb 9.1.0-1-fake-amd64 9.1.1-1
fake_deb 9.1.0-1-fake-amd64 9.1.1-2
fake_deb 9.1.0-2-fake-amd64 9.1.10-1~deb12u1
fake_deb 9.1.0-2-fake-amd64 9.1.10-1
fake_deb 9.1.0-10-fake-amd64 9.1.20-1
pattern='^linux-image-9\.1\.0-[0-9]+-fake-amd64$'

"$abiwatch" matrix --apt "$pattern" --apt-cache "$cache" --dry-run -o "$out" >"$work/plan" 2>"$work/err"
rc=$?
got=$(cut -f3 "$work/plan" | tr '\n' ',')
want="linux-image-9.1.0-1-fake-amd64 9.1.1-2,linux-image-9.1.0-2-fake-amd64 9.1.10-1,linux-image-9.1.0-10-fake-amd64 9.1.20-1,"
[[ $rc == 0 && $got == "$want" ]] && ok "--apt --dry-run: the newest of each ABI name, in version order" ||
	{ bad "--apt --dry-run: exit $rc, plan '$got', want '$want'"; cat "$work/err"; }
grep -q "the cache $cache serves" "$work/err" && ok "--apt: says the cache serves" ||
	{ bad "--apt: no word on the cache"; cat "$work/err"; }

deb=$cache/linux-image-9.1.0-1-fake-amd64_9.1.1-2_amd64.deb
"$abiwatch" matrix --dry-run -o "$out" "$deb" "$deb" >"$work/o" 2>"$work/err"
rc=$?
[[ $rc == 2 ]] && grep -q "the same kernel twice" "$work/err" && ok "a kernel twice: refused ($(cat "$work/err"))" ||
	{ bad "a kernel twice: exit $rc"; cat "$work/err"; }

cp tests/fixtures/series/*.snapshot "$out/"
"$abiwatch" matrix -q --apt "$pattern" --apt-cache "$cache" -o "$out" >"$work/o" 2>"$work/err"
rc=$?
m=$out/matrix.txt
[[ $(grep -c '^9\.1\.0-[0-9]*-fake-amd64 - reused ' "$m") == 3 ]] && ok "matrix: the 3 snapshots reused, none booted" ||
	{ bad "matrix (exit $rc): not every snapshot reused"; cat "$work/err" "$m"; }
sed -n '/^# series/,$p' "$m"
expect() { # description fixed-string
	grep -qF -- "$2" "$m" && ok "matrix.txt: $1" || bad "matrix.txt: no '$2' ($1)"
}
expect "a line for the series" "# series: 3 kernels in version order, 3 behaviour changes between neighbours, 5 items changed, 1 flapping"
expect "kernels numbered in version order" "#   k3 9.1.0-10-fake-amd64"
expect "the pair's behaviour changes and objects" "#   k1 -> k2: 3 behaviour changes: fam.d, fam.a, fam.c; 1 flapping"
expect "the pair's flapping object" "1 flapping (not counted): fam.b"
expect "the second pair: an appeared interface, the flapping one" "#   k2 -> k3: 0 behaviour changes; 2 appeared; 1 flapping (not counted): fam.b"
expect "the new value marked where it first appears" "#     b = accepted  (first in k2)"
expect "a set as what moved" "#     b = 9 -> 11: +memory.peak +pids.peak  (first in k2)"
grep -E '^# obs\.fam\.a\.v +a +b\* +b *$' "$m" >/dev/null && ok "matrix.txt: a cell per kernel, a b* b" ||
	bad "matrix.txt: the row of obs.fam.a.v: $(grep '^# obs.fam.a.v' "$m")"
grep -E '^# obs\.fam\.d\.here +a +\. +b\* *$' "$m" >/dev/null && ok "matrix.txt: absent between two values: a . b*, not flapping" ||
	bad "matrix.txt: the row of obs.fam.d.here: $(grep '^# obs.fam.d.here' "$m")"
grep -E '^# obs\.fam\.b\.flap .*FLAPPING' "$m" >/dev/null && ok "matrix.txt: 4 8 4 marked flapping" ||
	bad "matrix.txt: obs.fam.b.flap not flapping"
grep -q 'fam.e' "$m" && bad "matrix.txt: an item that never changed has a row" || ok "matrix.txt: no row for what never changed"
expect "an item that only appeared: said, no row" "1 more only appeared, vanished or went unobserved"
grep -q '^# obs.fam.f.new' "$m" && bad "matrix.txt: a row for fam.f.new, which only appeared" || ok "matrix.txt: no row for what only appeared"

page=$work/report.html
"$abiwatch" report -o "$page" "$out" 2>"$work/err" || { bad "report: $(cat "$work/err")"; }
first=$(sed -n '/id="series"/,/id="summary-table"/p' "$page")
[[ -n $first ]] && ok "report: the series before the family table" || bad "report: no series section first"
grep -q '<td class="n">3</td>' <<<"$first" && ok "report: the first pair counts 3 behaviour changes" ||
	bad "report: the first pair's count"
grep -q 'href="#pair-1-fam">fam.a</a>' <<<"$first" && ok "report: an object linked to its pair's changes" ||
	bad "report: no link of fam.a"
grep -q 'class="obj flap" href="#pair-2-fam">fam.b (flapping: not counted)' <<<"$first" &&
	ok "report: the flapping object marked" || bad "report: fam.b not marked flapping"
grep -q '<tr class="flapping" id="series-obs.fam.b.flap">' "$page" && ok "report: the flapping row marked" ||
	bad "report: the flapping row"
grep -q '<td class="first">accepted</td>' "$page" && ok "report: the first appearance marked" ||
	bad "report: no first appearance marked"
grep -q '>9 -&gt; 11: +memory.peak +pids.peak</td>' "$page" && ok "report: a set as what moved" ||
	bad "report: the set's cell"
missing=$(comm -23 <(grep -o 'href="#\(pair\|series\)[^"]*"' <<<"$first" | sed 's/^href="#//;s/"$//' | sort -u) \
	<(grep -o ' id="[^"]*"' "$page" | sed 's/^ id="//;s/"$//' | sort -u))
[[ -z $missing ]] && ok "report: every link of the series names an id of the page" || bad "report: links to no id: $missing"
exit $status
