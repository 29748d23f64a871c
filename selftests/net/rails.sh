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
wait_until 60 all_alive || fail "cluster did not come up"
watch_devices $(seq 1 "$N")

# rail_events FILE EVENT NODE RAIL: how many
rail_events() {
	jq -c --arg ev "$2" --argjson n "$3" --argjson r "$4" \
		'select(.event == $ev and .node == $n and .rail == $r)' "$1" | wc -l
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
all_alive || fail "a node with one rail left is not alive everywhere"
log "node 3 lost rail 1: IFACE_DEAD at all $N nodes (node 3's own from its link), node alive"

# --- and comes back
sw ftd-link s3r1 up > /dev/null
wait_until 20 everyone_rail IFACE_RESTORED 3 1 || fail "IFACE_RESTORED for node 3 rail 1 not everywhere"
log "rail 1 of node 3 back: IFACE_RESTORED everywhere"

# --- every rail of node 2 goes: that is the node
sw ftd-link s2r0 down > /dev/null
sw ftd-link s2r1 down > /dev/null
wait_until 20 bash -c "for i in 1 3 4; do grep -q '\"event\":\"NODE_DEAD\".*\"node\":2,' $FTD_TMP/dev.\$i || exit 1; done" ||
	fail "node 2 with no rail left not declared dead"
log "node 2 lost both rails: NODE_DEAD"
log "ok"
