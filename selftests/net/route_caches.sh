#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# route_caches.sh: what the node table costs, as the module reports it, and
# route caches only for the nodes the timer sends to every tick. A route
# cache holds an entry per CPU: one for every rail of every node would cost
# a 128-CPU machine 1 GB at 100,000 nodes with two rails.
#   1. 4 nodes up with two rails, 100 more listed but never started: each
#      node holds at least its k = 2 successors' rails (4 caches) and at
#      most 2 x k nodes' (its successors and the nodes it watches: 8),
#      never one per node (208); its memory report (mem_nodes) counts 104
#      nodes of a plausible size, and no rank table (mem_ranks 0).
#   2. node 4 cut off: the ring changes and the caches follow (at most 8
#      still); 1-3 stay alive at each other for several timeouts: the
#      heartbeats of the changed ring reach their new successors.
#   3. node 4 back: alive everywhere, caches within bounds again.
#   4. node 1 down: it holds no route cache, and still its node table.
#
#   n1 .. n4 ── br0, br1; nodes 5-104 at addresses nothing answers
source "$(dirname "$0")/../lib.sh"

N=4
ABSENT=100
K=2
RAILS=2
cluster_create "$N" "$RAILS"
cluster_config "$FTD_TMP/cluster.conf" "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT" 4
for ((i = N + 1; i <= N + ABSENT; i++)); do
	echo "$i $(addr4 0 $((i + 96))) $(addr4 1 $((i + 96)))"
done >> "$FTD_TMP/cluster.conf"
for i in 1 2 3 4; do
	n "$i" ftctl apply "$FTD_TMP/cluster.conf" > /dev/null || fail "node $i: apply failed"
done
# alive_among NODE...: each NODE holds each other NODE alive.
alive_among() {
	local i j
	for i in "$@"; do
		for j in "$@"; do
			[ "$i" = "$j" ] || [ "$(node_state "$i" "$j")" = alive ] || return 1
		done
	done
}
# caches_within NODE...: each NODE's route caches between K x RAILS and 2 x K x RAILS.
caches_within() {
	local i c
	for i in "$@"; do
		c=$(stat_counter "$i" route_caches)
		log "node $i: $c route caches ($((N + ABSENT)) nodes of $RAILS rails listed)"
		[ "$c" -ge $((K * RAILS)) ] && [ "$c" -le $((2 * K * RAILS)) ] || return 1
	done
}
wait_until 30 alive_among 1 2 3 4 || { n 1 ftstat; fail "nodes 1-4 not alive at each other"; }
caches_within 1 2 3 4 || fail "route caches not within $((K * RAILS))..$((2 * K * RAILS))"
for i in 1 2 3 4; do
	n "$i" ftctl stats -j | jq -e --argjson n $((N + ABSENT)) '
		.mem_nodes >= $n * 512 and .mem_nodes <= $n * 4096 and .mem_ranks == 0' > /dev/null ||
		fail "node $i reports $(n "$i" ftctl stats -j | jq -c '{mem_nodes, mem_ranks}') for $((N + ABSENT)) nodes"
done
log "node 1: $(n 1 ftctl stats -j | jq -r --argjson n $((N + ABSENT)) '"\(.mem_nodes) bytes for \($n) nodes (\(.mem_nodes / $n | floor) a node), rank tables \(.mem_ranks)"')"
for i in 1 2 3; do
	watch_events "$i"
done

# --- 2. node 4 cut off on both rails
cut_node 4 0 > /dev/null
cut_node 4 1 > /dev/null
dead_4() {
	local i
	for i in 1 2 3; do
		has_event "$FTD_TMP/dev.$i" NODE_DEAD 4 || return 1
	done
}
wait_until 10 dead_4 || { for i in 1 2 3; do n "$i" ftstat; done; fail "node 4 not declared dead at 1, 2 and 3"; }
# Several timeouts on the new ring: a successor without heartbeats would be declared.
sleep "$(awk -v t="${FTD_TEST_TIMEOUT%ms}" 'BEGIN { print 5 * t / 1000 }')"
alive_among 1 2 3 || { for i in 1 2 3; do n "$i" ftstat; done; fail "1-3 not alive at each other after the ring changed"; }
for i in 1 2 3; do
	for j in 1 2 3; do
		[ "$(count_events "$FTD_TMP/dev.$i" NODE_DEAD "$j")" = 0 ] || fail "node $i declared node $j dead"
	done
done
caches_within 1 2 3 || fail "route caches not within bounds after the ring changed"

# --- 3. node 4 back
sw ftd-link s4r0 up > /dev/null
sw ftd-link s4r1 up > /dev/null
wait_until 30 alive_among 1 2 3 4 || { for i in 1 2 3 4; do n "$i" ftstat; done; fail "node 4 not alive again"; }
caches_within 1 2 3 4 || fail "route caches not within bounds after node 4 came back"

# --- 4. node 1 down: its caches go with the timer, its node table stays
n 1 ftctl down > /dev/null || fail "node 1: down failed"
[ "$(stat_counter 1 route_caches)" = 0 ] || fail "node 1 down holds $(stat_counter 1 route_caches) route caches"
[ "$(stat_counter 1 mem_nodes)" -gt 0 ] || fail "node 1 down reports no node table"
log "PASS: route caches only for the nodes sent to every tick; memory reported"
