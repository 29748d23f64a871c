#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# preds_dead.sh: every survivor's observed predecessors die at once. Each
# survivor then hears nobody, as if it were the one cut off; it asks a few
# other members (PROBE) whether it can still reach anyone, and one answer
# is enough to trust its own silence verdicts.
#   6 nodes, k = 2; nodes 2, 3, 5 and 6 cut off together: node 1 observes
#   6 and 5, node 4 observes 3 and 2, and 1 and 4 send each other nothing.
#   Both declare all four dead, once each, and never each other.
#
#   n1 .. n6 ── br0
source "$(dirname "$0")/../lib.sh"

N=6
cluster_create "$N"
cluster_up 10ms 100ms
wait_until 30 all_alive || { n 1 ftstat; fail "cluster did not come up"; }
watch_events 1
watch_events 4
sleep 0.5

before=$(now_ns)
printf 'link set s%sr0 down\n' 2 3 5 6 | sw ip -batch - || fail "cannot cut the four off"
log "nodes 2, 3, 5, 6 cut off in $(( ($(now_ns) - before) / 1000000 )) ms"
all_declared() {
	local i j
	for i in 1 4; do
		for j in 2 3 5 6; do
			has_event "$FTD_TMP/dev.$i" NODE_DEAD "$j" || return 1
		done
	done
}
wait_until 20 all_declared || { n 1 ftstat; n 4 ftstat; fail "the four were not all declared dead at 1 and 4"; }
sleep 0.5
for i in 1 4; do
	for j in 2 3 5 6; do
		[ "$(count_events "$FTD_TMP/dev.$i" NODE_DEAD "$j")" = 1 ] ||
			fail "node $i: NODE_DEAD $j not exactly once"
		[ "$(count_events "$FTD_TMP/nl.$i" NODE_DEAD "$j")" = 1 ] ||
			fail "node $i (netlink): NODE_DEAD $j not exactly once"
		t=$(first_event_time "$FTD_TMP/dev.$i" NODE_DEAD "$j")
		log "node $i: NODE_DEAD $j $(( (t - before) / 1000 )) us after the cut (timeout 100 ms)"
	done
done
has_event "$FTD_TMP/dev.1" NODE_DEAD 4 && fail "node 1 declared node 4 dead"
has_event "$FTD_TMP/dev.4" NODE_DEAD 1 && fail "node 4 declared node 1 dead"
[ "$(node_state 1 4)" = alive ] || fail "node 1 holds node 4 $(node_state 1 4)"
[ "$(node_state 4 1)" = alive ] || fail "node 4 holds node 1 $(node_state 4 1)"
log "ok"
