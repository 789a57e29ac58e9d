# Sourced by the tests that boot Debian kernels in QEMU.
#
#   vm_kernels 6.1 6.12     sets debs=(the .deb of each series)
#
# Skips the test (exit 4, the reason last) where QEMU or the guest's build
# (make vm) is missing or no kernel package can be had here, so that every
# VM test asks the machine the same way.
vm_kernels() { # SERIES...
	local deb series
	vm_skip() { echo "SKIP: $*"; exit 4; }
	command -v qemu-system-x86_64 >/dev/null ||
		vm_skip "qemu-system-x86_64 not installed (scripts/install-deps)"
	[[ -x build/static/abiwatch && -x build/vm/abiwatch-init ]] ||
		vm_skip "build/static/abiwatch or build/vm/abiwatch-init missing (make vm)"
	debs=()
	for series in "$@"; do
		deb=$(tests/lib/debian-kernel "$series")
		case $? in
		0) debs+=("$deb") ;;
		4) vm_skip "$deb" ;;
		*) echo "FAIL: tests/lib/debian-kernel $series: $deb"; exit 1 ;;
		esac
	done
}

# The --verbose twin of a neighbour diff `abiwatch matrix` wrote
# (DIR/OLD--NEW.diff), from its two snapshots: each change of an object of
# several on a line of its own, below the object's, so that a test can
# find an item's line whatever it is grouped with.  Prints its path.
verbose_diff() { # DIR/OLD--NEW.diff
	local dir=${1%/*} name=${1##*/}
	name=${name%.diff}
	"${abiwatch:-./abiwatch}" diff --verbose "$dir/${name%%--*}.snapshot" "$dir/${name#*--}.snapshot" >"$1.verbose"
	echo "$1.verbose"
}
