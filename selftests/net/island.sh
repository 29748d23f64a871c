#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# island.sh: a small island fences itself (kmod/proto/reach.h).
#   12 nodes, k = 1, period 10 ms, timeout 200 ms. Nodes 11 and 12 lose
#   the uplink together (their ports move to a second bridge of the
#   switch) but still hear each other: 12 hears 11's heartbeats; 11 hears
#   nobody (its predecessor, 10, is on the other side), yet with k = 1 it
#   has no lease (hearing nobody cannot be told from 10's death), so it
#   declares the majority one by one, a timeout apart, and tells 12; its
#   walk back over the majority spans half the ring without an end, which
#   starts its reach check at once (proto/watch.h: such a silence counts
#   only once a check says it reaches the cluster).
#   1. 1-10 declare 11 and 12, once each, and are never fenced (their own
#      reach checks, 2 deaths into the burst, hear the whole sample).
#   2. 11 and 12 fence themselves (FENCED, origin itself) by their reach
#      checks (the kernel says so for node 12): 2 deaths into the burst,
#      each asks a sample of the cluster and hears only the other, twice
#      running (a verdict of minority is confirmed by a fresh sample, a
#      timeout more). The partition rule alone would have let each
#      deliver 6 of the 10 deaths first (7 timeouts); each delivers at
#      most 5, then stays in a
#      minority (ftctl stats: minority) and declares nobody while the cut
#      lasts.
#   3. heal: NODE_RESTORED 11 and 12 once at 1-10, everyone alive, no
#      minority left, and none of 1-10 suspects 11 or 12 within two
#      timeouts of learning it back: node 1 (12's observer) learns 12
#      alive from others or from one PROBE exchange, while 12, back with
#      its view forgotten, heartbeats only to 11, the one node it heard;
#      node 1 must make itself heard (it reminds 12: kmod/proto/detect.h),
#      not time 12 until a timeout says SUSPECT and a probe refutes it,
#      which on a busy node comes too late: a false death.
#
#   n1 .. n12 ── br0 (br1: the island)
source "$(dirname "$0")/../lib.sh"

N=12
TIMEOUT_MS=$(scaled 200)
MAJOR=$(seq 1 10)
ISLAND="11 12"
cluster_create "$N"
switch_second_bridge
FTD_CLUSTER_EXTRA="observers = 1" cluster_up "$FTD_TEST_PERIOD" "${TIMEOUT_MS}ms"
wait_until 90 all_alive || { n 1 ftstat; fail "cluster did not come up"; }
watch_devices $(seq 1 $N)
sleep 0.5

fenced() { event_query count "$FTD_TMP/dev.$1" FENCED origin "$1"; }
island_fenced() { local i; for i in $ISLAND; do [ "$(fenced "$i")" -ge 1 ] || return 1; done; }
island_minority() { local i; for i in $ISLAND; do [ "$(stat_counter "$i" minority)" -gt 0 ] || return 1; done; }
declared_island() {
	local i j
	for i in $MAJOR; do
		for j in $ISLAND; do has_event "$FTD_TMP/dev.$i" NODE_DEAD "$j" || return 1; done
	done
}
show_island() {
	local i
	for i in $ISLAND; do
		log "node $i: fenced $(stat_counter "$i" fenced), minority $(stat_counter "$i" minority)"
		grep -v NODE_SUSPECT "$FTD_TMP/dev.$i"
	done
	kernel_since "$mark" | grep ftdetect | tail -20
}

mark=$(kernel_mark)
before=$(now_ns)
switch_move br1 $ISLAND
log "nodes $ISLAND cut off together"
wait_until 30 declared_island || { n 1 ftstat; fail "nodes 1-10 did not all declare $ISLAND dead"; }
wait_until 30 island_fenced || { show_island; fail "nodes $ISLAND did not both fence themselves"; }
wait_until 30 island_minority || { show_island; fail "nodes $ISLAND are not both in a minority"; }
kernel_since "$mark" | grep -q "ftdetect: node 12 heard [0-9]* of the [0-9]* members it asked within a timeout, twice running, [0-9]* deaths into a burst" ||
	{ show_island; fail "node 12 was not fenced by its reach check"; }
for i in $ISLAND; do
	d=0
	for j in $MAJOR; do d=$((d + $(count_events "$FTD_TMP/dev.$i" NODE_DEAD "$j"))); done
	log "node $i: fenced $(( ($(event_query first "$FTD_TMP/dev.$i" FENCED origin "$i") - before) / 1000000 )) ms after the cut, having delivered $d deaths, minority of $(stat_counter "$i" minority); kernel: $(kernel_since "$mark" | grep -o "node $i heard [0-9]* of the [0-9]* members it asked" | tail -1)"
	[ "$d" -le 5 ] || { show_island; fail "node $i delivered $d deaths before it fenced"; }
done

cut_settled "$TIMEOUT_MS" "$MAJOR" "$ISLAND"
for i in $MAJOR; do
	for j in $MAJOR; do
		has_event "$FTD_TMP/dev.$i" NODE_DEAD "$j" && fail "node $i declared node $j dead"
	done
done
log "nodes 1-10 declared $ISLAND once each and carried on; the island fenced itself and holds still"

healed=$(now_ns)
switch_move br0 $ISLAND
wait_until 40 all_alive || { n 1 ftstat; n 12 ftstat; fail "nodes $ISLAND did not rejoin"; }
minority_none() { local i; for i in $(seq 1 $N); do [ "$(stat_counter "$i" minority)" = 0 ] || return 1; done; }
wait_until 10 minority_none || fail "a node still says it is in a minority after the heal"
for i in $MAJOR; do
	for j in $ISLAND; do
		[ "$(count_events "$FTD_TMP/dev.$i" NODE_RESTORED "$j")" = 1 ] ||
			{ cat "$FTD_TMP/dev.$i"; fail "node $i: NODE_RESTORED $j not exactly once"; }
	done
done
log "healed: $ISLAND rejoined, NODE_RESTORED once at 1-10"
sleep $(( (2 * TIMEOUT_MS + 999) / 1000 ))	# a suspicion of a rejoiner shows by now
rejoin_evidence() {
	local i
	for i in 1 12; do
		log "node $i, its events since the heal:"
		awk -v t="$healed" 'match($0, /"time_ns":[0-9]+/) && substr($0, RSTART + 10, RLENGTH - 10) + 0 > t' "$FTD_TMP/dev.$i"
		n "$i" ftstat
		n "$i" ftctl stats -j | jq -c '{rx, rx_stale, rx_replay, rx_unproven, ticks_late, fenced}'
	done
	kernel_since "$mark" | grep ftdetect | tail -20
}
suspected_rejoiners "$healed" $((2 * TIMEOUT_MS)) $MAJOR -- $ISLAND ||
	{ rejoin_evidence; fail "a node that learned a rejoined node alive suspected it"; }
log "no suspicion of $ISLAND after the heal"
log "ok"
