#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# absent_sweep.sh: nodes listed but powered off cost the live ones little.
# Each is PROBEd every second by its would-be observers only (its k live
# successors, were it live); every other node asks it at once, then after
# 2, 4, 8, 16 ... seconds (proto/fresh.h ftd_fresh_sweep_due). Before, every
# live node PROBEd every silent one every second for good, each with an ARP
# broadcast: 100 of them swamped eight emulated nodes.
#   1. nodes 1-4 up (k = 2), node 5 and nodes 6-16 listed, not started:
#      the would-be observers of 5-16 are 1 and 2. Nodes 3 and 4 ask them
#      at about 0, 1, 3, 7, 15 and 31 s after they started (their first
#      sweep, alone in their ring, is near: it does not count).
#   2. 16 s after they started, between the asks at 15 and 31 s, node 5
#      starts: by 29.5 s it is alive at every node (it PROBEs them, they
#      PROBE it back) though nodes 3 and 4 would not have asked it.
#   3. in the 8 s after that, node 3 and node 4 send the silent nodes 6-16
#      next to nothing (at most one frame each), nodes 1 and 2 every one of
#      them a PROBE about every second.
#
#   n1 .. n5 ── br0; nodes 6-16 at addresses nothing answers
source "$(dirname "$0")/../lib.sh"

# The windows are the module's schedule in seconds (a base of a second at
# timeouts up to a second); a kernel stretched by FTD_TEST_SCALE has
# longer timeouts, hence bases, and runs ftstat too slowly to fit them.
[ "${FTD_TEST_SCALE:-1}" = 1 ] ||
	skip "its windows are the sweep's schedule at a base of one second, not stretched (FTD_TEST_SCALE=$FTD_TEST_SCALE)"

N=5
ABSENT_LAST=16
cluster_create "$N"
cluster_config "$FTD_TMP/cluster.conf" "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT" 4
for ((i = N + 1; i <= ABSENT_LAST; i++)); do
	echo "$i $(addr4 0 $((i + 92)))"
done >> "$FTD_TMP/cluster.conf"
SILENT_COUNT=$((ABSENT_LAST - N))
# now_ms: milliseconds of the clock (EPOCHREALTIME has microseconds).
now_ms() { echo $(( ${EPOCHREALTIME//[!0-9]/} / 1000 )); }
declare -A started
for i in 1 2 3 4; do
	n "$i" ftctl apply "$FTD_TMP/cluster.conf" > /dev/null || fail "node $i: apply failed"
	started[$i]=$(now_ms)
done
wait_until 30 alive_among 1 2 3 4 || { n 1 ftstat; fail "nodes 1-4 not alive at each other"; }

# sent_to_silent NODE: the frames NODE sent to each silent node, one line.
sent_to_silent() {
	n "$1" ftstat -j | jq -r --argjson from $((N + 1)) --argjson to "$ABSENT_LAST" \
		'[.nodes[] | select(.id >= $from and .id <= $to) | .tx // 0] | @tsv'
}
# since_start NODE: milliseconds since NODE's instance started.
since_start() { echo $(( $(now_ms) - started[$1] )); }
# before_ask WHAT: fail unless node 3 (started before node 4) is still well
# short of its ask at 31 s, saying what was too slow.
before_ask() {
	local t
	t=$(since_start 3)
	[ "$t" -lt 29500 ] ||
		fail "the guest took too long: $1 only $t ms after node 3 started, near its ask at 31 s"
}

# --- 2. node 5 starts in node 3's and node 4's wait from 15 to 31 s
left=$(( 16000 - $(since_start 4) ))
[ "$left" -gt 0 ] ||
	fail "the guest took too long: nodes 1-4 alive at each other only $(since_start 4) ms after node 4 started"
sleep "$((left / 1000)).$(printf %03d $((left % 1000)))"
n 5 ftctl apply "$FTD_TMP/cluster.conf" > /dev/null || fail "node 5: apply failed"
t5=$(now_ms)
declare -A before after
for i in 1 2 3 4; do
	before[$i]=$(sent_to_silent "$i")
done
t0=$(now_ms)

# --- 3. 8 s of it; node 5 alive everywhere first (before 3 and 4 would
# ask it); the far nodes' ask at 31 s may fall in the window: one frame
sleep 6
until alive_among 1 2 3 4 5; do
	before_ask "node 5 was not alive everywhere yet"
	sleep 0.1
done
log "node 5 started $((t5 - started[3])) ms after node 3: alive at nodes 1-5 $(( $(now_ms) - t5 )) ms later at the most"
sleep 2
for i in 4 3 2 1; do
	after[$i]=$(sent_to_silent "$i")
done
window=$(( $(now_ms) - t0 ))
# diffs NODE: what NODE sent each silent node in the window.
diffs() {
	paste <(tr '\t' '\n' <<< "${before[$1]}") <(tr '\t' '\n' <<< "${after[$1]}") |
		awk '{ printf "%s ", $2 - $1 }'
}
for i in 1 2 3 4; do
	log "node $i sent nodes $((N + 1))-$ABSENT_LAST in $window ms: $(diffs "$i")"
	[ "$(diffs "$i" | wc -w)" = "$SILENT_COUNT" ] || fail "node $i: not every silent node listed"
done
for i in 3 4; do
	for d in $(diffs "$i"); do
		[ "$d" -le 1 ] || fail "node $i, no would-be observer, sent a silent node $d frames in $window ms (without the backoff: one a second)"
	done
done
# A PROBE a second, less what a busy guest delays: surely more than one.
for i in 1 2; do
	for d in $(diffs "$i"); do
		[ "$d" -ge 5 ] || fail "node $i, a would-be observer of nodes $((N + 1))-$ABSENT_LAST, sent one only $d frames in $window ms"
	done
done
log "ok"
