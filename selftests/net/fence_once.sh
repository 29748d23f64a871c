#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fence_once.sh: a fenced node forgets the verdicts it reached while it may
# have been cut off, and learns the group's again; a death it had already
# delivered is not delivered a second time.
#   4 nodes. Node 4 cut off: NODE_DEAD 4 everywhere. Then node 3 cut off,
#   declared dead by 1 and 2; reconnected, it is fenced, rejoins, and
#   learns again that 4 is dead: its readers saw NODE_DEAD 4 once, FENCED
#   once, and it holds 4 dead.
#
#   n1 .. n4 ── br0
source "$(dirname "$0")/../lib.sh"

cluster_create 4
cluster_up "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT"
wait_until 30 all_alive || { n 1 ftstat; fail "cluster did not come up"; }
for i in 1 2 3; do
	watch_events "$i"
done

cut_node 4 > /dev/null
dead_4() { local i; for i in 1 2 3; do has_event "$FTD_TMP/dev.$i" NODE_DEAD 4 || return 1; done; }
wait_until 10 dead_4 || { n 3 ftstat; fail "node 4 not declared dead at 1, 2, 3"; }
log "node 4 cut off: NODE_DEAD 4 at 1, 2, 3"

inc3=$(n 3 ftctl show -j | jq '.incarnation')
cut_node 3 > /dev/null
dead_3() { local i; for i in 1 2; do has_event "$FTD_TMP/dev.$i" NODE_DEAD 3 || return 1; done; }
wait_until 10 dead_3 || { n 1 ftstat; fail "node 3 not declared dead at 1 and 2"; }
sw ftd-link s3r0 up > /dev/null
wait_until 10 grep -q FENCED "$FTD_TMP/dev.3" || { n 3 ftstat; fail "node 3 was not fenced"; }
rejoined() {
	[ "$(node_state 1 3)" = alive ] && [ "$(node_state 2 3)" = alive ] &&
		[ "$(node_state 3 1)" = alive ] && [ "$(node_state 3 2)" = alive ]
}
wait_until 20 rejoined || { n 3 ftstat; fail "node 3 did not rejoin"; }
wait_until 10 eval '[ "$(node_state 3 4)" = dead ]' || { n 3 ftstat; fail "node 3 does not hold node 4 dead again"; }
sleep 1
log "node 3 cut off, declared, fenced (incarnation $inc3 -> $(n 3 ftctl show -j | jq '.incarnation')), rejoined; it holds 4 dead"
for src in dev nl; do
	f=$FTD_TMP/$src.3
	c=$(count_events "$f" NODE_DEAD 4)
	[ "$c" = 1 ] || { cat "$f"; fail "node 3 ($src): NODE_DEAD 4 delivered $c times, not once"; }
	c=$(jq -c 'select(.event == "FENCED")' "$f" | wc -l)
	[ "$c" = 1 ] || fail "node 3 ($src): FENCED $c times, not once"
done
for i in 1 2; do
	[ "$(count_events "$FTD_TMP/dev.$i" NODE_DEAD 4)" = 1 ] || fail "node $i: NODE_DEAD 4 not once"
	[ "$(count_events "$FTD_TMP/dev.$i" NODE_DEAD 3)" = 1 ] || fail "node $i: NODE_DEAD 3 not once"
done
log "node 3 delivered NODE_DEAD 4 once and FENCED once, before and after its fence"
log "ok"
