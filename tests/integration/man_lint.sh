#!/usr/bin/env bash
# tests/run: sealed
# Every manual page reads clean in both man page tools Debian has:
# mandoc -T lint (warnings and above) and groff -ww -man -z, for the pages
# in man/ and for what scripts/catalogue-to-man makes of docs/catalogue.md
# now (so that the generator, not only its last output, is clean); and no
# Markdown leaks into the generated page (backticks, ** or *text*).
set -u
cd "$(dirname "$0")/../.." || exit 1
export LC_ALL=C.UTF-8
status=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; status=1; }
for t in mandoc groff; do
	command -v "$t" >/dev/null || { echo "SKIP: $t not installed (scripts/install-deps installs it)"; exit 4; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-man-lint.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
scripts/catalogue-to-man docs/catalogue.md >"$tmp/abiwatch-catalogue.7" || bad "scripts/catalogue-to-man failed"

pages=(man/*.[1-8] "$tmp/abiwatch-catalogue.7")
((${#pages[@]} >= 6)) || bad "only ${#pages[@]} pages found"
for page in "${pages[@]}"; do
	name=${page#"$tmp/"}
	[[ $page == "$tmp"/* ]] && name="$name (generated now)"
	m=$(mandoc -T lint -W warning "$page" 2>&1)
	[[ -z $m ]] && ok "mandoc -T lint: $name" || bad "mandoc -T lint $name: $(wc -l <<<"$m") messages:"$'\n'"$(head -n 10 <<<"$m")"
	g=$(groff -ww -man -z "$page" 2>&1)
	[[ -z $g ]] && ok "groff -ww: $name" || bad "groff -ww -man -z $name:"$'\n'"$(head -n 10 <<<"$g")"
done

leaks=$(grep -nE '`|\*\*|(^|[ (])\*[A-Za-z][^*]*[^ *]\*([ .,;:)]|$)' "$tmp/abiwatch-catalogue.7" | head -n 5)
[[ -z $leaks ]] && ok "no Markdown in the generated catalogue page" || bad "Markdown in the catalogue page:"$'\n'"$leaks"
exit $status
