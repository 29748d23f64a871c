#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tell_senders.sh: whoever declares a node dead tells the nodes that sent it
# heartbeats (its predecessors) directly, not only through the broadcast,
# whose fingers point forward and reach them last: their new observers
# start timing them as soon as they hear of the death, one hop from the
# declarer (with a few ms a hop, that alone made thousands of false deaths
# per real one in ftdsim).
#   8 nodes, k = 2. Node 5 cut off; its observers 6 and 7 declare it. Node
#   4, which sent to 5, is a finger of neither (the live ring 6, 7, 8, 1,
#   2, 3, 4: distances 1, 2, 4 from 6 are 7, 8, 2; from 7, 8, 1, 3). The
#   frames node 4 receives (AF_PACKET) hold a DEAD notice about 5 sent by
#   the node that declared it.
#
#   n1 .. n8 ── br0
source "$(dirname "$0")/../lib.sh"

N=8
cluster_create "$N"
cluster_up "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT"
wait_until 30 all_alive || { n 1 ftstat; fail "cluster did not come up"; }
watch_devices $(seq 1 "$N")
n 4 ftd-capture -i n4r0 -d in -t 8 > "$FTD_TMP/cap.4" 2> "$FTD_TMP/cap.4.err" &
cap=$!
wait_until 10 grep -q ready "$FTD_TMP/cap.4.err" || fail "ftd-capture did not start on node 4"
sleep 0.3

cut_node 5 > /dev/null
all_know() {
	local i
	for ((i = 1; i <= N; i++)); do
		[ "$i" = 5 ] || has_event "$FTD_TMP/dev.$i" NODE_DEAD 5 || return 1
	done
}
wait_until 20 all_know || { n 4 ftstat; fail "node 5 not declared dead everywhere"; }
wait "$cap" || true	# it ends on its timeout (status 3)
# FTD_NOTICE_DEAD is 1; a frame may carry several notices (.notices).
# shellcheck disable=SC2016  # a jq filter: $s is jq's
dead5='select(.type == 2) | .sender as $s | .notices[] |
	select(.kind == 1 and .subject == 5) | . + {sender: $s}'
jq -c "$dead5" "$FTD_TMP/cap.4" > "$FTD_TMP/dead5.4"
[ -s "$FTD_TMP/dead5.4" ] || fail "node 4 received no DEAD notice about 5 (capture: $(wc -l < "$FTD_TMP/cap.4") frames)"
direct=$(jq -c 'select(.sender == .origin)' "$FTD_TMP/dead5.4" | head -n1)
[ -n "$direct" ] || fail "node 4 got the death of 5 only forwarded: $(jq -c '[.sender, .origin]' \
	"$FTD_TMP/dead5.4" | tr '\n' ' ')"
log "node 4 received DEAD 5 from its declarer: $direct"
for ((i = 1; i <= N; i++)); do
	[ "$i" = 5 ] && continue
	[ "$(count_events "$FTD_TMP/dev.$i" NODE_DEAD 5)" = 1 ] || fail "node $i: NODE_DEAD 5 not once"
	c=$(jq -c 'select(.event == "NODE_DEAD" and .node != 5)' "$FTD_TMP/dev.$i" | wc -l)
	[ "$c" = 0 ] || fail "node $i declared $c others dead"
done
log "ok"
