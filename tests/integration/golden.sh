#!/usr/bin/env bash
# tests/run: sealed
# golden: every output abiwatch writes, byte for byte, against the files
# in tests/fixtures/golden/ (one a case, its stdout; exits.txt holds every
# case's exit status).  A refactoring of how outputs are written (output/'s
# format table) must not change one byte of what users and scripts read:
#   - diff of the fixture snapshots (tests/fixtures/causes, matrix, sandbox) in
#     every format, plain and --verbose; the matrix's neighbour diffs are
#     this text of files named LABEL.snapshot, as matrix writes them;
#   - check of every examples/assumptions file against the three matrix
#     snapshots, in every format;
#   - kcidb and report (HTML) of the fixture snapshots;
#   - run of the selftest family's probes in every format, with what the
#     machine and the clock decide (the environment's values, seconds)
#     masked, so that the same bytes come on any host.
#
#   tests/integration/golden.sh --update   rewrite the goldens (review the
#                                          git diff: it is the change users see)
# tests/run: a fixture is read by each binary the same way, so the ASan
# twin compares the same files.
set -u
export LC_ALL=C
abiwatch=${ABIWATCH:-./abiwatch}
selftest=${ABIWATCH_SELFTEST:-build/abiwatch-selftest}
here=$PWD
golden=$here/tests/fixtures/golden
update=0
[[ ${1:-} == --update ]] && update=1
[[ $abiwatch == /* ]] || abiwatch=$here/$abiwatch
[[ $selftest == /* ]] || selftest=$here/$selftest
[[ -x $selftest ]] || { echo "SKIP: $selftest not built (make selftest)"; exit 4; }
work=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-golden.XXXXXX")
trap 'rm -rf "$work"' EXIT
out=$work/out
mkdir -p "$out" "$work/s"

# The fixtures under short names, in the directory the commands run in,
# so that the names outputs print do not depend on where the test runs.
cp "$here"/tests/fixtures/causes/*.snapshot "$work/s/"
for f in "$here"/tests/fixtures/matrix/*.snapshot.gz; do
	b=${f##*/}
	gzip -dc "$f" >"$work/s/${b%.gz}"
done
for f in "$here"/tests/fixtures/sandbox/*.snapshot; do
	cp "$f" "$work/s/sandbox-${f##*/}"
done
cp "$here"/examples/assumptions/*.assume "$work/s/"
cd "$work/s" || exit 2
m61=6.1.0-57-cloud-amd64.snapshot
m612=6.12.118+deb12-cloud-amd64.snapshot
mhost=host-6.18.44-fc-v1300.snapshot

# case NAME COMMAND...: stdout to $out/NAME, the exit status to exits.txt.
case_() {
	local name=$1
	shift
	"$@" >"$out/$name" 2>/dev/null
	echo "$name $?" >>"$out/exits.txt"
}

diffs() { # label old new [formats --verbose takes]
	local f
	for f in text ktap json; do
		case_ "diff.$1.$f" "$abiwatch" diff -f "$f" "$2" "$3"
	done
	for f in ${4:-text ktap json}; do
		case_ "diff.$1.$f.verbose" "$abiwatch" diff -v -f "$f" "$2" "$3"
	done
}
diffs full-lacking full.snapshot lacking.snapshot
diffs full-lacking_changed full.snapshot lacking-changed.snapshot
diffs lacking-lacking_changed lacking.snapshot lacking-changed.snapshot
diffs boot_a-boot_b boot-a.snapshot boot-b.snapshot
diffs boot_a-boot_formula boot-a.snapshot boot-formula.snapshot
diffs full-starved full.snapshot starved.snapshot
diffs full-full full.snapshot full.snapshot
diffs module_a-module_b module-a.snapshot module-b.snapshot text
diffs ns_a-ns_b ns-a.snapshot ns-b.snapshot text
# The matrix's pairs are large: --verbose, which only the text heeds,
# once in each other format above is enough.
diffs m61-m612 "$m61" "$m612" text
diffs m612-host "$m612" "$mhost" text
# One family's sets, which the diff shows by name: Landlock's rights,
# BPF's types (tests/fixtures/sandbox/: the guests' and this machine's).
diffs sandbox61-sandbox612 sandbox-6.1.snapshot sandbox-6.12.snapshot text
diffs sandbox612-host sandbox-6.12.snapshot sandbox-host.snapshot text
case_ diff.m61-m612.ignore.text "$abiwatch" diff -I 'obs.*' -I sysctl "$m61" "$m612"

for a in *.assume; do
	for s in "$m61" "$m612" "$mhost" full.snapshot; do
		for f in text ktap json; do
			case_ "check.${a%.assume}.${s%.snapshot}.$f" "$abiwatch" check -f "$f" "$a" "$s"
		done
	done
done

case_ kcidb.matrix "$abiwatch" kcidb "$m61" "$m612" "$mhost"
case_ kcidb.causes "$abiwatch" kcidb full.snapshot lacking.snapshot starved.snapshot
cat="$here/docs/catalogue.md"
url=https://example.org/catalogue.md
case_ report.matrix.html "$abiwatch" report -o - --catalogue "$cat" --catalogue-url "$url" "$m61" "$m612" "$mhost"
case_ report.causes-all.html "$abiwatch" report -o - --all --catalogue "$cat" --catalogue-url "$url" --title 'every row' full.snapshot lacking.snapshot
case_ report.causes.html "$abiwatch" report -o - --keep-order --catalogue "$cat" --catalogue-url "$url" lacking-changed.snapshot full.snapshot starved.snapshot
case_ report.one.html "$abiwatch" report -o - --catalogue "$cat" --catalogue-url "$url" boot-a.snapshot

# A run: the selftest probes that end at once, in every way they end
# (pass, fail then pass, a skip for a need, a crash, an undeclared item,
# silence).  What the machine decides is masked: the environment's values
# (the JSON's, the text's first line) and every time.
probes=(selftest.good selftest.fails_then_passes selftest.needs_file selftest.crashes
	selftest.lies selftest.silent)
mask() { # file
	local release arch
	release=$(sed -n 's/^env\.kernel\.release = //p' run.snapshot)
	arch=$(sed -n 's/^env\.arch = //p' run.snapshot)
	R=$release A=$arch perl -pe '
		s/\b[0-9]+\.[0-9]+ s\b/T s/g;
		s/"seconds":[0-9.e+-]+/"seconds":T/;
		s/^abiwatch (\S+) on Linux \Q$ENV{R}\E \(\Q$ENV{A}\E\)$/abiwatch $1 on Linux @ (@)/;
		# The environment keys differ between machines too (a guest has others).
		if (/^  "environment":\{$/) { $env = 1; $_ = "  \"environment\":{\@},\n"; next }
		if ($env) { $env = 0 if /^  \},?$/; $_ = ""; next }
	' "$1"
}
for f in ktap text json; do
	"$selftest" run -o run.snapshot -f "$f" "${probes[@]}" >"$work/run.raw" 2>/dev/null
	echo "run.$f $?" >>"$out/exits.txt"
	mask "$work/run.raw" >"$out/run.$f"
	[[ $f == ktap ]] && grep -v '^env\.' run.snapshot >"$out/run.snapshot.noenv"
done
# The KCIDB document of a run names its machine throughout (and its ids
# hash the snapshot): it must be the one 'abiwatch kcidb' makes of the
# run's snapshot, which the kcidb goldens above fix.
"$selftest" run -o run.snapshot -f kcidb "${probes[@]}" >"$work/run.raw" 2>/dev/null
echo "run.kcidb $?" >>"$out/exits.txt"
"$abiwatch" kcidb run.snapshot >"$work/kcidb.raw"
cmp -s "$work/run.raw" "$work/kcidb.raw" && echo same >"$out/run.kcidb" || echo differs >"$out/run.kcidb"

if ((update)); then
	rm -rf "$golden"
	mkdir -p "$golden"
	cp "$out"/* "$golden/"
	echo "wrote $(ls "$golden" | wc -l) goldens to $golden"
	exit 0
fi
status=0
n=0
for f in "$out"/* "$golden"/*; do
	b=${f##*/}
	[[ -e $out/$b && -e $golden/$b ]] || { echo "FAIL $b: in only one of the output and the goldens"; status=1; continue; }
done
for f in "$golden"/*; do
	b=${f##*/}
	[[ -e $out/$b ]] || continue
	n=$((n + 1))
	if ! cmp -s "$f" "$out/$b"; then
		echo "FAIL $b differs from its golden:"
		diff -u "$f" "$out/$b" | head -n 40
		status=1
	fi
done
((status == 0)) && echo "ok   $n outputs byte-identical to tests/fixtures/golden"
exit $status
