#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# route_caches.sh: what the node table costs, as the module reports it, and
# route caches only for the nodes the timer sends to every tick. A route
# cache holds an entry per CPU: one for every rail of every node would cost
# a 128-CPU machine 1 GB at 100,000 nodes with two rails.
#   1. 8 nodes up with two rails, 24 more listed but never started: each
#      node holds at least its k = 2 successors' rails (4 caches) and at
#      most 2 x k nodes' (its successors and the nodes it watches: 8),
#      never one per node (64); its memory report (mem_nodes) counts 32
#      nodes of a plausible size, and no rank table (mem_ranks 0).
#   2. nodes 2, 3 and 4 cut off one after another: node 1's successors
#      change three times (2 3, 3 4, 4 5, 5 6: 10 caches if it kept every
#      one), and within a few seconds it holds at most 8 again (an idle
#      cache is taken over, FTD_ROUTE_IDLE_TICKS, and freed after
#      FTD_ROUTE_FREE_TICKS); the others stay alive at each other for 5
#      timeouts: the heartbeats of the changed ring reach their successors.
#   3. 2, 3 and 4 back: alive everywhere, caches within bounds again (12
#      at node 1 while the old successors' were still in use).
#   4. node 1 down: it holds no route cache, and still its node table.
#
#   n1 .. n8 ── br0, br1; nodes 9-32 at addresses nothing answers
source "$(dirname "$0")/../lib.sh"

# Every heartbeat there goes through routes.c too, in every other test.
[ -z "${FTD_DEBUG_KERNEL:-}" ] ||
	skip "8 nodes of two rails never all hear each other on the debug kernel under emulation (dropped frames at a stretch of 10 and of 20)"

N=8
# Few enough that their PROBEs (one a second each, and the ARP for them)
# leave a debug kernel's emulated CPU time for the heartbeats.
ABSENT=24
K=2
RAILS=2
cluster_create "$N" "$RAILS"
cluster_config "$FTD_TMP/cluster.conf" "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT" 4
for ((i = N + 1; i <= N + ABSENT; i++)); do
	echo "$i $(addr4 0 $((i + 92))) $(addr4 1 $((i + 92)))"
done >> "$FTD_TMP/cluster.conf"
for ((i = 1; i <= N; i++)); do
	n "$i" ftctl apply "$FTD_TMP/cluster.conf" > /dev/null || fail "node $i: apply failed"
done
# caches_within NODE...: each NODE's route caches between K x RAILS and
# 2 x K x RAILS; CACHES says how many each holds.
caches_within() {
	local i c
	CACHES=
	for i in "$@"; do
		c=$(stat_counter "$i" route_caches)
		CACHES+="$i:$c "
		[ "$c" -ge $((K * RAILS)) ] && [ "$c" -le $((2 * K * RAILS)) ] || return 1
	done
}
# caches_settle NODE...: caches_within, within 10 s (freed after FTD_ROUTE_FREE_TICKS).
caches_settle() {
	wait_until 10 caches_within "$@" ||
		fail "route caches (node:count) $CACHES not within $((K * RAILS))..$((2 * K * RAILS)) $WHEN"
	log "route caches (node:count) $CACHES$WHEN, of $((N + ABSENT)) nodes of $RAILS rails listed"
}
ALL=$(seq 1 "$N")
wait_until 60 alive_among $ALL || { n 1 ftstat; fail "nodes 1-$N not alive at each other"; }
WHEN="with the cluster up"
caches_settle $ALL
for i in $ALL; do
	n "$i" ftctl stats -j | jq -e --argjson n $((N + ABSENT)) '
		.mem_nodes >= $n * 512 and .mem_nodes <= $n * 4096 and .mem_ranks == 0' > /dev/null ||
		fail "node $i reports $(n "$i" ftctl stats -j | jq -c '{mem_nodes, mem_ranks}') for $((N + ABSENT)) nodes"
done
log "node 1: $(n 1 ftctl stats -j | jq -r --argjson n $((N + ABSENT)) '"\(.mem_nodes) bytes for \($n) nodes (\(.mem_nodes / $n | floor) a node), rank tables \(.mem_ranks)"')"
LIVE="1 5 6 7 8"
for i in $LIVE; do
	watch_events "$i"
done

# --- 2. nodes 2, 3, 4 cut off in turn: node 1's successors move on each time
for c in 2 3 4; do
	cut_node "$c" 0 > /dev/null
	cut_node "$c" 1 > /dev/null
	wait_until 20 has_event "$FTD_TMP/dev.1" NODE_DEAD "$c" ||
		{ n 1 ftstat; fail "node $c not declared dead at node 1"; }
done
dead_234() {
	local i c
	for i in $LIVE; do
		for c in 2 3 4; do
			has_event "$FTD_TMP/dev.$i" NODE_DEAD "$c" || return 1
		done
	done
}
wait_until 20 dead_234 || { for i in $LIVE; do n "$i" ftstat; done; fail "2, 3 and 4 not dead at every live node"; }
# Several timeouts on the new ring: a successor without heartbeats would be declared.
sleep "$(awk -v t="${FTD_TEST_TIMEOUT%ms}" 'BEGIN { print 5 * t / 1000 }')"
alive_among $LIVE || { for i in $LIVE; do n "$i" ftstat; done; fail "$LIVE not alive at each other after the ring changed"; }
for i in $LIVE; do
	for j in $LIVE; do
		[ "$(count_events "$FTD_TMP/dev.$i" NODE_DEAD "$j")" = 0 ] || fail "node $i declared node $j dead"
	done
done
WHEN="after the ring changed (node 1 sent to 5 successors in turn)"
caches_settle $LIVE

# --- 3. 2, 3 and 4 back
for c in 2 3 4; do
	sw ftd-link "s${c}r0" up > /dev/null
	sw ftd-link "s${c}r1" up > /dev/null
done
wait_until 60 alive_among $ALL || { for i in $ALL; do n "$i" ftstat; done; fail "2, 3 and 4 not alive again"; }
WHEN="after 2, 3 and 4 came back"
caches_settle $ALL

# --- 4. node 1 down: its caches go with the timer, its node table stays
n 1 ftctl down > /dev/null || fail "node 1: down failed"
[ "$(stat_counter 1 route_caches)" = 0 ] || fail "node 1 down holds $(stat_counter 1 route_caches) route caches"
[ "$(stat_counter 1 mem_nodes)" -gt 0 ] || fail "node 1 down reports no node table"
log "PASS: route caches only for the nodes sent to every tick; memory reported"
