#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# absent.sh: a node listed in the config but never started (powered off,
# as nodes on a cluster often are) holds no place in the ring: it observes
# nobody, is observed by nobody, and makes no neighbour look cut off.
#   1. nodes 1-4 up, node 5 listed but never started: 1-4 alive everywhere,
#      5 unknown everywhere, and nothing sent to it but the rare PROBE.
#   2. node 4 cut off: its observers are 1 and 2 (5 would have been one):
#      NODE_DEAD at 1, 2 and 3, once each, and no other death.
#   3. node 5 starts: alive at every node (4 excepted), without events
#      about anyone else.
#   4. node 5 is cut off in turn: dead everywhere, once.
#
#   n1 .. n5 ── br0; node 5's namespace exists, its instance does not
source "$(dirname "$0")/../lib.sh"

N=5
cluster_create "$N"
cluster_config "$FTD_TMP/cluster.conf" "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT" 4
for i in 1 2 3 4; do
	n "$i" ftctl apply "$FTD_TMP/cluster.conf" > /dev/null || fail "node $i: apply failed"
done
alive_1_to_4() { all_alive_but "5" 1 2 3 4; }
# all_alive_but "SKIP..." NODE...: each NODE holds every node not in SKIP alive.
all_alive_but() {
	local skip=$1 i
	shift
	for i in "$@"; do
		n "$i" ftstat -j | jq -e --arg skip " $skip " '[.nodes[] | . as $node |
			select(.state != "self" and .state != "alive" and
			       ($skip | contains(" \($node.id) ") | not))] | length == 0' > /dev/null ||
			return 1
	done
}
wait_until 30 alive_1_to_4 || { n 1 ftstat; fail "nodes 1-4 not alive at each other"; }
for i in 1 2 3 4; do
	[ "$(node_state "$i" 5)" = unknown ] || fail "node $i holds never-started node 5 $(node_state "$i" 5)"
done
sleep 1
# Heartbeats go to successors in the ring: 5 is in nobody's. What node 4
# (its predecessor) sends it is PROBEs, at most one a second. The window
# is measured, not assumed: a busy guest can take a second to run ftstat,
# and a heartbeat a period would still show 100 frames a second.
t0=$(date +%s%N)
tx5=$(n 4 ftstat -j | jq '.nodes[] | select(.id == 5) | .tx // 0')
sleep 2
tx5_after=$(n 4 ftstat -j | jq '.nodes[] | select(.id == 5) | .tx // 0')
window_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
allowed=$(( window_ms / 1000 + 2 ))
log "node 4 sent node 5 (never started) $((tx5_after - tx5)) frames in at most $window_ms ms (at $FTD_TEST_PERIOD periods; PROBEs allow $allowed)"
[ $((tx5_after - tx5)) -le "$allowed" ] || fail "node 4 heartbeats to the absent node 5"
for i in 1 2 3; do
	watch_events "$i"
done
watch_devices 5

# --- 2. node 4 cut off
cut=$(cut_node 4)
before=$(jq '.before_ns' <<< "$cut")
dead_4() {
	local i
	for i in 1 2 3; do
		has_event "$FTD_TMP/dev.$i" NODE_DEAD 4 || return 1
	done
}
wait_until 10 dead_4 || { for i in 1 2 3; do n "$i" ftstat; done; fail "node 4 not declared dead at 1, 2 and 3"; }
sleep 0.5
for i in 1 2 3; do
	[ "$(count_events "$FTD_TMP/dev.$i" NODE_DEAD 4)" = 1 ] || fail "node $i: NODE_DEAD 4 not exactly once"
	for j in 1 2 3 5; do
		[ "$(count_events "$FTD_TMP/dev.$i" NODE_DEAD "$j")" = 0 ] || fail "node $i declared node $j dead"
	done
	t=$(first_event_time "$FTD_TMP/dev.$i" NODE_DEAD 4)
	log "node $i: NODE_DEAD 4 $(( (t - before) / 1000 )) us after the cut (timeout $FTD_TEST_TIMEOUT)"
done

# --- 3. node 5 starts
n 5 ftctl apply "$FTD_TMP/cluster.conf" > /dev/null || fail "node 5: apply failed"
alive_5() { all_alive_but "4" 1 2 3 5; }
wait_until 20 alive_5 || { n 5 ftstat; n 1 ftstat; fail "node 5 did not join"; }
log "node 5 started: alive at 1, 2, 3; it holds them alive"
for i in 1 2 3; do
	for j in 1 2 3; do
		[ "$(count_events "$FTD_TMP/dev.$i" NODE_DEAD "$j")" = 0 ] || fail "node $i declared node $j dead"
	done
done

# --- 4. node 5 cut off
cut_node 5 > /dev/null
dead_5() {
	local i
	for i in 1 2 3; do
		has_event "$FTD_TMP/dev.$i" NODE_DEAD 5 || return 1
	done
}
wait_until 10 dead_5 || { n 1 ftstat; fail "node 5 not declared dead at 1, 2 and 3"; }
sleep 0.5
for i in 1 2 3; do
	[ "$(count_events "$FTD_TMP/dev.$i" NODE_DEAD 5)" = 1 ] || fail "node $i: NODE_DEAD 5 not exactly once"
done
log "node 5 cut off: dead at 1, 2, 3, once each"
log "ok"
