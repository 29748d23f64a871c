#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# flap.sh: a link that flaps for less than the timeout is no death.
#   5 nodes, k = 2, period 10 ms, timeout 100 ms. Node 3's switch port
#   goes down and up again, 10 times for 40 ms, then 10 times for 60 ms,
#   250 ms apart, from one process (ftd-link flap, whose stamps say how
#   long each flap really lasted). A flap of d leaves at most d + 2 periods
#   of silence (the last heartbeat before it, the first after it), under
#   the timeout in both series. Nobody declares node 3 or anyone else
#   (node 3, hearing nobody during a flap, declares nobody either), and
#   node 3 is never fenced. Suspicions are allowed: a 40 ms flap can leave
#   60 ms of silence, past the suspicion delay.
#
#   A flap the machine stretched to timeout - 2 periods or more proves
#   nothing (a death would then be right): if one was and a death came,
#   the test skips and says so.
#
#   n1 .. n5 ── br0
source "$(dirname "$0")/../lib.sh"

N=5
PERIOD_MS=$(scaled 10)
TIMEOUT_MS=$(scaled 100)
cluster_create "$N"
cluster_up "${PERIOD_MS}ms" "${TIMEOUT_MS}ms"
wait_until 30 all_alive || { n 1 ftstat; fail "cluster did not come up"; }
watch_devices $(seq 1 "$N")
sleep 0.5

sw ftd-link s3r0 flap 40 10 250 > "$FTD_TMP/flaps" || fail "ftd-link flap (40 ms) failed"
sw ftd-link s3r0 flap 60 10 250 >> "$FTD_TMP/flaps" || fail "ftd-link flap (60 ms) failed"
sleep 0.5
[ "$(wc -l < "$FTD_TMP/flaps")" = 20 ] || fail "ftd-link made $(wc -l < "$FTD_TMP/flaps") flaps, not 20"
read -r shortest longest < <(jq -s '[.[].down_ns / 1e6 | floor] | "\(min) \(max)"' -r "$FTD_TMP/flaps")
log "20 flaps of node 3's link: down ${shortest}..${longest} ms (timeout ${TIMEOUT_MS} ms, period ${PERIOD_MS} ms)"
stretched=$(jq -s --argjson lim $(( (TIMEOUT_MS - 2 * PERIOD_MS) * 1000000 )) \
	'[.[] | select(.down_ns >= $lim)] | length' "$FTD_TMP/flaps")

deaths=0 suspicions=0
for ((i = 1; i <= N; i++)); do
	d=$(jq -c 'select(.event == "NODE_DEAD" or .event == "FENCED")' "$FTD_TMP/dev.$i" | wc -l)
	if [ "$d" != 0 ]; then
		log "node $i: $(jq -c 'select(.event == "NODE_DEAD" or .event == "FENCED") |
			{event, node, origin}' "$FTD_TMP/dev.$i" | tr '\n' ' ')"
	fi
	deaths=$((deaths + d))
	suspicions=$((suspicions + $(count_events "$FTD_TMP/dev.$i" NODE_SUSPECT 3)))
done
if [ "$deaths" != 0 ]; then
	[ "$stretched" = 0 ] || skip "$stretched flaps stretched by the machine to $((TIMEOUT_MS - 2 * PERIOD_MS)) ms or more (longest ${longest} ms): the $deaths deaths or fencings may be right"
	for ((i = 1; i <= N; i++)); do n "$i" ftctl stats -j | jq -c '{node: '"$i"', ticks_late, tick_late_max_ns}'; done
	fail "flaps shorter than the timeout made $deaths NODE_DEAD or FENCED records"
fi
log "no death, no fencing; node 3 suspected $suspicions times (records at all nodes)"
log "ok"
