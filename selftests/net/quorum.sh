#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# quorum.sh: k = 3 observers per node, quorum q = 2.
#   1. one observer alone stops hearing node 4 (a filter on its link): it
#      only votes; one vote is not a quorum, nobody declares node 4
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
