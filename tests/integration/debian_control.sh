#!/usr/bin/env bash
# tests/run: sealed
# debian/control's descriptions as Debian policy (3.4) and lintian want
# them: a synopsis under 80 characters that does not start with an article,
# does not end with a period and does not repeat the package name; an
# extended description of more than one line; and, for abiwatch, one that
# names what the tool covers now (every family `abiwatch list` shows, by
# the words the description uses for it).
set -u
cd "$(dirname "$0")/../.." || exit 1
abiwatch=${ABIWATCH:-./abiwatch}
status=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; status=1; }

# package TAB synopsis TAB number of extended lines
descriptions=$(awk '
	/^Package:/ { if (pkg != "") print pkg "\t" syn "\t" n; pkg = $2; syn = ""; n = 0; indesc = 0; next }
	/^Description:/ { syn = substr($0, 14); indesc = 1; next }
	indesc && /^ / { n++; next }
	{ indesc = 0 }
	END { if (pkg != "") print pkg "\t" syn "\t" n }' debian/control)
[[ -n $descriptions ]] || { echo "FAIL: no Package stanza in debian/control"; exit 1; }
while IFS=$'\t' read -r pkg syn n; do
	((${#syn} > 0 && ${#syn} < 80)) && ok "$pkg: synopsis of ${#syn} characters" || bad "$pkg: synopsis of ${#syn} characters: '$syn'"
	[[ ! $syn =~ ^([Aa]|[Aa]n|[Tt]he)\  ]] && ok "$pkg: no leading article" || bad "$pkg: synopsis starts with an article: '$syn'"
	[[ $syn != *. ]] && ok "$pkg: no full stop" || bad "$pkg: synopsis ends with a full stop"
	[[ ${syn,,} != "$pkg "* ]] && ok "$pkg: does not start with its name" || bad "$pkg: synopsis repeats the package name"
	((n >= 2)) && ok "$pkg: extended description of $n lines" || bad "$pkg: extended description of $n lines"
done <<<"$descriptions"

# What abiwatch covers: each family's word in the description.
text=$(awk '/^Package: abiwatch$/ { p = 1; next } /^Package:/ { p = 0 } p' debian/control | tr -s '\n ' '  ')
declare -A word=([mqueue]="message queues" [dirent]="directory-stream cookies" [mm]="memory mappings"
	[vfs]="file system calls" [fdio]="pipes and epoll" [sysctl]="sysctl" [cgroup]="cgroup"
	[time]="clocks" [net]="sockets" [surface]="system call numbers" [tty]="terminals"
	[sandbox]="sandboxing" [process]="process creation")
families=$("$abiwatch" list | awk '/^[a-z]/ { print $1 }' | sort -u)
[[ -n $families ]] || bad "abiwatch list shows no family"
for f in $families; do
	w=${word[$f]-}
	if [[ -z $w ]]; then
		bad "family $f: this test knows no word for it (add one, and say it in debian/control)"
	elif [[ $text == *"$w"* ]]; then
		ok "family $f: '$w'"
	else
		bad "family $f: debian/control does not say '$w'"
	fi
done
exit $status
