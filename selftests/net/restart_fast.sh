#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# restart_fast.sh: a node that crashes and comes back before anyone timed
# it out (a fast reboot) is still reported: the incarnation the others held
# alive ended, and with it the ranks registered there.
#   3 nodes, timeout 10 s. Node 2 holds a rank (job 7, rank 4). Its frames
#   dropped (so that nothing it says on the way down is heard: netem loss
#   100 %), its rank killed, its instance restarted, its frames let through
#   again: all well within the timeout.
#   Nodes 1 and 3 each deliver, once: NODE_DEAD of the old incarnation,
#   RANKS_DEAD of the rank, NODE_RESTORED at the new incarnation.
#
#   n1 n2 n3 ── br0
source "$(dirname "$0")/../lib.sh"

TIMEOUT_S=$(scaled 10)
cluster_create 3
cluster_up "$(scaled 200)ms" "${TIMEOUT_S}s"
wait_until 30 all_alive || { n 1 ftstat; fail "cluster did not come up"; }
watch_events 1
watch_events 3
ip netns exec "$(ns_of 2)" ftd-devwatch -r 7:4 -q > /dev/null 2> "$FTD_TMP/rank.err" &
rank=$!
wait_until 10 grep -q ready "$FTD_TMP/rank.err" || fail "rank did not register"
sleep 1	# the registration reaches everyone
inc1=$(n 2 ftctl show -j | jq '.incarnation')

start=$(now_ns)
# Everything node 2 sends from here is lost, not queued (a cut link would
# hold its last notices back and deliver them on reconnection).
n 2 tc qdisc add dev n2r0 root netem loss 100% || fail "netem on node 2"
kill -9 "$rank"
wait "$rank" 2> /dev/null || true
n 2 ftctl down
n 2 ftctl apply "$FTD_CONF" > /dev/null || fail "node 2: apply failed"
n 2 tc qdisc del dev n2r0 root || fail "netem off on node 2"
took=$(( ($(now_ns) - start) / 1000000 ))
inc2=$(n 2 ftctl show -j | jq '.incarnation')
log "node 2 silenced, rank killed, instance restarted ($inc1 -> $inc2), heard again in $took ms (timeout ${TIMEOUT_S} s)"
[ "$took" -lt $((TIMEOUT_S * 1000 / 2)) ] ||
	fail "the restart took $took ms, not well inside the timeout: the case is not the one tested"

restored() {
	local i
	for i in 1 3; do
		has_event "$FTD_TMP/dev.$i" NODE_RESTORED 2 incarnation "$inc2" || return 1
	done
}
wait_until $((TIMEOUT_S / 2)) restored || { n 1 ftstat; cat "$FTD_TMP/dev.1"; fail "node 2's new incarnation not seen as a restart"; }
sleep 1
for i in 1 3; do
	for src in dev nl; do
		f=$FTD_TMP/$src.$i
		c=$(count_events "$f" NODE_DEAD 2 incarnation "$inc1")
		[ "$c" = 1 ] || { cat "$f"; fail "node $i ($src): NODE_DEAD of incarnation $inc1 $c times, not once"; }
		c=$(count_events "$f" NODE_DEAD 2 incarnation "$inc2")
		[ "$c" = 0 ] || fail "node $i ($src): the new incarnation declared dead"
		c=$(count_events "$f" NODE_RESTORED 2 incarnation "$inc2")
		[ "$c" = 1 ] || fail "node $i ($src): NODE_RESTORED $c times, not once"
	done
	c=$(count_events "$FTD_TMP/dev.$i" RANKS_DEAD 2 job 7 rank 4)
	[ "$c" = 1 ] || { cat "$FTD_TMP/dev.$i"; fail "node $i: RANKS_DEAD of rank 4 $c times, not once"; }
	order=$(jq -r 'select(.node == 2 and (.event == "NODE_DEAD" or .event == "RANKS_DEAD" or
		.event == "NODE_RESTORED")) | .event' "$FTD_TMP/dev.$i" | tr '\n' ' ')
	[ "$order" = "NODE_DEAD RANKS_DEAD NODE_RESTORED " ] || fail "node $i: events in the order $order"
done
wait_until 10 all_alive || fail "cluster not all alive afterwards"
log "nodes 1 and 3: NODE_DEAD (incarnation $inc1), RANKS_DEAD (job 7 rank 4), NODE_RESTORED ($inc2), once each"
log "ok"
