#!/usr/bin/env bash
# tests/run: sealed
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
# One awk for both directions: items without a heading (missing) and
# headings that no item matches any more (stale).
coverage=$(awk '
	NR == FNR { if ($0 ~ /[*?[]/) glob[$0] = 1; else exact[$0] = 1; next }
	{ item[$0] = 1 }
	END {
		for (g in glob) {
			re = g; gsub(/[.+^$(){}|\\]/, "\\\\&", re); gsub(/\*/, ".*", re); gsub(/\?/, ".", re)
			rx[g] = "^" re "$"
		}
		for (it in item) {
			hit = (it in exact)
			if (hit) used[it] = 1
			for (g in glob) if (it ~ rx[g]) { hit = 1; used[g] = 1 }
			if (!hit) print "missing " it
		}
		for (d in exact) if (!(d in used)) print "stale " d
		for (d in glob) if (!(d in used)) print "stale " d
	}' <(echo "$documented") <(echo "$items") | sort)
missing=$(sed -n 's/^missing //p' <<<"$coverage")
stale=$(sed -n 's/^stale //p' <<<"$coverage")
[[ -z $missing ]] || bad "not in docs/catalogue.md:"$'\n'"$missing"
[[ -z $stale ]] || bad "in docs/catalogue.md but no longer reported:"$'\n'"$stale"
[[ -z $missing ]] && echo "$(wc -l <<<"$items") items, all documented"

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
for cmd in run list diff check vm matrix report kcidb bisect; do
	for opt in $("$abiwatch" "$cmd" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
		grep -qF -- "${opt//-/\\-}" man/abiwatch.1 || bad "abiwatch $cmd $opt is not in man/abiwatch.1"
	done
done
exit $status
