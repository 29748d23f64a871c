#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# quorum_dead_judges.sh: k = q = 4, 9 nodes. Node 3 is cut off and
# declared; then nodes 1 and 6 are cut off at once. A node's judges are its
# 4 live successors: node 1's are 2, 4, 5 and 6, node 6's 7, 8, 9 and 1.
# Each dead node is a judge of the other, and none of the voters against
# the one watches the other (they watch their predecessors): held alive,
# each dead judge was waited for, and neither 1 nor 6 was declared (the
# simulator found it, kmod/proto/vote.h). Now a vote that has stood a
# timeout, with another judge's beside it, asks the judges that have not
# voted, and one silent since the vote began stops counting after two:
# every survivor delivers both deaths, once each, and no other.
#
#   n1..n9 ── br0
source "$(dirname "$0")/../lib.sh"

N=9
DEAD=(1 6)
LIVE=(2 4 5 7 8 9)
cluster_create "$N"
FTD_CLUSTER_EXTRA=$'observers = 4\nquorum = 4' cluster_up "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT"
[ "$(n 2 ftctl show -j | jq '.quorum')" = 4 ] || fail "quorum not applied"
wait_until 60 all_alive || not_up "cluster did not come up"
watch_devices "${LIVE[@]}"

# Node 3 first, so that the judges of 1 and 6 are as above.
cut_node 3 > /dev/null
declared3() {
	local i
	for i in "${LIVE[@]}"; do
		has_event "$FTD_TMP/dev.$i" NODE_DEAD 3 || return 1
	done
}
wait_until 20 declared3 || fail "node 3 alone cut off, not declared everywhere"
sleep 0.5
log "node 3 cut off and declared everywhere"

# At once: one process sets both links down (a cut_node each would leave
# ~100 ms between them under TCG: two single deaths, one after the other).
t0=$(now_ns)
for i in "${DEAD[@]}"; do
	echo "link set s${i}r0 down"
done | ip -n "$(sw_ns)" -batch - || fail "cannot cut nodes ${DEAD[*]} off"
all_declared() {
	local i d
	for i in "${LIVE[@]}"; do
		for d in "${DEAD[@]}"; do
			has_event "$FTD_TMP/dev.$i" NODE_DEAD "$d" || return 1
		done
	done
}
# Without the rule, nodes 1 and 6 stay undeclared for good: 20 s is ~200
# timeouts, far past the three the rule takes.
if ! wait_until 20 all_declared; then
	for i in "${LIVE[@]}"; do
		log "node $i delivered NODE_DEAD for: $(jq -r 'select(.event == "NODE_DEAD") | .node' \
			"$FTD_TMP/dev.$i" | sort -n | tr '\n' ' ')"
	done
	fail "not every survivor declared nodes ${DEAD[*]} dead (quorum 4 of 4 judges)"
fi
last=0
for i in "${LIVE[@]}"; do
	for d in "${DEAD[@]}"; do
		t=$(first_event_time "$FTD_TMP/dev.$i" NODE_DEAD "$d")
		((t > last)) && last=$t
	done
done
sleep 0.5
for i in "${LIVE[@]}"; do
	for d in "${DEAD[@]}"; do
		[ "$(count_events "$FTD_TMP/dev.$i" NODE_DEAD "$d")" = 1 ] ||
			fail "node $i: NODE_DEAD of node $d not exactly once"
	done
	[ "$(count_events "$FTD_TMP/dev.$i" NODE_DEAD 3)" = 1 ] ||
		fail "node $i: NODE_DEAD of node 3 not exactly once"
	for d in "${LIVE[@]}"; do
		[ "$(count_events "$FTD_TMP/dev.$i" NODE_DEAD "$d")" = 0 ] ||
			fail "node $i declared live node $d dead"
	done
done
log "nodes ${DEAD[*]} cut off: declared once at each of the ${#LIVE[@]} survivors, the last $(( (last - t0) / 1000000 )) ms after the cut (timeout $FTD_TEST_TIMEOUT)"
log "ok"
