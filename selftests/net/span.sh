#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# span.sh: notices over the spanning broadcast (kmod/proto/span.h, wire v7).
#   10 nodes, k = 2. Node 10 is cut off: every survivor delivers NODE_DEAD 10
#   exactly once (what it cost is printed: a share and an acknowledgement a
#   survivor and declarer; at 10 nodes the flood's ~log2 N copies were not
#   many more, the simulator has the large numbers).
#   Then every notice frame to nodes 4 and 5 is dropped at their ports
#   (heartbeats pass, as in repair.sh) and node 9 is cut off. Its observers,
#   1 and 2, declare it; every live member holds a share of the death, and
#   in the tree of either declarer one of nodes 4 and 5 holds an arc with
#   more members than itself (from 1: [5, 1); from 2: [4, 6)): its sender
#   sends it again, then hands the rest of the arc over, so every other
#   survivor still delivers NODE_DEAD 9, once, within two timeouts of the
#   cut (the declaration, then at most seven resend intervals of half a
#   period). Once nodes 4 and 5 hear again the digests tell them, once.
#
#   n1 .. n10 ── br0
source "$(dirname "$0")/../lib.sh"

N=10
PERIOD_MS=$(scaled 10)
TIMEOUT_MS=$(scaled 100)
cluster_create "$N"
cluster_up "${PERIOD_MS}ms" "${TIMEOUT_MS}ms"
wait_until 30 all_alive || { n 1 ftstat; fail "cluster did not come up"; }
for ((i = 1; i < N; i++)); do
	watch_events "$i"
done
sleep 0.5

# sum_counter NAME NODE...: a module counter summed over NODEs.
sum_counter() {
	local name=$1 i sum=0
	shift
	for i in "$@"; do
		sum=$((sum + $(stat_counter "$i" "$name")))
	done
	echo "$sum"
}

# --- one death: a copy a survivor
survivors=$(seq 1 9)
frames0=$(notice_frames $survivors)
cut_node 10 > /dev/null
wait_until 20 all_hold_dead 10 $survivors || { n 1 ftstat; fail "node 10 not declared dead everywhere"; }
sleep $(( (2 * TIMEOUT_MS + 999) / 1000 ))	# time for a copy to show up
notice_cost "$frames0" 1 $survivors
for i in $survivors; do
	[ "$(count_events "$FTD_TMP/dev.$i" NODE_DEAD 10)" = 1 ] || fail "node $i: NODE_DEAD 10 not once"
done

# --- a holder that gets no notice: its share is sent again and handed over
deaf="4 5"
for i in $deaf; do
	deaf_to_notices "$i"
done
others="1 2 3 6 7 8"
resent0=$(sum_counter shares_resent $others)
handed0=$(sum_counter shares_handed_over $others)
cut=$(cut_node 9)
after=$(jq '.after_ns' <<< "$cut")
wait_until 20 all_hold_dead 9 $others || { n 1 ftstat; fail "node 9 not declared dead at $others"; }
bound=$(( (2 * TIMEOUT_MS + 2 * PERIOD_MS) * 1000000 ))
worst=0
for i in $others; do
	t=$(first_event_time "$FTD_TMP/dev.$i" NODE_DEAD 9)
	lat=$(( t - after ))
	(( lat > worst )) && worst=$lat
	[ "$lat" -le "$bound" ] || fail "node $i: NODE_DEAD 9 $((lat / 1000000)) ms after the cut (bound $((bound / 1000000)) ms)"
done
log "NODE_DEAD 9 at every survivor but nodes 4 and 5 within $((worst / 1000000)) ms of the cut (bound $((bound / 1000000)) ms)"
resent=$(( $(sum_counter shares_resent $others) - resent0 ))
handed=$(( $(sum_counter shares_handed_over $others) - handed0 ))
log "shares sent again: $resent; handed over: $handed; given up: $(sum_counter shares_dropped $others)"
[ "$resent" -ge 1 ] || fail "nobody sent the deaf nodes' shares again"
[ "$handed" -ge 1 ] || fail "no share was handed over past a deaf holder"
for i in $deaf; do
	has_event "$FTD_TMP/dev.$i" NODE_DEAD 9 && fail "node $i heard of the death through the filter"
	hears_notices "$i"
done

for i in $deaf; do
	wait_until 30 all_hold_dead 9 "$i" ||
		{ n "$i" ftstat; n "$i" ftctl stats; fail "node $i never learnt of node 9's death"; }
done
sleep 1
for i in $others $deaf; do
	grep -q FENCED "$FTD_TMP/dev.$i" && fail "node $i was fenced"
	[ "$(count_events "$FTD_TMP/dev.$i" NODE_DEAD 9)" = 1 ] || fail "node $i: NODE_DEAD 9 not once"
	for j in $others $deaf; do
		has_event "$FTD_TMP/dev.$i" NODE_DEAD "$j" && fail "node $i declared live node $j dead"
	done
done
log ok
