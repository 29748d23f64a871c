#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rails.sh: two rails (parallel fabrics). Losing one rail of a node is not
# losing the node: IFACE_DEAD for that node and rail everywhere, the node
# stays alive, and IFACE_RESTORED when the rail returns. The node itself
# sees its link go at once. Losing every rail is the node's death.
#
#   n1..n4 ─ rail 0 ─ br0  (192.0.2.0/24)
#   n1..n4 ─ rail 1 ─ br1  (198.51.100.0/24)
source "$(dirname "$0")/../lib.sh"

N=4
cluster_create "$N" 2
cluster_up "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT"
wait_until 60 all_alive || not_up "cluster did not come up"
watch_devices $(seq 1 "$N")

# rail_events FILE EVENT NODE RAIL: how many
rail_events() {
	jq -c --arg ev "$2" --argjson n "$3" --argjson r "$4" \
		'select(.event == $ev and .node == $n and .rail == $r)' "$1" | wc -l
}
# settled SECONDS: no node recorded an event for that long. Suspicions are
# left out: when the whole emulated guest stalls for half a timeout, every
# node suspects its predecessors at once and takes it back a tick later (a
# CI run showed exactly that); the hostile-case tests judge those
# (quiet_since). Rail reports, deaths and restorations count.
all_events() {
	local i
	for ((i = 1; i <= N; i++)); do
		grep -v '"event":"NODE_SUSPECT"\|"event":"NODE_ALIVE"' "$FTD_TMP/dev.$i"
	done | wc -l
}
# On failure, prints what came meanwhile (to tell a storm from a suspicion).
settled() {
	local before i
	before=$(all_events)
	for ((i = 1; i <= N; i++)); do
		cp "$FTD_TMP/dev.$i" "$FTD_TMP/settle.$i"
	done
	sleep "$1"
	[ "$before" = "$(all_events)" ] && return 0
	for ((i = 1; i <= N; i++)); do
		diff "$FTD_TMP/settle.$i" "$FTD_TMP/dev.$i" | sed -n "s/^> /node $i: /p"
	done
	return 1
}
everyone_rail() { # EVENT NODE RAIL
	local i
	for ((i = 1; i <= N; i++)); do
		[ "$(rail_events "$FTD_TMP/dev.$i" "$@")" -ge 1 ] || return 1
	done
}

# --- rail 1 of node 3 goes
sw ftd-link s3r1 down > /dev/null
wait_until 20 everyone_rail IFACE_DEAD 3 1 || { n 1 ftstat -r; fail "IFACE_DEAD for node 3 rail 1 not everywhere"; }
sleep 0.5
for ((i = 1; i <= N; i++)); do
	[ "$(rail_events "$FTD_TMP/dev.$i" IFACE_DEAD 3 1)" = 1 ] || fail "node $i: IFACE_DEAD not exactly once"
	[ "$(count_events "$FTD_TMP/dev.$i" NODE_DEAD 3)" = 0 ] || fail "node $i: one rail lost was taken for the node"
done
# Node 3 hears nobody on rail 1 now: its own link, not its peers' rails.
for ((i = 1; i <= N; i++)); do
	others=$(jq -c 'select(.event == "IFACE_DEAD" and .node != 3)' "$FTD_TMP/dev.$i" | wc -l)
	[ "$others" = 0 ] || fail "node $i: $others IFACE_DEAD about nodes other than 3 (node 3 blamed its peers for its own link)"
done
all_alive || fail "a node with one rail left is not alive everywhere"
log "node 3 lost rail 1: IFACE_DEAD at all $N nodes (node 3's own from its link), node alive"

# --- and comes back
sw ftd-link s3r1 up > /dev/null
wait_until 20 everyone_rail IFACE_RESTORED 3 1 || fail "IFACE_RESTORED for node 3 rail 1 not everywhere"
sleep 0.5
for ((i = 1; i <= N; i++)); do
	[ "$(rail_events "$FTD_TMP/dev.$i" IFACE_RESTORED 3 1)" = 1 ] || fail "node $i: IFACE_RESTORED not exactly once"
done
settled 2 || fail "rail events still flowing after the rail came back"
log "rail 1 of node 3 back: IFACE_RESTORED everywhere"

# --- the rail flaps: reports from several observers cross in flight, and
# every node must settle on the rail's last state without an event storm.
for ((f = 0; f < 5; f++)); do
	sw ftd-link s3r1 down > /dev/null
	sleep 0.$((15 + f * 3))
	sw ftd-link s3r1 up > /dev/null
	sleep 0.0$((2 + f * 2))
done
sleep 1
settled 2 || fail "rail events still flowing after the flapping stopped"
for ((i = 1; i <= N; i++)); do
	last=$(jq -r 'select((.event == "IFACE_DEAD" or .event == "IFACE_RESTORED") and
		.node == 3 and .rail == 1) | .event' "$FTD_TMP/dev.$i" | tail -n1)
	[ "$last" = IFACE_RESTORED ] || fail "node $i: rail 1 of node 3 ends $last after the flapping"
	count=$(wc -l < "$FTD_TMP/dev.$i")
	[ "$count" -le 40 ] || fail "node $i: $count events for 6 rail outages"
done
all_alive || fail "flapping one rail changed a node's state"
log "rail 1 of node 3 flapped 5 times: every node ends with it restored, $(wc -l < "$FTD_TMP/dev.1") events at node 1"

# --- every rail of node 2 goes: that is the node
sw ftd-link s2r0 down > /dev/null
sw ftd-link s2r1 down > /dev/null
wait_until 20 bash -c "for i in 1 3 4; do grep -q '\"event\":\"NODE_DEAD\".*\"node\":2,' $FTD_TMP/dev.\$i || exit 1; done" ||
	fail "node 2 with no rail left not declared dead"
log "node 2 lost both rails: NODE_DEAD"
log "ok"
