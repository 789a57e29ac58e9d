# Sourced by the tests that hold a result equal on a loaded machine.
#
#   hog_start [N] N busy loops (default two per CPU), each ended by
#                 `timeout` after HOG_MAX_S (600) seconds at the latest,
#                 whatever happens
#   hog_stop      kills them and waits; the caller's EXIT trap calls it
#   hog_running   how many of them are still alive
#
# Only this test's own processes: nothing of the host changes.
hog_pids=()
hog_start() {
	local n=${1:-$((2 * $(nproc)))} i
	for ((i = 0; i < n; i++)); do
		timeout "${HOG_MAX_S:-600}" bash -c 'while :; do :; done' &
		hog_pids+=($!)
	done
}
hog_stop() {
	((${#hog_pids[@]})) || return 0
	kill "${hog_pids[@]}" 2>/dev/null
	wait "${hog_pids[@]}" 2>/dev/null
	hog_pids=()
}
hog_running() {
	local p n=0
	for p in "${hog_pids[@]}"; do kill -0 "$p" 2>/dev/null && n=$((n + 1)); done
	echo "$n"
}
