#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# repair_restart.sh: a node that missed a restart still ends the incarnation
# it held, when all it learns later is that the next one died.
#   6 nodes, k = 2. Every notice sent to node 3 is dropped (deaf_to_notices in
#   lib.sh) while node 6, holding a rank (job 7, rank 4), crashes and
#   comes back at once (its frames lost meanwhile, as in restart_fast.sh):
#   the others deliver NODE_DEAD of its old incarnation, RANKS_DEAD of the
#   rank and NODE_RESTORED. Then node 6 is cut off for good and declared
#   dead at its new incarnation. Node 6 is neither observed by node 3 nor
#   one of its observers, so when node 3 gets notices again the digests
#   tell it only of the new incarnation's death. Node 3 must still deliver,
#   once each and in this order: NODE_DEAD of the old incarnation,
#   RANKS_DEAD of the rank (at the old incarnation, where it was
#   registered), NODE_DEAD of the new one. Nobody is fenced.
#
#   n1 .. n6 ── br0
source "$(dirname "$0")/../lib.sh"

N=6
cluster_create "$N"
cluster_up "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT"
wait_until 30 all_alive || { n 1 ftstat; fail "cluster did not come up"; }
watch_devices 1 2 4 5
watch_events 3
ip netns exec "$(ns_of 6)" ftd-devwatch -r 7:4 -q > /dev/null 2> "$FTD_TMP/rank.err" &
rank=$!
wait_until 10 grep -q ready "$FTD_TMP/rank.err" || fail "rank 7:4 did not register on node 6"
rank_known() { n 3 ftd-status -r 7:4 2>/dev/null | grep -q '"state":"alive"'; }
wait_until 10 rank_known || fail "node 3 does not hold rank 7:4 registered"
inc1=$(n 6 ftctl show -j | jq '.incarnation')

deaf_to_notices 3
deaf=$(now_ns)

# The crash and fast restart: what node 6 says on the way down is lost.
n 6 tc qdisc add dev n6r0 root netem loss 100% || fail "netem on node 6"
kill -9 "$rank"
wait "$rank" 2> /dev/null || :	# (137: the kill)
n 6 ftctl down
n 6 ftctl apply "$FTD_CONF" > /dev/null || fail "node 6: apply failed"
n 6 tc qdisc del dev n6r0 root || fail "netem off on node 6"
inc2=$(n 6 ftctl show -j | jq '.incarnation')
[ "$inc2" -gt "$inc1" ] || fail "node 6 restarted at incarnation $inc2, not above $inc1"

# events NODE EVENT INCARNATION: how many EVENT records about node 6 NODE has.
events() { count_events "$FTD_TMP/dev.$1" "$2" 6 incarnation "$3"; }
others_saw_restart() {
	local i
	for i in 1 2 4 5; do
		[ "$(events "$i" NODE_RESTORED "$inc2")" -ge 1 ] || return 1
	done
}
wait_until 20 others_saw_restart || { n 1 ftstat; fail "nodes 1, 2, 4, 5 did not see node 6 restart"; }
cut_node 6 > /dev/null
others_know() {
	local i
	for i in 1 2 4 5; do
		[ "$(events "$i" NODE_DEAD "$inc2")" -ge 1 ] || return 1
	done
}
wait_until 20 others_know || { n 1 ftstat; fail "node 6 ($inc2) not declared dead at 1, 2, 4, 5"; }
sleep 0.5
if grep -qE '"node":6[,}]' "$FTD_TMP/dev.3"; then
	cat "$FTD_TMP/dev.3"
	fail "node 3 heard of node 6 through the filter: the case is not the one tested"
fi
hears_notices 3
hears=$(now_ns)
log "node 3 got no notice for $(( (hears - deaf) / 1000000 )) ms, while node 6 restarted ($inc1 -> $inc2) and died"

node3_knows() { [ "$(events 3 NODE_DEAD "$inc2")" -ge 1 ]; }
wait_until 30 node3_knows || { n 3 ftstat; n 3 ftctl stats; fail "node 3 never learnt of node 6's death"; }
sleep 1
order=$(jq -r 'select(.node == 6) | "\(.event)@\(.incarnation)"' "$FTD_TMP/dev.3" | tr '\n' ' ')
log "node 3: $order"
[ "$order" = "NODE_DEAD@$inc1 RANKS_DEAD@$inc1 NODE_DEAD@$inc2 " ] ||
	fail "node 3 delivered \"$order\", not NODE_DEAD@$inc1 RANKS_DEAD@$inc1 NODE_DEAD@$inc2"
c=$(count_events "$FTD_TMP/dev.3" RANKS_DEAD 6 job 7 rank 4)
[ "$c" = 1 ] || fail "node 3: RANKS_DEAD of rank 7:4 $c times, not once"
for ((i = 1; i <= 5; i++)); do
	grep -q FENCED "$FTD_TMP/dev.$i" && fail "node $i was fenced"
	[ "$(events "$i" NODE_DEAD "$inc1")" = 1 ] || fail "node $i: NODE_DEAD 6 ($inc1) not once"
	[ "$(events "$i" NODE_DEAD "$inc2")" = 1 ] || fail "node $i: NODE_DEAD 6 ($inc2) not once"
done
log "ok"
