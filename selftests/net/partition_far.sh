#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# partition_far.sh: a minority whose members next to the other side died
# during the cut still finds the other side at once when the cut heals.
#   8 nodes, k = 2, timeout 200 ms. 4/4: 1-4 go on (the half with the
#   lowest id), 5-8 fence themselves into a minority.
#   1. 20 s into the cut, 5 and 6 lose their links too. 7 and 8 still hear
#      each other (no lease runs out) and, in a minority that declares
#      nobody, hold 5 and 6 live: in their ring the would-be observers of
#      1-4 are 5 and 6, not they. Their sweep backed off after their fence
#      (asks at about 0, 2, 6, 14 and 30 s, then 62).
#   2. 35 s into the cut it heals for 7 and 8: alive at 1-4 within 10 s.
#      A node of a minority asks every member of the other side every base
#      (proto/fresh.h ftd_fresh_sweep_near); the majority never asks a
#      member it holds dead, so without that rule 7 and 8 waited for
#      their next ask, 27 s later.
#   3. 5 and 6 get their links back: everyone alive everywhere.
#
#   n1 .. n8 ── br0 (br1: the other side of the cut)
source "$(dirname "$0")/../lib.sh"

# The schedule is the module's in seconds; stretched, 10 s stop telling
# the rule from the backoff.
[ "${FTD_TEST_SCALE:-1}" = 1 ] ||
	skip "its bounds are the sweep's schedule at a base of one second, not stretched (FTD_TEST_SCALE=$FTD_TEST_SCALE)"

N=8
TIMEOUT_MS=200
cluster_create "$N"
switch_second_bridge
cluster_up "$FTD_TEST_PERIOD" "${TIMEOUT_MS}ms"
wait_until 60 all_alive || { n 1 ftstat; fail "cluster did not come up"; }
watch_devices $(seq 1 $N)

fenced_all() { local i; for i in "$@"; do [ "$(stat_counter "$i" fenced)" -ge 1 ] || return 1; done; }
minority_none() { local i; for i in $(seq 1 $N); do [ "$(stat_counter "$i" minority)" = 0 ] || return 1; done; }
# alive_at OBSERVERS -- NODES: each of OBSERVERS holds each of NODES alive.
alive_at() {
	local all="$*" i j
	for i in ${all%% -- *}; do
		for j in ${all##* -- }; do
			[ "$(node_state "$i" "$j")" = alive ] || return 1
		done
	done
}
# sleep_to S: until S seconds after the cut.
sleep_to() {
	local left=$(( $1 - ($(now_ns) - cut_at) / 1000000000 ))
	[ "$left" -le 0 ] || sleep "$left"
}

cut_at=$(now_ns)
switch_move br1 5 6 7 8
log "nodes 5-8 apart from 1-4"
wait_until 20 fenced_all 5 6 7 8 || fail "nodes 5-8 did not all fence themselves"
wait_until 20 alive_at 7 -- 8 || { n 7 ftstat; fail "node 7 does not hold node 8 alive in the cut"; }

# --- 1. the minority's nodes next to the other side go too
sleep_to 20
cut_node 5 > /dev/null
cut_node 6 > /dev/null
log "nodes 5 and 6 cut off as well; 7 holds them $(node_state 7 5), $(node_state 7 6)"

# --- 2. the cut heals for 7 and 8
sleep_to 35
[ "$(node_state 7 5)" = alive ] ||
	log "node 7 holds node 5 $(node_state 7 5), not alive: the test does not show what it is for"
healed=$(now_ns)
switch_move br0 5 6 7 8
wait_until 10 alive_at 1 2 3 4 -- 7 8 ||
	{ n 1 ftstat; n 7 ftstat; fail "nodes 7 and 8 not alive at 1-4 within 10 s of the heal (5 and 6 still cut off)"; }
log "nodes 7 and 8 alive at 1-4 $(( ($(now_ns) - healed) / 1000000 )) ms after the heal, 5 and 6 still cut off"

# --- 3. 5 and 6 back
sw ftd-link s5r0 up > /dev/null
sw ftd-link s6r0 up > /dev/null
wait_until 30 all_alive || { n 1 ftstat; n 5 ftstat; fail "nodes 5 and 6 did not rejoin"; }
wait_until 10 minority_none || fail "a node still says it is in a minority after the heal"
for i in 1 2 3 4; do
	for j in 1 2 3 4; do
		has_event "$FTD_TMP/dev.$i" NODE_DEAD "$j" && fail "node $i declared node $j dead"
	done
	[ "$(event_query count "$FTD_TMP/dev.$i" FENCED node "$i")" = 0 ] || fail "node $i was fenced"
done
log "everyone alive again; 1-4 never declared each other nor fenced"
log "ok"
