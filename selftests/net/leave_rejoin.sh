#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# leave_rejoin.sh: a node that leaves cleanly (ftctl down) is reported
# NODE_LEFT, never NODE_DEAD; when it comes back (ftctl apply) it has a
# higher incarnation and is reported alive again.
source "$(dirname "$0")/../lib.sh"

cluster_create 3
cluster_up "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT"
wait_until 30 all_alive || fail "cluster did not come up"
watch_events 1
inc1=$(n 2 ftctl show -j | jq '.incarnation')

n 2 ftctl down
wait_until 10 has_event "$FTD_TMP/dev.1" NODE_LEFT 2 || fail "no NODE_LEFT for the node that left"
sleep 0.5
[ "$(count_events "$FTD_TMP/dev.1" NODE_DEAD 2)" = 0 ] || fail "a clean leave was reported as a death"
[ "$(node_state 1 2)" = left ] || fail "ftstat does not show node 2 left"

n 2 ftctl apply "$FTD_CONF" > /dev/null
inc2=$(n 2 ftctl show -j | jq '.incarnation')
[ "$inc2" -gt "$inc1" ] || fail "incarnation did not grow ($inc1 -> $inc2)"
alive_again() {
	jq -e --argjson inc "$inc2" 'select(.event == "NODE_ALIVE" and .node == 2 and .incarnation == $inc)' \
		"$FTD_TMP/dev.1" > /dev/null
}
wait_until 10 alive_again || fail "no NODE_ALIVE at the new incarnation"
wait_until 10 all_alive || fail "rejoined node not alive everywhere"
log "incarnation $inc1 -> $inc2: NODE_LEFT, then NODE_ALIVE"
log "ok"
