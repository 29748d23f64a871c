#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rejoin_quiet.sh: a node fenced after a cut rejoins without harm. While it
# was cut off it suspected its predecessors; the group holds them alive, and
# so must it once it is back, or its predecessors would be nodes that send
# to others and it would declare them a timeout later.
#   8 nodes, k = 2. Node 5 cut off until it is declared dead everywhere,
#   has suspected 4 and 3, and has fenced itself (a timeout of hearing
#   nobody); reconnected, it rejoins. For 3 s after that: node 5 declares
#   nobody and was fenced once, nobody else is fenced, every other node
#   delivered NODE_DEAD 5 and NODE_RESTORED 5 once, no other NODE_DEAD
#   anywhere.
#
#   n1 .. n8 ── br0
source "$(dirname "$0")/../lib.sh"

N=8
cluster_create "$N"
cluster_up "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT"
wait_until 30 all_alive || { n 1 ftstat; fail "cluster did not come up"; }
watch_devices $(seq 1 "$N")
sleep 0.5

# others_have EVENT: every node but 5 delivered EVENT about node 5.
others_have() {
	local i
	for ((i = 1; i <= N; i++)); do
		[ "$i" = 5 ] || has_event "$FTD_TMP/dev.$i" "$1" 5 || return 1
	done
}

cut_node 5 > /dev/null
wait_until 20 others_have NODE_DEAD || { n 1 ftstat; fail "node 5 not declared dead everywhere"; }
suspects_both() { has_event "$FTD_TMP/dev.5" NODE_SUSPECT 4 && has_event "$FTD_TMP/dev.5" NODE_SUSPECT 3; }
wait_until 10 suspects_both || { n 5 ftstat; fail "node 5, cut off, did not suspect 4 and 3"; }
wait_until 10 grep -q FENCED "$FTD_TMP/dev.5" || { n 5 ftstat; fail "node 5, cut off, did not fence itself"; }
sleep 0.3
log "node 5 cut off: declared dead by the 7 others; it suspects 4 and 3, and fenced itself"

back=$(now_ns)
sw ftd-link s5r0 up > /dev/null
wait_until 20 others_have NODE_RESTORED || { n 1 ftstat; fail "node 5 not restored everywhere"; }
wait_until 20 all_alive || { n 5 ftstat; fail "not all alive after the rejoin"; }
sleep 3

bad=0
for ((i = 1; i <= N; i++)); do
	if [ "$i" = 5 ]; then
		c=$(jq -c 'select(.event == "NODE_DEAD")' "$FTD_TMP/dev.5" | wc -l)
		[ "$c" = 0 ] || { log "node 5 delivered $c NODE_DEAD: $(jq -c 'select(.event == "NODE_DEAD") |
			[.node, .origin]' "$FTD_TMP/dev.5" | tr '\n' ' ')" >&2; bad=1; }
		c=$(grep -c '"event":"FENCED"' "$FTD_TMP/dev.5")
		[ "$c" = 1 ] || { log "node 5 was fenced $c times" >&2; bad=1; }
		continue
	fi
	grep -q FENCED "$FTD_TMP/dev.$i" && { log "node $i was fenced" >&2; bad=1; }
	for ev in NODE_DEAD NODE_RESTORED; do
		c=$(count_events "$FTD_TMP/dev.$i" "$ev" 5)
		[ "$c" = 1 ] || { log "node $i: $ev 5 delivered $c times" >&2; bad=1; }
	done
	c=$(jq -c 'select(.event == "NODE_DEAD" and .node != 5)' "$FTD_TMP/dev.$i" | wc -l)
	[ "$c" = 0 ] || { log "node $i delivered $c other NODE_DEAD" >&2; bad=1; }
done
if [ "$bad" != 0 ]; then
	# What each of 5 and its observers saw, in order, ms from the reconnection.
	for i in 5 6 7; do
		log "node $i: $(jq -r --argjson t0 "$back" 'select(.event != "NODE_SUSPECT" or .node == 5) |
			"\(.event) \(.node)@\(.incarnation)/\(.origin) +\((.time_ns - $t0) / 1000000 | floor)ms"' \
			"$FTD_TMP/dev.$i" | tr '\n' ',')" >&2
	done
	for i in 6 7; do
		log "node $i holds 5: $(n "$i" ftstat -j | jq -c '.nodes[] | select(.id == 5)')" >&2
	done
	dmesg | grep -E "fenced|declared" | tail -20 >&2
	fail "the rejoin of node 5 did harm"
fi
log "node 5 rejoined: fenced once, it declared nobody, nobody else was fenced, NODE_DEAD 5 and NODE_RESTORED 5 once at each other node"
log "ok"
