#!/usr/bin/env bash
# tests/run: sealed
# surface_docs: the catalogue's generated part of the surface section
# (from "### surface.syscalls:" to the end of docs/catalogue.md) is what
# scripts/surface-catalogue writes from the family's tables now, so that
# every call, argument and flag the probes sweep is listed as swept; and
# every swept call of each table has its row.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh

"$abiwatch" list surface >/dev/null 2>&1 || skip "this abiwatch has no surface family"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-surfdocs.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

TMPDIR=$tmp scripts/surface-catalogue "$abiwatch" >"$tmp/want" || { echo "FAIL scripts/surface-catalogue failed"; exit 1; }
sed -n '/^### surface\.syscalls: /,$p' docs/catalogue.md >"$tmp/have"
diff -u "$tmp/have" "$tmp/want" >"$tmp/diff" && report ok "the generated part of the catalogue is current" ||
	{ report bad "docs/catalogue.md is stale: run scripts/surface-catalogue --update, then scripts/catalogue-to-man"; head -40 "$tmp/diff"; }

for t in x86_64 i386; do
	rows=$(grep -cE '^(SC|SG|NS)\(' src/probes/surface/$t.tbl)
	probe=syscalls; [[ $t == i386 ]] && probe=syscalls32
	listed=$(sed -n "/^### surface\.$probe: /,/^### /p" docs/catalogue.md | grep -c '^| [0-9]')
	((rows == listed)) && report ok "$t: all $rows rows of the table are in the catalogue" ||
		report bad "$t: $rows rows in the table, $listed in the catalogue"
done
finish
