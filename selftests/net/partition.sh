#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# partition.sh: only a majority declares (kmod/proto/partition.h).
#   6 nodes, k = 2, period 10 ms, timeout 200 ms. The switch has a second
#   bridge: moving ports onto it splits the cluster in two, moving them
#   back heals it (the ports stay up: no rail goes down).
#   1. 4/2, nodes 5 and 6 apart: 1-4 declare 5 and 6, once each, and are
#      never fenced. 5 and 6 fence themselves once each (FENCED, origin
#      itself) before they declared all four, then stay in a minority of
#      6 (ftctl stats: minority) and declare nobody while the cut lasts.
#      (A minority node may be fenced twice: once by its lease when it
#      hears nobody, as node 5 whose two predecessors are both apart, and
#      once by the rule when it hears its side again and its count
#      crosses half, or by its reach check (proto/reach.h) when a
#      predecessor on its side fenced or it counted more than k deaths.
#      The test asks for at least one fence.)
#   2. heal: NODE_RESTORED 5 and 6 once at 1-4, everyone alive everywhere,
#      no minority left, no further fence; none of 1-4 suspects 5 or 6
#      within two timeouts of learning it back (a rejoiner must hear its
#      observers at once: island.sh says why).
#   3. 3/3, nodes 4, 5 and 6 apart: the half with the lowest id goes on:
#      1-3 declare 4-6 and are not fenced; 4-6 fence themselves.
#   4. heal again: everyone alive everywhere, no suspicion of 4-6 at 1-3.
#   At no time does any node of 1-3 deliver the death of another of 1-3.
#   A minority node delivers each death it counts, also one it delivered
#   in the first cut (a false death then, taken back at the heal).
#
#   n1 .. n6 ── br0 (br1: the other side of a cut)
source "$(dirname "$0")/../lib.sh"

N=6
TIMEOUT_MS=$(scaled 200)
cluster_create "$N"
switch_second_bridge
cluster_up "$FTD_TEST_PERIOD" "${TIMEOUT_MS}ms"
wait_until 60 all_alive || { n 1 ftstat; fail "cluster did not come up"; }
watch_devices $(seq 1 $N)
sleep 0.5

fenced() { event_query count "$FTD_TMP/dev.$1" FENCED origin "$1"; }
declared_all() { # NODES... -- DEAD...: every one of NODES delivered every death
	local sides=" $* " i j
	for i in ${sides%% -- *}; do
		for j in ${sides##* -- }; do
			has_event "$FTD_TMP/dev.$i" NODE_DEAD "$j" || return 1
		done
	done
}
fenced_all() { local i; for i in "$@"; do [ "$(fenced "$i")" -ge 1 ] || return 1; done; }
minority_all() { local i; for i in "$@"; do [ "$(stat_counter "$i" minority)" = "$N" ] || return 1; done; }
minority_none() { local i; for i in $(seq 1 $N); do [ "$(stat_counter "$i" minority)" = 0 ] || return 1; done; }

# split MAJORITY -- MINORITY: cut, then check both sides.
split() {
	local all="$*" major minor before i j d
	major=${all%% -- *}
	minor=${all##* -- }
	events_archive $(seq 1 $N)
	before=$(now_ns)
	mark=$(kernel_mark)
	switch_move br1 $minor
	log "nodes $minor apart from $major"
	wait_until 20 declared_all $major -- $minor ||
		{ n 1 ftstat; fail "nodes $major did not all declare $minor dead"; }
	wait_until 20 fenced_all $minor ||
		{ for i in $minor; do log "node $i: fenced $(fenced "$i")"; n "$i" ftstat; grep -v NODE_SUSPECT "$FTD_TMP/dev.$i"; done; dmesg | grep ftdetect | tail; fail "nodes $minor did not all fence themselves"; }
	wait_until 10 minority_all $minor ||
		{ for i in $minor; do log "node $i: minority $(stat_counter "$i" minority), fenced $(stat_counter "$i" fenced)"; n "$i" ftstat; grep -v NODE_SUSPECT "$FTD_TMP/dev.$i"; done; dmesg | grep ftdetect | tail; fail "nodes $minor are not all in a minority of $N"; }
	for i in $minor; do
		d=0
		for j in $major; do
			d=$((d + $(count_events "$FTD_TMP/dev.$i" NODE_DEAD "$j")))
		done
		log "node $i (minority): fenced $(( ($(event_query first "$FTD_TMP/dev.$i" FENCED origin "$i") - before) / 1000000 )) ms after the cut, after delivering $d of the ${major// /,} deaths; kernel: $(kernel_since "$mark" | grep -o "node $i [a-z0-9 ]*: fenced itself\|node $i heard [0-9]* of the [0-9]* members it asked" | paste -sd ';')"
		[ "$d" -lt "$(wc -w <<< "$major")" ] || fail "node $i declared the whole majority dead before fencing"
		# Of 6, a side of 2 or 3 counts 2 deaths or more before it crosses
		# half: fenced by that count (not by its lease, nor by its reach
		# check, which may come first), it delivered them, even one
		# delivered at the same incarnation in an earlier cut and taken
		# back at its heal (NODE_ALIVE).
		if kernel_since "$mark" | grep -q "node $i lost the majority" &&
			! kernel_since "$mark" | grep -q "node $i heard [0-9]* of the"; then
			[ "$d" -ge 1 ] || fail "node $i fenced by its count without delivering any of the deaths it counted"
		fi
	done
	cut_settled "$TIMEOUT_MS" "$major" "$minor"
	log "nodes $major declared $minor once each; $minor fenced themselves and hold still"
}

# heal MINORITY MAJORITY: move back; everyone alive, restored once, no minority.
heal() {
	local minor=$1 major=$2 i j healed
	healed=$(now_ns)
	switch_move br0 $minor
	wait_until 30 all_alive || { n 1 ftstat; n "${minor%% *}" ftstat; fail "nodes $minor did not rejoin"; }
	wait_until 10 minority_none || fail "a node still says it is in a minority after the heal"
	for i in $major; do
		for j in $minor; do
			[ "$(count_events "$FTD_TMP/dev.$i" NODE_RESTORED "$j")" = 1 ] ||
				{ cat "$FTD_TMP/dev.$i"; for k in $minor; do echo "node $k:"; grep -v 'NODE_SUSPECT\|NODE_ALIVE' "$FTD_TMP/dev.$k"; done
				  dmesg | grep ftdetect | tail -20; fail "node $i: NODE_RESTORED $j not exactly once"; }
		done
	done
	log "healed: nodes $minor rejoined, NODE_RESTORED once at $major"
	sleep $(( (2 * TIMEOUT_MS + 999) / 1000 ))	# a suspicion of a rejoiner shows by now
	suspected_rejoiners "$healed" $((2 * TIMEOUT_MS)) $major -- $minor ||
		{ grep -v NODE_ALIVE "$FTD_TMP/dev.${major%% *}" | tail -20; fail "a node that learned a rejoined node alive suspected it"; }
	log "no suspicion of $minor at $major after the heal"
}

split 1 2 3 4 -- 5 6
heal "5 6" "1 2 3 4"
sleep 1
for i in 5 6; do [ "$(fenced "$i")" = 0 ] || fail "node $i fenced again at the heal"; done

split 1 2 3 -- 4 5 6
heal "4 5 6" "1 2 3"

events_archive $(seq 1 $N)
for i in 1 2 3; do
	for j in 1 2 3; do
		has_event "$FTD_TMP/all.$i" NODE_DEAD "$j" && fail "node $i declared node $j dead"
	done
	[ "$(event_query count "$FTD_TMP/all.$i" FENCED node "$i")" = 0 ] || fail "node $i was fenced"
done
log "ok"
