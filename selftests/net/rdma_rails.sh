#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rdma_rails.sh: an RDMA port is the truth of its rail (kmod/rdma.h,
# docs/rdma.md). Rail 1 of every node is RoCE: a Soft-RoCE (rdma_rxe)
# device over the node's rail-1 interface. The RDMA path of node 2's rail
# 1 goes away (its RDMA device is deleted) while the interface stays up
# and still carries IP:
#   - node 2 delivers IFACE_DEAD for its own rail 1 at once, from the RDMA
#     event, and sends nothing more on it;
#   - nodes 1 and 3 deliver IFACE_DEAD node 2 rail 1 within the rail
#     timeout, once each, and node 2 stays alive everywhere (rail 0);
#   - the interface still carries IP on rail 1 (node 2 still receives its
#     peers' heartbeats there): only its RDMA path was lost.
# ftstat shows each node's RDMA port behind rail 1 (active, then gone at
# node 2, then active again) and none behind rail 0.
# The device comes back: IFACE_RESTORED at node 2 at once, at the others
# when its heartbeats come again, once each. The times from the deletion
# (and the re-creation) to each event are logged. SKIP without rdma_rxe
# or the rdma tool.
#
#   n1..n3 ─ rail 0 ─ br0  (192.0.2.0/24)
#   n1..n3 ─ rail 1 ─ br1  (198.51.100.0/24), rxe device on each n<i>r1
source "$(dirname "$0")/../lib.sh"

command -v rdma > /dev/null || skip "no rdma tool (iproute2)"
modprobe rdma_rxe 2> /dev/null || skip "no rdma_rxe module in this kernel"

N=3
cluster_create "$N" 2
rxe() { echo "ftdrxe$$n$1"; }	# RDMA device names are global: unique per run
add_rxe() { n "$1" rdma link add "$(rxe "$1")" type rxe netdev "n${1}r1"; }
del_rxe() { n "$1" rdma link delete "$(rxe "$1")"; }
cleanup_rxe() {
	local i
	for ((i = 1; i <= N; i++)); do
		rdma link show "$(rxe "$i")/1" > /dev/null 2>&1 && del_rxe "$i"
	done
	return 0
}
at_exit cleanup_rxe
for ((i = 1; i <= N; i++)); do
	add_rxe "$i" || skip "cannot create a Soft-RoCE device over n${i}r1"
done
rdma link show "$(rxe 2)/1" | grep -q "state ACTIVE" ||
	{ rdma link show; fail "node 2's RDMA port is not active over an interface that is up"; }

cluster_up "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT"
wait_until 60 all_alive || not_up "cluster did not come up"
watch_devices $(seq 1 "$N")
sleep 0.5

rail_events() { # FILE EVENT NODE RAIL: how many
	jq -c --arg ev "$2" --argjson n "$3" --argjson r "$4" \
		'select(.event == $ev and .node == $n and .rail == $r)' "$1" | wc -l
}
rail_event_ms() { # FILE EVENT NODE RAIL SINCE_NS: ms from SINCE_NS to the first
	local t
	t=$(jq -r --arg ev "$2" --argjson n "$3" --argjson r "$4" \
		'select(.event == $ev and .node == $n and .rail == $r) | .time_ns' "$1" | head -n 1)
	echo $(( (t - $5) / 1000000 ))
}
rail1_rx_from() { # NODE PEER: frames NODE received from PEER on rail 1 (over IP)
	n "$1" ftstat -j | jq "[.. | objects | select(has(\"rails\") and .id == $2)][0].rails[1].rx"
}
# delays EVENT SINCE_NS: "LOCAL LAST": ms from SINCE_NS to EVENT of node 2's
# rail 1 at node 2 itself, and at the last of the other nodes.
delays() {
	local i ms last=0
	for i in 1 3; do
		ms=$(rail_event_ms "$FTD_TMP/dev.$i" "$1" 2 1 "$2")
		((ms > last)) && last=$ms
	done
	echo "$(rail_event_ms "$FTD_TMP/dev.2" "$1" 2 1 "$2") $last"
}
everyone_rail() { # EVENT NODE RAIL
	local i
	for ((i = 1; i <= N; i++)); do
		[ "$(rail_events "$FTD_TMP/dev.$i" "$@")" -ge 1 ] || return 1
	done
}
# rdma_state NODE RAIL: what ftstat -j says of the RDMA port behind the
# node's own rail ("active", "down", "gone"; "null": an IP rail).
rdma_state() {
	n "$1" ftstat -j | jq -r "[.. | objects | select(has(\"rails\") and .state == \"self\")][0].rails[$2].rdma.port_state"
}
says_rdma() { [ "$(rdma_state "$1" "$2")" = "$3" ]; }
# delivered_once EVENT: every node delivers EVENT of node 2's rail 1, once.
delivered_once() {
	local i
	wait_until 20 everyone_rail "$1" 2 1 ||
		{ n 1 ftstat -r; dmesg | grep ftdetect | tail; fail "$1 for node 2 rail 1 not everywhere"; }
	sleep 0.5
	for ((i = 1; i <= N; i++)); do
		[ "$(rail_events "$FTD_TMP/dev.$i" "$1" 2 1)" = 1 ] || fail "node $i: $1 not exactly once"
	done
}
for ((i = 1; i <= N; i++)); do
	[ "$(rail_events "$FTD_TMP/dev.$i" IFACE_DEAD 2 1)" = 0 ] ||
		fail "node $i: IFACE_DEAD of node 2 rail 1 while its RDMA port is active"
	wait_until 5 says_rdma "$i" 1 active ||
		{ n "$i" ftstat -r; fail "node $i: ftstat does not show rail 1's RDMA port active"; }
	[ "$(rdma_state "$i" 0)" = null ] || fail "node $i: rail 0, plain IP, shows an RDMA port"
done
n 2 ftstat -r | grep -q "^rdma: rail 1 (198.51.100.2) $(rxe 2) port 1 active, heartbeats over udp$" ||
	{ n 2 ftstat -r; fail "ftstat -r does not name node 2's RDMA port"; }

# --- node 2's RDMA device goes; its interface stays up
t0=$(now_ns)
del_rxe 2 || fail "cannot delete node 2's RDMA device"
delivered_once IFACE_DEAD
for ((i = 1; i <= N; i++)); do
	[ "$(count_events "$FTD_TMP/dev.$i" NODE_DEAD 2)" = 0 ] || fail "node $i: a lost RDMA rail was taken for the node"
done
all_alive || fail "node 2, with rail 0 left, is not alive everywhere"
n 2 ip link show n2r1 | grep -q "state UP" || fail "node 2's rail-1 interface went down: the test shows nothing"
rx_before=$(rail1_rx_from 2 1)
sleep 0.5
(( $(rail1_rx_from 2 1) > rx_before )) ||
	fail "node 2 receives nothing on rail 1 any more: not only its RDMA path was lost"
dmesg | grep -q "node 2: rail 1 (n2r1): its RDMA device is gone: down" ||
	fail "node 2 did not log why its rail 1 is down"
says_rdma 2 1 gone || { n 2 ftstat -r; fail "ftstat does not show node 2's RDMA device gone"; }
read -r local_ms last_ms < <(delays IFACE_DEAD "$t0")
log "node 2's RDMA device deleted, its interface up and carrying IP: IFACE_DEAD node 2 rail 1 at node 2 after $local_ms ms, at the last other node after $last_ms ms (timeout $FTD_TEST_TIMEOUT); node 2 alive everywhere"

# --- and comes back
t0=$(now_ns)
add_rxe 2 || fail "cannot create node 2's RDMA device again"
delivered_once IFACE_RESTORED
for ((i = 1; i <= N; i++)); do
	[ "$(rail_events "$FTD_TMP/dev.$i" IFACE_DEAD 2 1)" = 1 ] || fail "node $i: IFACE_DEAD of node 2 rail 1 again"
done
read -r local_ms last_ms < <(delays IFACE_RESTORED "$t0")
says_rdma 2 1 active || { n 2 ftstat -r; fail "ftstat does not show node 2's RDMA port active again"; }
log "node 2's RDMA device back: IFACE_RESTORED at node 2 after $local_ms ms, at the last other node after $last_ms ms"
all_alive || fail "not everyone alive at the end"
log "ok"
