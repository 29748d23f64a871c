#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# repair.sh: a notice lost on every path is still delivered (anti-entropy).
#   6 nodes, k = 2. Everything sent to node 3 is dropped (netem loss 100 %
#   on its switch port: node 3 still sends, so nobody times it out, and it
#   declares nobody while it hears nobody) while node 6 is cut off and
#   declared dead by the others. Node 6 is neither observed by node 3 nor
#   one of its observers, so once node 3 hears again only the digests it
#   exchanges can tell it: NODE_DEAD 6 at node 3 exactly once, nobody
#   fenced, nobody else declared; then the views agree and the repairs stop.
#
#   n1 .. n6 ── br0
source "$(dirname "$0")/../lib.sh"

N=6
cluster_create "$N"
cluster_up 10ms 100ms
wait_until 30 all_alive || { n 1 ftstat; fail "cluster did not come up"; }
watch_devices 1 2 4 5
watch_events 3
sleep 1

repairs() {
	local i sum=0
	for ((i = 1; i <= N; i++)); do
		sum=$((sum + $(stat_counter "$i" repairs)))
	done
	echo "$sum"
}

sw tc qdisc add dev s3r0 root netem loss 100% || fail "netem on node 3's port"
deaf=$(now_ns)
cut_node 6 > /dev/null
others_know() {
	local i
	for i in 1 2 4 5; do
		has_event "$FTD_TMP/dev.$i" NODE_DEAD 6 || return 1
	done
}
wait_until 20 others_know || { n 1 ftstat; fail "node 6 not declared dead at 1, 2, 4, 5"; }
sleep 0.5
has_event "$FTD_TMP/dev.3" NODE_DEAD 6 && fail "node 3 heard of the death through netem"
sw tc qdisc del dev s3r0 root || fail "netem off node 3's port"
hears=$(now_ns)
log "node 3 heard nothing for $(( (hears - deaf) / 1000000 )) ms, while node 6 was declared dead"

wait_until 30 has_event "$FTD_TMP/dev.3" NODE_DEAD 6 ||
	{ n 3 ftstat; n 3 ftctl stats; fail "node 3 never learnt of node 6's death"; }
t=$(first_event_time "$FTD_TMP/dev.3" NODE_DEAD 6)
log "node 3: NODE_DEAD 6 $(( (t - hears) / 1000000 )) ms after it heard again (digests every 1 s +-25 %)"
sleep 1
[ "$(count_events "$FTD_TMP/dev.3" NODE_DEAD 6)" = 1 ] || fail "node 3: NODE_DEAD 6 not exactly once"
[ "$(count_events "$FTD_TMP/nl.3" NODE_DEAD 6)" = 1 ] || fail "node 3 (netlink): NODE_DEAD 6 not exactly once"
for ((i = 1; i <= 5; i++)); do
	grep -q FENCED "$FTD_TMP/dev.$i" && fail "node $i was fenced"
	[ "$(count_events "$FTD_TMP/dev.$i" NODE_DEAD 6)" = 1 ] || fail "node $i: NODE_DEAD 6 not once"
	for ((j = 1; j <= 5; j++)); do
		has_event "$FTD_TMP/dev.$i" NODE_DEAD "$j" && fail "node $i declared node $j dead"
	done
done
[ "$(repairs)" -ge 1 ] || fail "no node counts a repair"

# Agreed views: digests keep going, repairs do not (8 s: several rounds).
before=$(repairs)
sleep 8
after=$(repairs)
[ "$after" = "$before" ] || fail "views still differ: repairs $before -> $after"
log "views agree: $after repairs in all, none in the last 8 s"
log "ok"
