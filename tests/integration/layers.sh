#!/usr/bin/env bash
# The tree's layers hold (docs/architecture.md, "Layers"): every project
# #include in src/ points down or sideways within its room, never up.
#
#   lib       the floor: includes only lib
#   core      the probe runtime: core, lib
#   model     snapshots, diff, assumptions: model, core, lib
#   output    KTAP, text, JSON, HTML, KCIDB: output, model, core, lib
#   backends  filesystems for probes: backends, lib, core/probe.h
#   probes/F  a family: its own folder, lib, backends, core/probe.h
#   probes/F/m32  its 32-bit helper: its family's folder, lib
#   vm        other kernels: vm, backends, model, core, lib
#   vm/init   the guest's /init, a program of its own: vm/guest.h, core/guest.h
#   cmd, main.c  the commands: anything but a family
#
# Each violation is printed as FILE:LINE: includes TARGET (ROOM -> ROOM).
set -u
cd "$(dirname "$0")/../.."
status=0 n=0

room_of() { # path relative to src
	case $1 in
	lib/*) echo lib ;;
	core/*) echo core ;;
	model/*) echo model ;;
	output/*) echo output ;;
	backends/*) echo backends ;;
	probes/*/m32/*) local f=${1#probes/}; echo "m32:${f%%/*}" ;;
	probes/*) local f=${1#probes/}; echo "family:${f%%/*}" ;;
	vm/init/*) echo vm-init ;;
	vm/*) echo vm ;;
	cmd/*) echo cmd ;;
	main.c) echo cmd ;;
	*) echo "unknown:$1" ;;
	esac
}

allowed() { # from-room target-path target-room
	local from=$1 path=$2 to=$3
	[[ $from == "$to" ]] && return 0
	case $from in
	lib) return 1 ;;
	core) [[ $to == lib ]] ;;
	model) [[ $to == core || $to == lib ]] ;;
	output) [[ $to == model || $to == core || $to == lib ]] ;;
	backends) [[ $to == lib || $path == core/probe.h ]] ;;
	family:*) [[ $to == lib || $to == backends || $path == core/probe.h ]] ;;
	m32:*) [[ $to == lib || $to == "family:${from#m32:}" ]] ;;
	vm) [[ $to == backends || $to == model || $to == core || $to == lib ]] ;;
	vm-init) [[ $path == vm/guest.h || $path == core/guest.h ]] ;;
	cmd) [[ $to != family:* && $to != m32:* && $to != vm-init ]] ;;
	*) return 1 ;;
	esac
}

while IFS= read -r file; do
	rel=${file#src/}
	from=$(room_of "$rel")
	lineno=0
	while IFS= read -r line; do
		lineno=$((lineno + 1))
		[[ $line =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]+\"([^\"]+)\" ]] || continue
		name=${BASH_REMATCH[1]}
		# As the compiler resolves it: beside the file first, then -Isrc.
		target=$(realpath -m --relative-to=src "$(dirname "$file")/$name")
		[[ -e src/$target ]] || target=$(realpath -m --relative-to=src "src/$name")
		if [[ ! -e src/$target || $target == ../* ]]; then
			echo "$file:$lineno: includes $name, which is not under src/"
			status=1
			continue
		fi
		n=$((n + 1))
		to=$(room_of "$target")
		allowed "$from" "$target" "$to" && continue
		echo "$file:$lineno: includes $target ($from -> $to)"
		status=1
	done <"$file"
done < <(find src -name '*.[ch]' | LC_ALL=C sort)

# The rule itself must bite: a lib file including core is refused.
allowed lib core/probe.h core && { echo "the checker allows lib -> core"; status=1; }
allowed family:mm core/context.h core && { echo "the checker allows a family core internals"; status=1; }
allowed family:mm probes/vfs/vfs.h family:vfs && { echo "the checker allows family -> family"; status=1; }

((status == 0)) && echo "$n includes, every one within the layers"
exit $status
