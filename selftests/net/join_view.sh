#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# join_view.sh: a node that joins late learns the group's state from a
# view it asks for, and nobody sends a view it was not asked for.
#   6 nodes listed, k = 2; nodes 1-5 start, node 5 is cut off and declared
#   dead, the cluster settles. Node 6 then starts. At first contact every
#   side sends the other its digest (FTD_NOTICE_F_CONTACT) instead of its
#   view, and asks the other's if they differ and the other has caught up
#   since it came up (FTD_NOTICE_F_CAUGHT_UP: nodes 1-4, not node 6):
#   - node 6 delivers node 5's death (NODE_DEAD, at node 5's incarnation),
#     which it can only have learnt from a view: the death is older than
#     node 6's start;
#   - node 6 asked at least one view, and every node at most one a
#     timeout while node 6 joined (views_asked), not one per contact;
#   - nobody needed a settled digest's repair meanwhile (repairs), so
#     the death came with the first contact, not with the periodic digests;
#   - every node holds node 6 alive, node 6 holds 1-4 alive and 5 dead.
#
#   n1 .. n6 ── br0
source "$(dirname "$0")/../lib.sh"

N=6
TIMEOUT_MS=${FTD_TEST_TIMEOUT%ms}
cluster_create "$N"
FTD_CONF=$FTD_TMP/cluster.conf
cluster_config "$FTD_CONF" "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT"
for i in 1 2 3 4 5; do
	n "$i" ftctl apply "$FTD_CONF" > /dev/null || fail "node $i: apply failed"
done
wait_until 30 alive_among 1 2 3 4 5 || { n 1 ftstat; fail "nodes 1-5 did not come up"; }
inc5=$(n 5 ftctl show -j | jq '.incarnation')
cut_node 5 > /dev/null
held_dead() {
	local i
	for i in "$@"; do
		[ "$(node_state "$i" 5)" = dead ] || return 1
	done
}
wait_until 20 held_dead 1 2 3 4 || { n 1 ftstat; fail "nodes 1-4 did not declare node 5 dead"; }
log "node 5 (incarnation $inc5) declared dead by nodes 1-4"
sleep 1		# settled: the death is old news when node 6 starts
# What nodes 1-4 asked and repaired while they started: not node 6's join.
for i in 1 2 3 4; do
	asked0[i]=$(stat_counter "$i" views_asked)
	repairs0[i]=$(stat_counter "$i" repairs)
done

watch_events 6
n 6 ftctl apply "$FTD_CONF" > /dev/null || fail "node 6: apply failed"
t0=$(now_ns)
knows_death() { has_event "$FTD_TMP/nl.6" NODE_DEAD 5 incarnation "$inc5"; }
wait_until 20 knows_death || { n 6 ftstat; fail "node 6 never learnt node 5's death"; }
log "node 6 learnt node 5's death $(( ($(now_ns) - t0) / 1000000 )) ms after its start"
wait_until 20 alive_among 1 2 3 4 6 || { n 6 ftstat; fail "node 6 and nodes 1-4 do not hold each other alive"; }
[ "$(node_state 6 5)" = dead ] || fail "node 6 holds node 5 $(node_state 6 5), not dead"
[ "$(count_events "$FTD_TMP/nl.6" NODE_DEAD 5 incarnation "$inc5")" = 1 ] ||
	fail "node 6 delivered node 5's death $(count_events "$FTD_TMP/nl.6" NODE_DEAD 5 incarnation "$inc5") times"

joined_s=$(( ($(now_ns) - t0) / 1000000000 + 1 ))
asked=$(stat_counter 6 views_asked)
log "node 6 asked $asked view(s) in about $joined_s s"
[ "$asked" -ge 1 ] || fail "node 6 asked no view: how did it learn the death?"
# At most one a timeout (proto/digest.h), over the join.
most=$(( joined_s * 1000 / TIMEOUT_MS + 1 ))
[ "$asked" -le "$most" ] || fail "node 6 asked $asked views in $joined_s s"
asked0[6]=0
repairs0[6]=0
for i in 1 2 3 4; do
	a=$(( $(stat_counter "$i" views_asked) - asked0[i] ))
	log "node $i asked $a view(s) while node 6 joined"
	[ "$a" -le "$most" ] || fail "node $i asked $a views in $joined_s s"
done
for i in 1 2 3 4 6; do
	r=$(( $(stat_counter "$i" repairs) - repairs0[i] ))
	[ "$r" = 0 ] || fail "node $i exchanged $r view(s) on a settled digest: the contact did not do it"
done
log "ok: node 6 caught up from $asked view(s) it asked, nobody repaired"
