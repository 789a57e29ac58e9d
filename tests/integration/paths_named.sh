#!/usr/bin/env bash
# tests/run: sealed
# Every path of the tree that the documentation names exists: each
# src/..., docs/..., tests/... or tools/... in docs/, man/ and README.md
# (the manual pages read as their text, roff escapes undone).  A path a
# reader follows and finds nothing at (src/lib/ipc_sysctl.c, moved into
# core/ long ago) sends them looking for code that is elsewhere.
#
# A placeholder in upper case or in angle brackets (src/probes/FAMILY/,
# tests/unit/test_FAMILY*.c, src/probes/<family>/) and a glob stand for
# any name: the path holds when some file matches.  Paths of other
# trees that share our top folders (the kernel's tools/testing/,
# xfstests' src/) are listed below, with whose they are.
#
# Each missing path is printed as FILE:LINE: PATH.
set -u
cd "$(dirname "$0")/../.."
export LC_ALL=C
status=0

# Other projects' paths the documentation cites as sources.
foreign=(
	'tools/testing/*'     # Linux: the kernel's selftests
	'src/t_dir_offset2.c' # xfstests
)

# FILE<TAB>LINE<TAB>PATH for every path named in the files given.
named() { # file...
	awk '
	FILENAME ~ /^man\// {
		gsub(/\\f[BIRP]/, ""); gsub(/\\-/, "-"); gsub(/\\&/, ""); gsub(/\\e/, "\\")
	}
	{
		s = $0
		while (match(s, /(^|[^A-Za-z0-9_.\/-])(src|docs|tests|tools)\/[A-Za-z0-9_.*<>\/+-]*/)) {
			p = substr(s, RSTART, RLENGTH)
			s = substr(s, RSTART + RLENGTH)
			sub(/^[^a-z]/, "", p)
			sub(/[.,:;)]+$/, "", p)
			print FILENAME "\t" FNR "\t" p
		}
	}' "$@"
}

is_foreign() { # path
	local f
	for f in "${foreign[@]}"; do
		# shellcheck disable=SC2053 # a glob, on purpose
		[[ $1 == $f ]] && return 0
	done
	return 1
}

# Whether a named path is there: as written, or, with its placeholders
# made globs, as some file.
exists() { # path
	[[ -e $1 ]] && return 0
	local g
	g=$(sed -E 's/<[^>]*>/*/g; s/[A-Z]{2,}/*/g' <<<"$1")
	[[ $g == "$1" && $g != *[*?[]* ]] && return 1
	compgen -G "$g" >/dev/null
}

check() { # file...: prints what is missing; 1 when something is
	local file line path rc=0
	declare -A seen=()
	while IFS=$'\t' read -r file line path; do
		is_foreign "$path" && continue
		if [[ -z ${seen[$path]+x} ]]; then
			exists "$path" && seen[$path]=1 || seen[$path]=0
		fi
		[[ ${seen[$path]} == 1 ]] && continue
		echo "$file:$line: $path"
		rc=1
	done < <(named "$@")
	return $rc
}

docs=(docs/*.md man/* README.md)
n=$(named "${docs[@]}" | cut -f3 | sort -u | wc -l)
((n)) || { echo "no path found in ${docs[*]}: the extraction is broken"; exit 1; }
if ! missing=$(check "${docs[@]}"); then
	echo "paths named in the documentation that do not exist:"
	echo "$missing"
	status=1
fi

# The check itself must bite: a missing path is found, in markdown and
# in roff, and placeholders and real files are not taken for one.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/man"
printf 'see `src/lib/no_such_file.c`, and `src/probes/FAMILY/family.c`.\n' >"$tmp/a.md"
printf 'through \\fBsrc/core/no\\-such.c\\fR.\n' >"$tmp/man/x.7"
got=$(cd "$tmp" && check a.md man/x.7)
want=$'a.md:1: src/lib/no_such_file.c\nman/x.7:1: src/core/no-such.c'
# The fixture's placeholder has nothing to match in $tmp: run there, the
# check reports it too, which says globs are tried rather than skipped.
want+=$'\na.md:1: src/probes/FAMILY/family.c'
if [[ $(sort <<<"$got") != $(sort <<<"$want") ]]; then
	echo "the checker does not find what a fixture names:"
	diff <(sort <<<"$want") <(sort <<<"$got")
	status=1
fi
exists src/probes/FAMILY/family.c || { echo "the checker refuses a placeholder"; status=1; }

((status == 0)) && echo "$n paths named in docs/, man/ and README.md, every one there"
exit $status
