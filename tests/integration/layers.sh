#!/usr/bin/env bash
# tests/run: sealed
# The tree's layers hold (docs/architecture.md, "Layers"): every project
# #include in src/ points down or sideways within its room, never up.
#
#   lib       the floor: includes only lib
#   core      the probe runtime: core, lib
#   model     snapshots, diff, assumptions: model, core, lib; computes,
#             renders nothing (no json-c, no stdout/stderr, no FILE * in a
#             header but the snapshot codec's)
#   output    KTAP, text, JSON, HTML, KCIDB: output, model, core, lib
#   backends  filesystems for probes: backends, lib, core/probe.h
#   probes/F  a family: its own folder, lib, backends, core/probe.h
#   probes/F/m32  its 32-bit helper: its family's folder, lib
#   vm        other kernels: vm, backends, model, core, lib
#   vm/init   the guest's /init, a program of its own: vm/guest.h, core/guest.h,
#             and lib/ files that need no library (the Makefile's VMINIT_SHARED)
#   session   the work a command starts (run, matrix, bisect): session, vm,
#             model, backends, core, lib, and of output only its table of
#             formats (output/format.h); never cmd
#   cmd, main.c  the commands' command lines, into option structs for
#             session (or model and output, for the commands that only read
#             snapshots): session, model, core, lib, of output only its
#             table of formats (output/format.h), and of vm only the
#             guest's options and paths (vm/vm.h, vm/initramfs.h)
#
# Each violation is printed as FILE:LINE: includes TARGET (ROOM -> ROOM).
set -u
cd "$(dirname "$0")/../.."
status=0 n=0

# Sets room to the room of a path relative to src (no subshell: the tree
# has hundreds of includes).
room_of() { # path
	case $1 in
	lib/*) room=lib ;;
	core/*) room=core ;;
	model/*) room=model ;;
	output/*) room=output ;;
	backends/*) room=backends ;;
	probes/*/m32/*) room=${1#probes/}; room=m32:${room%%/*} ;;
	probes/*) room=${1#probes/}; room=family:${room%%/*} ;;
	vm/init/*) room=vm-init ;;
	vm/*) room=vm ;;
	session/*) room=session ;;
	cmd/* | main.c) room=cmd ;;
	*) room=unknown:$1 ;;
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
	vm-init) [[ $path == vm/guest.h || $path == core/guest.h || $path == lib/pace.h || $path == lib/steady.h ]] ;;
	session) [[ $to == vm || $path == output/format.h || $to == model || $to == backends ||
		    $to == core || $to == lib ]] ;;
	cmd) [[ $to == session || $path == output/format.h || $to == model || $to == core ||
		$to == lib || $path == vm/vm.h || $path == vm/initramfs.h ]] ;;
	*) return 1 ;;
	esac
}

# Every project include as FILE<TAB>LINE<TAB>NAME, and each NAME resolved
# as the compiler does, beside the file first, then through -Isrc: two
# realpath calls for the whole tree.
mapfile -t incs < <(find src -name '*.[ch]' -print0 | LC_ALL=C sort -z |
	xargs -0 grep -Hn -E '^[[:space:]]*#[[:space:]]*include[[:space:]]+"[^"]+"' |
	sed -E 's/^([^:]+):([0-9]+):[^"]*"([^"]+)".*/\1\t\2\t\3/')
beside=() viasrc=()
for rec in "${incs[@]}"; do
	name=${rec##*$'\t'}
	file=${rec%%$'\t'*}
	beside+=("${file%/*}/$name")
	viasrc+=("src/$name")
done
((${#incs[@]})) || { echo "no include found under src/"; exit 1; }
mapfile -t beside < <(realpath -m --relative-to=src -- "${beside[@]}")
mapfile -t viasrc < <(realpath -m --relative-to=src -- "${viasrc[@]}")

for i in "${!incs[@]}"; do
	rec=${incs[i]} file=${incs[i]%%$'\t'*} name=${incs[i]##*$'\t'}
	lineno=${rec#*$'\t'} lineno=${lineno%%$'\t'*}
	target=${beside[i]}
	[[ -e src/$target ]] || target=${viasrc[i]}
	if [[ ! -e src/$target || $target == ../* ]]; then
		echo "$file:$lineno: includes $name, which is not under src/"
		status=1
		continue
	fi
	n=$((n + 1))
	room_of "${file#src/}"; from=$room
	room_of "$target"; to=$room
	allowed "$from" "$target" "$to" && continue
	echo "$file:$lineno: includes $target ($from -> $to)"
	status=1
done

# model/ computes; output/ owns every format (its table, output/format.h).
# So no model file includes json-c or writes to stdout or stderr, and no
# model header hands a FILE * out but snapshot.h, the snapshot format's
# one codec, which the model owns (docs/architecture.md, "Outputs").
model_renders() { # prints each FILE:LINE of src/model that renders
	grep -HnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<json-c/' src/model/*.[ch]
	grep -HnE '(^|[^_[:alnum:]])(printf|puts|putchar|stdout|stderr)[[:space:]]*[(,);]' src/model/*.c |
		grep -v 'format(printf'
	grep -HnE '\bFILE[[:space:]]*\*' src/model/*.h 2>/dev/null | grep -v '^src/model/snapshot\.h:'
}
while IFS= read -r hit; do
	[[ -n $hit ]] || continue
	echo "$hit: model/ renders (a format belongs in output/)"
	status=1
done < <(model_renders)
# And the check bites: a json-c include in model is found.
probe=$(mktemp -d)
mkdir -p "$probe/src/model"
printf '#include <json-c/json.h>\nvoid f(void) { printf("x"); }\n' >"$probe/src/model/x.c"
[[ $(cd "$probe" && model_renders | wc -l) == 2 ]] || { echo "the model rule misses json-c or printf"; status=1; }
rm -rf "$probe"

# The rule itself must bite: a lib file including core is refused.
allowed lib core/probe.h core && { echo "the checker allows lib -> core"; status=1; }
allowed family:mm core/context.h core && { echo "the checker allows a family core internals"; status=1; }
allowed family:mm probes/vfs/vfs.h family:vfs && { echo "the checker allows family -> family"; status=1; }
allowed session cmd/commands.h cmd && { echo "the checker allows session -> cmd"; status=1; }
allowed cmd backends/backend.h backends && { echo "the checker allows cmd -> backends"; status=1; }
allowed cmd vm/matrix.h vm && { echo "the checker allows cmd the VM scheduler"; status=1; }
allowed cmd output/html_report.h output && { echo "the checker allows cmd a format past the table"; status=1; }
allowed session output/output.h output && { echo "the checker allows session a format past the table"; status=1; }

((status == 0)) && echo "$n includes, every one within the layers"
exit $status
