#!/usr/bin/env bash
# The documentation covers everything there is: every check and
# observation has an entry in docs/catalogue.md, the generated manual
# page is up to date, the manuals render without warnings, and every
# option of the command line is in abiwatch(1).
set -u
export LC_ALL=C.UTF-8
abiwatch=${ABIWATCH:-./abiwatch}
status=0
bad() { echo "FAIL $*"; status=1; }

# Headings "#### a.b.c" and grouped ones "#### a.b.c.min, .max" name items.
documented=$(sed -n 's/^#### //p' docs/catalogue.md | awk -F', ' '{
	print $1
	base = $1; sub(/\.[^.]*$/, "", base)
	for (i = 2; i <= NF; i++) { s = $i; sub(/^\./, "", s); print base "." s }
}' | sort -u)
items=$("$abiwatch" list | awk '$1 == "check" || $1 == "obs" { print $2 }' | sort -u)
# A heading may be a glob ("dirent.*.unique": every backend's probe).
covered() { # item
	local d
	while IFS= read -r d; do
		# shellcheck disable=SC2053
		[[ $1 == $d ]] && return 0
	done <<<"$documented"
	return 1
}
missing=$(while IFS= read -r it; do covered "$it" || echo "$it"; done <<<"$items")
[[ -z $missing ]] || bad "not in docs/catalogue.md:"$'\n'"$missing"
stale=$(while IFS= read -r d; do
	grep -q . <(while IFS= read -r it; do [[ $it == $d ]] && echo "$it"; done <<<"$items") || echo "$d"
done <<<"$documented")
[[ -z $stale ]] || bad "in docs/catalogue.md but no longer reported:"$'\n'"$stale"
echo "$(wc -l <<<"$items") items, all documented"

for fam in $("$abiwatch" list | awk '/^[a-z]/ { print $1 }'); do
	grep -q "^## $fam: " docs/catalogue.md || bad "family $fam has no section in docs/catalogue.md"
done

if ! diff -u man/abiwatch-catalogue.7 <(scripts/catalogue-to-man docs/catalogue.md) >/dev/null; then
	bad "man/abiwatch-catalogue.7 is stale: run scripts/catalogue-to-man docs/catalogue.md > man/abiwatch-catalogue.7"
fi

for page in man/*.[1-8]; do
	warnings=$(man --warnings -l -Tutf8 -Z "$page" 2>&1 >/dev/null)
	[[ -z $warnings ]] || bad "$page: $warnings"
done

# Every long option of every command appears in abiwatch(1).
for cmd in run list diff check vm matrix report; do
	for opt in $("$abiwatch" "$cmd" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
		grep -qF -- "${opt//-/\\-}" man/abiwatch.1 || bad "abiwatch $cmd $opt is not in man/abiwatch.1"
	done
done
exit $status
