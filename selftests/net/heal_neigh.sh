#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# heal_neigh.sh: a partition that heals in the switch (no carrier moves)
# does not leave the minority's frames stuck behind neighbour entries it
# made while cut off (kmod/socket.h, ftd_socket_hurry_neighbour).
#   6 nodes, k = 2, period 10 ms, timeout 200 ms, as partition.sh. Nodes
#   1-3 hold static ARP entries for 4-6 (common on clusters; here it also
#   keeps their ARP requests from teaching 4-6 their addresses, which
#   would hide the fault), and 4-6 solicit every 3 s (retrans_time_ms).
#   Nodes 4-6 moved onto the switch's other bridge: 1-3 declare them, they
#   fence themselves and keep probing 1-3, whose addresses they cannot
#   resolve once their entries expired (flushed here, as a cut of a minute
#   or so does): unresolved entries, each holding the frames sent to it
#   until its next solicitation. Once node 6's entry for node 1 is unresolved,
#   the ports move back. Nodes 4-6 rejoin, once: no node declares any of
#   them again, none of them is fenced again. (Before, their observers
#   timed them out while their heartbeats waited for the next
#   solicitation, again after each fence: a CI run's node 6 was fenced 4
#   times in 1.7 s after such a heal.)
#
#   n1 .. n6 ── br0 (br1: the other side of the cut)
source "$(dirname "$0")/../lib.sh"

N=6
TIMEOUT_MS=$(scaled 200)
cluster_create "$N"
switch_second_bridge
for j in 4 5 6; do
	mac=$(n "$j" cat "/sys/class/net/n${j}r0/address")
	for i in 1 2 3; do
		n "$i" ip neigh replace "$(addr4 0 "$j")" lladdr "$mac" dev "n${i}r0" nud permanent ||
			fail "node $i: static ARP entry for node $j"
	done
	n "$j" sysctl -qw "net.ipv4.neigh.n${j}r0.retrans_time_ms=3000"
done
cluster_up "$FTD_TEST_PERIOD" "${TIMEOUT_MS}ms"
wait_until 60 all_alive || { n 1 ftstat; fail "cluster did not come up"; }
watch_devices $(seq 1 $N)
sleep 0.5

declared() { local i j; for i in 1 2 3; do for j in 4 5 6; do has_event "$FTD_TMP/dev.$i" NODE_DEAD "$j" || return 1; done; done; }
fenced() { local j; for j in 4 5 6; do grep -q '"event":"FENCED"' "$FTD_TMP/dev.$j" || return 1; done; }
unresolved() { n 6 ip neigh show "$(addr4 0 1)" dev n6r0 | grep -q 'INCOMPLETE'; }

switch_move br1 4 5 6
wait_until 20 declared || { n 1 ftstat; fail "nodes 1-3 did not declare 4-6"; }
wait_until 20 fenced || { n 6 ftstat; fail "nodes 4-6 did not fence themselves"; }
# Their entries for 1-3 expire in a cut of a minute or so (reachable for
# 15-45 s, then probed): flushed here, the next probe of each makes it anew,
# unresolved.
for j in 4 5 6; do
	n "$j" ip neigh flush dev "n${j}r0" || fail "node $j: ip neigh flush"
done
wait_until 30 unresolved || { n 6 ip neigh; fail "node 6's entry for node 1 never unresolved: not the case tested"; }
log "nodes 4-6 cut off, declared and fenced; node 6: $(n 6 ip neigh show "$(addr4 0 1)" dev n6r0)"

events_archive $(seq 1 $N)
mark=$(kernel_mark)
healed=$(now_ns)
switch_move br0 4 5 6
wait_until 30 all_alive || { n 1 ftstat; n 6 ftstat; fail "nodes 4-6 did not rejoin"; }
log "all alive again $(( ($(now_ns) - healed) / 1000000 )) ms after the heal"
# Three solicitation intervals: a node held back by its entries is declared by then.
sleep $(( 3 * 3 + 1 ))

again=$(kernel_since "$mark" | grep -c 'was declared dead by\|heard nobody for its lease\|lost the majority' || true)
for i in 1 2 3; do
	for j in 4 5 6; do
		c=$(count_events "$FTD_TMP/dev.$i" NODE_DEAD "$j")
		[ "$c" = 0 ] || { kernel_since "$mark" | grep ftdetect || true; fail "node $i declared node $j $c times after the heal"; }
	done
done
for j in 4 5 6; do
	c=$(grep -c '"event":"FENCED"' "$FTD_TMP/dev.$j" || true)
	[ "$c" = 0 ] || { kernel_since "$mark" | grep ftdetect || true; fail "node $j fenced $c times after the heal"; }
done
[ "$again" = 0 ] || { kernel_since "$mark" | grep ftdetect || true; fail "$again fences after the heal"; }
log "after the heal: no death of 4-6 at 1-3, no fence; node 6: $(n 6 ip neigh show "$(addr4 0 1)" dev n6r0)"
log "ok"
