#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# restart.sh: a node that goes down is declared dead; the same incarnation
# never comes back (fail-stop), but a restart (ftctl down; ftctl apply) comes
# back with a higher incarnation and is reported NODE_RESTORED.
source "$(dirname "$0")/../lib.sh"

cluster_create 2
cluster_up "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT"
wait_until 30 all_alive || fail "cluster did not come up"
watch_events 1
inc1=$(n 2 ftctl show -j | jq '.incarnation')

n 2 ftctl down
wait_until 10 has_event "$FTD_TMP/dev.1" NODE_DEAD 2 || fail "stopped node not declared dead"
n 2 ftctl apply "$FTD_CONF" > /dev/null
inc2=$(n 2 ftctl show -j | jq '.incarnation')
[ "$inc2" -gt "$inc1" ] || fail "incarnation did not grow ($inc1 -> $inc2)"
wait_until 10 has_event "$FTD_TMP/dev.1" NODE_RESTORED 2 || fail "no NODE_RESTORED"
[ "$(node_state 1 2)" = alive ] || fail "restarted node not alive"
n 1 ftstat -j | jq -e --argjson inc "$inc2" '.nodes[] | select(.id == 2) | .incarnation == $inc' \
	> /dev/null || fail "observer did not learn the new incarnation"
log "incarnation $inc1 -> $inc2, NODE_DEAD then NODE_RESTORED"
log "ok"
