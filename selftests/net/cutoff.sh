#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cutoff.sh [NODES] [PERIOD_MS] [TIMEOUT_MS]: cut one node off the network
# (its switch port goes down) and check that every other node reports it
# dead exactly once, on /dev/ftdetect and on the netlink events, within
# timeout + 2 periods of the end of the cut (plus what the victim's own
# late timer bought it, and the observer's own stalls: docs/detection.md).
#
#   n1 ──┐
#   n2 ──┤ br0
#   n3 ──┘  <- s3r0 set down: n3 is cut off
source "$(dirname "$0")/../lib.sh"

NODES=${1:-3}
PERIOD_MS=$(scaled "${2:-10}")
TIMEOUT_MS=$(scaled "${3:-50}")
VICTIM=$NODES

cluster_create "$NODES"
cluster_up "${PERIOD_MS}ms" "${TIMEOUT_MS}ms"
wait_until 30 all_alive || { n 1 ftstat; fail "cluster did not come up"; }
for ((i = 1; i < NODES; i++)); do
	watch_events "$i"
done
sleep 0.5

for ((i = 1; i < NODES; i++)); do late0[i]=$(stat_counter "$i" ticks_late); done
frames0=$(notice_frames $(seq 1 $((NODES - 1))))
cut=$(cut_node "$VICTIM")
before=$(jq '.before_ns' <<< "$cut")
after=$(jq '.after_ns' <<< "$cut")
# The extra silence each observer gives the victim for its late ticks: it
# can no longer grow (nothing more arrives), only be forgotten.
victim_slow() { n "$1" ftstat -j | jq --argjson v "$VICTIM" '[.nodes[] | select(.id == $v) | .slow_ns // 0] | max // 0'; }
for ((i = 1; i < NODES; i++)); do slow[i]=$(victim_slow "$i"); done

observers_know() {
	local i
	for ((i = 1; i < NODES; i++)); do
		has_event "$FTD_TMP/dev.$i" NODE_DEAD "$VICTIM" || return 1
		has_event "$FTD_TMP/nl.$i" NODE_DEAD "$VICTIM" || return 1
	done
}
wait_until 20 observers_know || { n 1 ftstat; fail "node $VICTIM was not reported dead everywhere"; }
sleep $(( (2 * TIMEOUT_MS + 999) / 1000 ))	# time for any duplicate to show up
notice_cost "$frames0" 1 $(seq 1 $((NODES - 1)))

# The last frame crosses at the latest when the cut ends; the first tick a
# timeout after it comes within a period, late by less than another (a
# later one counts as late, below); the record is stamped after that tick
# has sent its own heartbeats, which takes up to a few hundred us here.
bound=$(( (TIMEOUT_MS + 2 * PERIOD_MS + 1) * 1000000 ))
floor=$(( TIMEOUT_MS * 1000000 / 2 ))	# sooner is a premature declaration
worst=0
for ((i = 1; i < NODES; i++)); do
	# The bound holds for an observer whose timer ran on time: a late tick
	# declares nobody (its queues may hold the frames it misses), so an
	# observer that ran late in the window gets its worst lateness on top.
	bound_i=$bound
	if [ "${slow[i]}" != 0 ]; then
		bound_i=$(( bound_i + slow[i] ))
		log "node $i gave node $VICTIM $(( slow[i] / 1000 )) us more for its late timer: bound $(( bound_i / 1000 )) us"
	fi
	if [ "$(stat_counter "$i" ticks_late)" != "${late0[i]}" ]; then
		bound_i=$(( bound_i + $(stat_counter "$i" tick_late_max_ns) ))
		log "node $i: its timer ran late during the cut ($(stat_counter "$i" ticks_late) late ticks, worst $(( $(stat_counter "$i" tick_late_max_ns) / 1000 )) us): bound $(( bound_i / 1000 )) us"
	fi
	for src in dev nl; do
		f=$FTD_TMP/$src.$i
		[ "$(count_events "$f" NODE_DEAD "$VICTIM")" = 1 ] || fail "node $i ($src): NODE_DEAD not exactly once"
		for j in $(seq 1 $((NODES - 1))); do
			[ "$(count_events "$f" NODE_DEAD "$j")" = 0 ] || fail "node $i ($src): live node $j declared dead"
		done
		t=$(first_event_time "$f" NODE_DEAD "$VICTIM")
		[ "$t" -gt "$before" ] || fail "node $i ($src): NODE_DEAD before the cut"
		# The port stops forwarding somewhere in [before, after] (a slow
		# kernel takes up to ~15 ms over it) and frames still cross until
		# then: the bound runs from the end of the cut.
		lat=$(( t - after ))
		log "node $i ($src): NODE_DEAD $(( lat / 1000 )) us after the end of the cut (which took $(( (after - before) / 1000 )) us)"
		[ "$lat" -le "$bound_i" ] || fail "node $i ($src): detected $(( lat / 1000 )) us after the end of the cut, bound $(( bound_i / 1000 )) us"
		# The link went down somewhere in [before, after] (a slow kernel
		# takes ~100 ms over it): premature only if sure, from its start.
		[ $(( t - before )) -ge "$floor" ] || fail "node $i ($src): detected only $(( (t - before) / 1000 )) us after the cut began"
		[ "$lat" -gt "$worst" ] && worst=$lat
	done
done
[ "$(node_state 1 "$VICTIM")" = dead ] || fail "ftstat does not show node $VICTIM dead"

# The death in the metrics (stats EVENTS_BY_TYPE, DECLARED_* and TOLD_*):
# each survivor counted one NODE_DEAD and one silence, under "declared" if
# it is the event's origin, else under "told". The declarer heard nothing
# for a timeout at least; a told node learned it later, so its silence is
# in the timeout's bucket or above too (the same clock: one kernel). A
# told node that is not an observer (with 4 nodes, node 3 of node 4)
# last heard the victim long before: seconds, not a notice latency.
lat_bucket() {	# proto/delay.c ftd_latency_bucket()
	local us=$(( $1 / 1000 )) b=0
	while [ "$us" -gt 0 ] && [ "$b" -lt 31 ]; do us=$(( us >> 1 )); b=$(( b + 1 )); done
	echo "$b"
}
timeout_ns=$(( TIMEOUT_MS * 1000000 ))
tb=$(lat_bucket "$timeout_ns")
declarers=0 told=0
for ((i = 1; i < NODES; i++)); do
	st=$(n "$i" ftctl stats -j)
	origin=$(grep -m1 '"event":"NODE_DEAD"' "$FTD_TMP/dev.$i" | grep -o '"origin":[0-9]*' | cut -d: -f2)
	dead=$(jq '.events_by_type.NODE_DEAD' <<< "$st")
	[ "$dead" = 1 ] || {
		# The counts run from the instance's start, the event files
		# from the watchers' (after all_alive): a death before that?
		jq -c '{events_by_type, ticks_late, tick_late_max_ns, fenced}' <<< "$st"
		n "$i" ftstat
		dmesg | grep ftdetect | tail -20
		fail "node $i: stats count $dead NODE_DEAD, not 1"
	}
	if [ "$origin" = "$i" ]; then
		by=declared other=told declarers=$(( declarers + 1 ))
	else
		by=told other=declared told=$(( told + 1 ))
	fi
	read -r cnt other_cnt sum b < <(jq -r --arg by "$by" --arg o "$other" \
		'[.[$by].count, .[$o].count, .[$by].sum_ns,
		  ([.[$by].hist | to_entries[] | select(.value > 0) | .key] | first)] | @tsv' <<< "$st")
	[ "$cnt" = 1 ] && [ "$other_cnt" = 0 ] ||
		fail "node $i (NODE_DEAD from node $origin): $cnt deaths $by, $other_cnt $other; expected one $by"
	log "node $i: death $by (origin node $origin): silence $(( sum / 1000 )) us, bucket $b (the timeout's: $tb); timeout $(( timeout_ns / 1000 )) us"
	[ "$b" -ge "$tb" ] || fail "node $i: silence $(( sum / 1000 )) us in bucket $b, below the timeout's $tb"
	if [ "$by" = declared ]; then
		[ "$sum" -ge "$timeout_ns" ] ||
			fail "node $i declared node $VICTIM after $(( sum / 1000 )) us of silence, less than the timeout"
		n "$i" ftstat -p | grep -qx 'ftdetect_death_silence_seconds_count{by="declared"} 1' ||
			fail "node $i: ftstat -p does not count its declaration"
		n "$i" ftstat -p | grep -qx 'ftdetect_events_total{event="NODE_DEAD"} 1' ||
			fail "node $i: ftstat -p does not count NODE_DEAD"
	fi
done
[ "$declarers" -ge 1 ] || fail "no survivor counts the death as its own declaration"
# With more survivors than observers (2 by default), some node never
# watched the victim: it can only have been told.
if [ "$NODES" -gt 3 ] && [ -z "${FTD_CLUSTER_EXTRA:-}" ]; then
	[ "$told" -ge 1 ] || fail "no survivor counts the death as told"
fi
log "death silences: $declarers survivor(s) declared, $told told"
n 1 ftstat
log "detection latency (worst observer): $(( worst / 1000 )) us; timeout ${TIMEOUT_MS} ms, period ${PERIOD_MS} ms, bound $(( bound / 1000 )) us"
log "ok"
