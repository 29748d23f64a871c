#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rack.sh: a run of adjacent nodes dies at once (a rack, its switch, its
# power): the observer after the run watches past it (kmod/proto/watch.h)
# and declares the whole run within about 1.5 timeouts, instead of one
# timeout per k nodes as the ring heals step by step.
#   10 nodes, k = 1, period 10 ms, timeout 400 ms; nodes 4-7 cut off
#   together (7, the nearest to node 8, last). Node 8 observes 7; it finds
#   3 alive past the run and declares 7, 6, 5 and 4. Every survivor
#   delivers each death once, the last within 2 timeouts of the end of the
#   cut (healing one node per timeout took 4 timeouts), and no survivor is
#   declared or fenced.
#
#   n1 .. n10 ── br0
source "$(dirname "$0")/../lib.sh"

N=10
RUN="4 5 6 7"
SURVIVORS="1 2 3 8 9 10"
TIMEOUT_MS=$(scaled 400)
FTD_CLUSTER_EXTRA="observers = 1"
cluster_create "$N"
cluster_up "$FTD_TEST_PERIOD" "${TIMEOUT_MS}ms"
wait_until 60 all_alive || { n 1 ftstat; fail "cluster did not come up"; }
watch_devices $SURVIVORS
sleep 0.5

late0=$(stat_counter 8 ticks_late)
before=$(now_ns)
for j in $RUN; do echo "link set s${j}r0 down"; done | sw ip -batch - || fail "cannot cut the run off"
after=$(now_ns)
log "nodes $RUN cut off in $(( (after - before) / 1000000 )) ms"
# What the run's late timers bought them (docs/detection.md), at any
# survivor: frozen by the cut, it can only be forgotten.
slow=0
for i in $SURVIVORS; do
	s=$(n "$i" ftstat -j | jq --arg run " $RUN " '[.nodes[] | select(.id as $id | $run | contains(" \($id) ")) |
		.slow_ns // 0] | max // 0')
	[ "$s" -gt "$slow" ] && slow=$s
done
[ "$slow" = 0 ] || log "the run's late timers bought it up to $(( slow / 1000000 )) ms more"

all_declared() {
	local i j
	for i in $SURVIVORS; do
		for j in $RUN; do
			has_event "$FTD_TMP/dev.$i" NODE_DEAD "$j" || return 1
		done
	done
}
wait_until 20 all_declared || { n 8 ftstat; fail "the run was not declared dead everywhere"; }
sleep 1
log "node 8, ms after the cut: $(jq -r --argjson t "$after" 'select(.node >= 3 and .node <= 8) |
	"\(.event) \(.node) by \(.origin) at \((.time_ns - $t) / 1000000 | floor)"' \
	"$FTD_TMP/dev.8" | tr '\n' ',')"
log "node 8: $(( $(stat_counter 8 ticks_late) - late0 )) late ticks meanwhile"
latest=0
for i in $SURVIVORS; do
	last=0
	for j in $RUN; do
		[ "$(count_events "$FTD_TMP/dev.$i" NODE_DEAD "$j")" = 1 ] ||
			fail "node $i: NODE_DEAD $j not exactly once"
		t=$(first_event_time "$FTD_TMP/dev.$i" NODE_DEAD "$j")
		[ "$t" -gt "$last" ] && last=$t
	done
	for j in $SURVIVORS; do
		has_event "$FTD_TMP/dev.$i" NODE_DEAD "$j" && fail "node $i declared survivor $j dead"
	done
	grep -q '"event":"FENCED"' "$FTD_TMP/dev.$i" && fail "node $i was fenced"
	log "node $i: the last of the run declared $(( (last - after) / 1000000 )) ms after the cut"
	[ "$last" -gt "$latest" ] && latest=$last
done
(( latest - after <= TIMEOUT_MS * 2 * 1000000 + slow )) ||
	fail "the run took $(( (latest - after) / 1000000 )) ms after the cut, more than 2 timeouts (+ $(( slow / 1000000 )) ms of slowness)"
log "ok"
