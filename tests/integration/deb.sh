#!/usr/bin/env bash
# tests/run: sealed
# Packaging: `make install` lays abiwatch out so that the installed binary
# finds its 32-bit helpers, what abiwatch vm needs and the catalogue; and
# `make deb` builds the two Debian packages in a clean copy of the tree,
# lintian-clean (each override justified in debian/), holding that same
# layout, with the source tree left as it was.  (The packages' autopkgtest
# runs in a chroot: make deb-check, docs/debian.md.)
set -u
export LC_ALL=C
work=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
status=0
. "$(dirname "$0")/../lib/machine"
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; status=1; }

# The installed tree works from where it is: run, helpers, report.
works_installed() { # label root
	local bin=$2/usr/bin/abiwatch
	"$bin" list --verify && "$bin" list | grep -q '^  mqueue\.compat32 ' && ok "$1: list, list --verify" ||
		bad "$1: list"
	"$bin" run mqueue.compat32 dirent --fs tmpfs --entries 300 -o "$work/$1.snapshot" >/dev/null
	local rc=$?
	[[ $rc == 0 ]] && ok "$1: run exits 0" || bad "$1: run exits $rc"
	# Found: run, or (a kernel without i386 programs) its exec refused.
	local mq='pass' dir='obs\.dirent\.tmpfs\.compat32\.cookie_bits = [0-9]+'
	if ! machine_i386; then
		mq="skip: needs i386: this kernel runs no i386 programs: exec of [^ ]*/libexec/abiwatch/abiwatch-[a-z]+-m32 failed with ENOEXEC.*"
		dir="unobserved\.dirent\.tmpfs\.compat32\.cookie_bits = skip: needs i386: this kernel runs no i386 programs: exec of [^ ]*/libexec/abiwatch/abiwatch-[a-z]+-m32 failed with ENOEXEC.*"
	fi
	grep -qE "^check\.mqueue\.compat32\.sendrecv\.fifo_within_priority = $mq\$" "$work/$1.snapshot" &&
		ok "$1: the 32-bit mqueue helper found in usr/libexec/abiwatch" ||
		bad "$1: $(grep '^check\.mqueue\.compat32\.sendrecv\.fifo_within_priority' "$work/$1.snapshot")"
	grep -qE "^$dir\$" "$work/$1.snapshot" &&
		ok "$1: the 32-bit dirent helper found" || bad "$1: $(grep 'dirent\.tmpfs\.compat32\.cookie_bits' "$work/$1.snapshot")"
	# The tree's catalogue is not beside the installed binary: entries
	# on the page are the installed one's.
	"$bin" report -o "$work/$1.html" "$work/$1.snapshot" 2>"$work/$1.report.err" &&
		grep -q '<dt id="cat-mqueue.compat32' "$work/$1.html" && grep -q 'href="#cat-mqueue.compat32' "$work/$1.html" &&
		[[ ! -s $work/$1.report.err ]] &&
		ok "$1: report carries usr/share/abiwatch/catalogue.md's entries" || bad "$1: report's catalogue entries"
	for f in usr/libexec/abiwatch/abiwatch usr/libexec/abiwatch/abiwatch-init; do
		[[ -x $2/$f ]] && file -b "$2/$f" | grep -q 'statically linked' && ok "$1: $f, static" ||
			bad "$1: $f missing or not static"
	done
	for m in man1/abiwatch.1 man5/abiwatch-snapshot.5 man5/abiwatch-assumptions.5 man7/abiwatch-catalogue.7; do
		ls "$2/usr/share/man/$m"* >/dev/null 2>&1 || bad "$1: no $m"
	done
}

make -s install DESTDIR="$work/inst" PREFIX=/usr >"$work/install.log" 2>&1 &&
	ok "make install DESTDIR=... PREFIX=/usr" || { bad "make install:"; tail "$work/install.log"; }
works_installed "make install" "$work/inst"
[[ -x $work/inst/usr/bin/abiwatch-cookiefs ]] && ok "make install: abiwatch-cookiefs" ||
	bad "make install: no abiwatch-cookiefs"

for t in dpkg-buildpackage dh lintian; do
	# A failure of the make install part is not hidden by the skip.
	command -v $t >/dev/null || { ((status)) && exit $status
		echo "SKIP: no $t (scripts/install-deps installs it)"; exit 4; }
done
before=$(git status --porcelain=v1 --untracked-files=all 2>/dev/null | md5sum)
make -s deb DEB_OUT="$work/deb" >"$work/deb.log" 2>&1
rc=$?
[[ $rc == 0 ]] && ok "make deb: built and lintian-clean" || { bad "make deb exit $rc:"; tail -n 30 "$work/deb.log"; }
[[ $(git status --porcelain=v1 --untracked-files=all 2>/dev/null | md5sum) == "$before" ]] &&
	ok "the source tree is as it was" || bad "make deb changed the source tree"
grep -E '^[EW]: ' "$work/deb.log" && bad "lintian errors or warnings"
for p in abiwatch abiwatch-cookiefs; do
	deb=$(ls "$work/deb/${p}_"*.deb 2>/dev/null)
	[[ -f $deb ]] && ok "$p package: ${deb##*/}" || { bad "no $p package"; continue; }
	dpkg-deb -x "$deb" "$work/pkgroot"
done
if [[ -f $work/deb/abiwatch_0.1.0_amd64.deb ]]; then
	# libarchive13: the runtime dependency README names (--deb reading).
	dpkg-deb -f "$work/deb/abiwatch_0.1.0_amd64.deb" Depends | grep 'libjson-c5' | grep -q 'libarchive13' &&
		ok "abiwatch depends on its shared libraries" || bad "Depends: $(dpkg-deb -f "$work/deb/abiwatch_0.1.0_amd64.deb" Depends)"
	works_installed "package" "$work/pkgroot"
	[[ -x $work/pkgroot/usr/bin/abiwatch-cookiefs ]] && "$work/pkgroot/usr/bin/abiwatch-cookiefs" --help |
		grep -q '^Policies:' && ok "package: abiwatch-cookiefs runs" || bad "package: abiwatch-cookiefs"
fi
exit $status
