#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# alive.sh NODES FAMILY: every node of a fresh cluster sees every other node
# alive, heartbeats flow with no loss, and nobody is suspected.
#
#   n1 ──┐
#   n2 ──┤ br0 (switch namespace)
#   ...──┘
source "$(dirname "$0")/../lib.sh"

NODES=${1:-2}
FAMILY=${2:-4}
PERIOD=$FTD_TEST_PERIOD
TIMEOUT=$FTD_TEST_TIMEOUT

cluster_create "$NODES"
watch_events 1
cluster_up "$PERIOD" "$TIMEOUT" "$FAMILY"
wait_until 30 all_alive || { n 1 ftstat; fail "not every node became alive"; }
log "all $NODES nodes alive over IPv$FAMILY"

# Let heartbeats run for a while, then look at the figures.
sleep 1
for ((i = 1; i <= NODES; i++)); do
	n "$i" ftstat -j > "$FTD_TMP/stat.$i"
	[ "$(jq -r --argjson id "$i" '.nodes[] | select(.id == $id) | .state' "$FTD_TMP/stat.$i")" = self ] ||
		fail "node $i does not see itself as self"
	rx=$(n "$i" ftctl stats -j | jq '.rx')
	[ "$rx" -gt 0 ] || fail "node $i received no heartbeat"
	# the overload rule's counters reach user space (their values are the load's)
	for c in ticks_rx_behind ticks_rx_dropped ticks_rx_stuck; do
		[[ $(stat_counter "$i" "$c") =~ ^[0-9]+$ ]] || fail "node $i: ftctl stats has no $c"
	done
done
n 1 ftstat
period_ns=$(n 1 ftctl show -j | jq '.period_ns')
jq -e --argjson p "$period_ns" '[.nodes[] | select(.state != "self") | .iat_mean_ns] |
	all(. > $p / 2 and . < 2 * $p)' "$FTD_TMP/stat.1" >/dev/null ||
	fail "inter-arrival mean not near the period ($period_ns ns)"
[ "$(count_events "$FTD_TMP/dev.1" NODE_DEAD 2)" = 0 ] || fail "a node was declared dead"
for ((j = 2; j <= NODES; j++)); do
	has_event "$FTD_TMP/dev.1" NODE_ALIVE "$j" || fail "no NODE_ALIVE for node $j on /dev/ftdetect"
done
log "ok"
