#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# quorum.sh: k = 3 observers per node, quorum q = 2.
#   1. one observer alone stops hearing node 4 (a filter on its link): it
#      only votes; one vote is not a quorum, nobody declares node 4. It
#      also casts a vote for another judge (node 6: ftd-inject, signed
#      with the key, from node 5's address, its own vote beside it, as a
#      faulty member would): a vote counts only from its voter, so still
#      nobody declares node 4 (the module before that did: 2 of 3)
#   2. node 4 is cut off: all its observers vote, it is declared once everywhere
#
#   n1..n6 ── br0      observers of n4: n5, n6, n1 (its 3 live successors)
source "$(dirname "$0")/../lib.sh"

N=6
modprobe -q cls_flower 2>/dev/null || skip "cls_flower not available (tc flower filters)"
modprobe -q act_gact 2>/dev/null || skip "act_gact not available (tc drop action)"
cluster_create "$N"
FTD_CLUSTER_EXTRA=$'observers = 3\nquorum = 2' cluster_up "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT"
[ "$(n 1 ftctl show -j | jq '.quorum')" = 2 ] || fail "quorum not applied"
wait_until 60 all_alive || not_up "cluster did not come up"
watch_devices $(seq 1 "$N")

# --- 1. node 5 alone loses node 4's frames
n 5 tc qdisc add dev n5r0 clsact
n 5 tc filter add dev n5r0 ingress protocol ip flower src_ip 192.0.2.4 action drop
wait_until 10 bash -c "grep -q '\"event\":\"NODE_SUSPECT\".*\"node\":4,' $FTD_TMP/dev.5" ||
	fail "node 5 did not even suspect node 4"
sleep $(( 3 * ${FTD_TEST_TIMEOUT%ms} / 1000 + 1 ))
for ((i = 1; i <= N; i++)); do
	[ "$(count_events "$FTD_TMP/dev.$i" NODE_DEAD 4)" = 0 ] || fail "node $i: one observer's vote declared node 4"
done
log "one observer out of 3 lost node 4: it suspects, nobody declares (quorum 2)"

# Node 5 votes for node 6 too, to every other node but 4: its own vote and
# the forged one back to back, again and again for 3 timeouts. Its notice
# seq jumps ahead (2^40) so both are taken as new; its real notices to
# them are stale from then on, which changes nothing below.
inc4=$(n 1 ftstat -j | jq '.nodes[] | select(.id == 4) | .incarnation')
inc5=$(n 5 ftctl show -j | jq '.incarnation')
{ [ -n "$inc4" ] && [ -n "$inc5" ]; } || fail "no incarnation of node 4 or 5"
seq=$((1 << 40))
end=$(( $(now_ns) + 3 * ${FTD_TEST_TIMEOUT%ms} * 1000000 ))
sent=0
while [ "$(now_ns)" -lt "$end" ] || [ "$sent" = 0 ]; do
	for to in 1 2 3 6; do
		n 5 ftd-inject -t "192.0.2.$to" -R "$to" -k vote -c 42 -s 5 -i "$inc5" -q "$seq" \
			-K 000102030405060708090a0b0c0d0e0f -V "4:$inc4:5" -V "4:$inc4:6" ||
			fail "ftd-inject vote"
		seq=$((seq + 2))
		sent=$((sent + 2))
	done
done
sleep 0.5
for ((i = 1; i <= N; i++)); do
	[ "$(count_events "$FTD_TMP/dev.$i" NODE_DEAD 4)" = 0 ] ||
		fail "node $i: node 5's vote for node 6 counted: node 4 declared"
done
log "node 5 also voted as node 6 ($sent votes sent): not counted, nobody declares"
n 5 tc qdisc del dev n5r0 clsact

# --- 2. node 4 really goes
cut_node 4 > /dev/null
wait_until 20 bash -c "for i in 1 2 3 5 6; do grep -q '\"event\":\"NODE_DEAD\".*\"node\":4,' $FTD_TMP/dev.\$i || exit 1; done" ||
	fail "node 4 not declared dead everywhere with a quorum"
sleep 0.5
for i in 1 2 3 5 6; do
	[ "$(count_events "$FTD_TMP/dev.$i" NODE_DEAD 4)" = 1 ] || fail "node $i: NODE_DEAD not exactly once"
done
log "node 4 cut off: declared dead once everywhere on 2 votes of 3"
log "ok"
