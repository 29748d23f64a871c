#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ranks.sh: rank deaths are known everywhere without any timeout.
#   1. kill -9 of a registered rank: PROC_DEAD at every node, once, far
#      sooner than the node timeout
#   1b. twelve ranks on node 5: every node's rank table for node 5 grows
#      past its first room (FTD_RANKS_FIRST, 8; a table is sized to what
#      it holds, mem_ranks in ftctl stats), and their kill -9 is PROC_DEAD
#      at every node, once each
#   2. a rank that deregisters: PROC_EXIT everywhere, never PROC_DEAD
#   2b. node 3 restarts its instance (leaves, comes back): every node
#      sends it its view, which carries those two ends as copies
#      (FTD_NOTICE_F_VIEW); node 3, which no longer holds the
#      registrations, is not told them again
#   3. a node dies with a registered rank: NODE_DEAD and RANKS_DEAD for the
#      rank everywhere
#
#   n1 .. n8 ── br0
source "$(dirname "$0")/../lib.sh"

N=8
cluster_create "$N"
cluster_up "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT"
wait_until 60 all_alive || not_up "cluster did not come up"
watch_devices $(seq 1 "$N")

# rank_event_count FILE EVENT RANK
rank_event_count() {
	jq -c --arg ev "$2" --argjson r "$3" 'select(.event == $ev and .rank == $r)' "$1" | wc -l
}
everyone_rank() { # EVENT RANK [EXCEPT...]
	local ev=$1 r=$2 i
	shift 2
	for ((i = 1; i <= N; i++)); do
		[[ " $* " == *" $i "* ]] && continue
		[ "$(rank_event_count "$FTD_TMP/dev.$i" "$ev" "$r")" -ge 1 ] || return 1
	done
}
# start_rank NODE JOB:RANK: a registered process; prints its pid.
start_rank() {
	# stdout elsewhere: the caller's $(...) would wait for this process to exit
	ip netns exec "$(ns_of "$1")" ftd-devwatch -r "$2" -q > /dev/null 2> "$FTD_TMP/rank.$2.err" &
	wait_until 10 grep -q ready "$FTD_TMP/rank.$2.err" || fail "rank $2 did not register"
	echo $!
}

# --- 1. kill -9
pid=$(start_rank 2 1:5)
sleep 1	# the registration reaches everyone
killed=$(now_ns)
kill -9 "$pid"
wait_until 10 everyone_rank PROC_DEAD 5 || fail "PROC_DEAD for rank 5 not everywhere"
sleep 0.5
rank_death_once "$N" 5 2 "$killed"

# --- 1b. more ranks on a node than a table's first room
mem_ranks_all() { local i; for ((i = 1; i <= N; i++)); do stat_counter "$i" mem_ranks; done | tr '\n' ' '; }
before=$(mem_ranks_all)
for m in $before; do
	# node 2's one rank: a table of 8 entries (192 bytes), not of 256 (8 kB)
	[ "$m" -gt 0 ] && [ "$m" -le 256 ] || fail "rank tables of one rank take $m bytes (every node: $before)"
done
pids=()
for r in $(seq 100 111); do
	pids+=("$(start_rank 5 2:$r)")
done
read -ra b <<< "$before"
# tables_grown: every node's tables grew by node 5's of 16 entries (512
# bytes allocated): more than a first room, far below 8 kB.
tables_grown() {
	local i
	after=$(mem_ranks_all)
	read -ra a <<< "$after"
	for ((i = 0; i < N; i++)); do
		[ "${a[$i]}" -gt $(( b[i] + 192 )) ] && [ "${a[$i]}" -le $(( b[i] + 1024 )) ] || return 1
	done
}
wait_until 10 tables_grown || fail "rank tables $before -> $after bytes at nodes 1-$N for node 5's 12 ranks"
log "rank tables (bytes, nodes 1-$N): $before with node 2's one rank; $after with node 5's 12 more"
kill -9 "${pids[@]}"
all_twelve_dead() {
	local r
	for r in $(seq 100 111); do
		everyone_rank PROC_DEAD "$r" || return 1
	done
}
wait_until 20 all_twelve_dead || fail "PROC_DEAD of node 5's 12 ranks not everywhere"
sleep 0.5
for ((i = 1; i <= N; i++)); do
	for r in $(seq 100 111); do
		[ "$(rank_event_count "$FTD_TMP/dev.$i" PROC_DEAD "$r")" = 1 ] ||
			fail "node $i: PROC_DEAD of rank $r not exactly once"
	done
done
log "node 5's 12 ranks killed: PROC_DEAD of each at all $N nodes, once"

# --- 2. clean exit: ftd-devwatch deregisters when its count runs out
ip netns exec "$(ns_of 3)" ftd-devwatch -r 1:6 -q -t 1 2> /dev/null
wait_until 10 everyone_rank PROC_EXIT 6 || fail "PROC_EXIT for rank 6 not everywhere"
sleep 0.3
for ((i = 1; i <= N; i++)); do
	[ "$(rank_event_count "$FTD_TMP/dev.$i" PROC_DEAD 6)" = 0 ] || fail "node $i: a clean exit reported as PROC_DEAD"
done
log "rank 6 exited cleanly: PROC_EXIT everywhere, no PROC_DEAD"

# --- 2b. node 3 restarts: views, with the ended ranks as copies
inc3=$(n 3 ftctl show -j | jq '.incarnation')
n 3 ftctl down
n 3 ftctl apply "$FTD_CONF" > /dev/null || fail "node 3: apply failed"
# It left (ftctl down), and comes back: every node holds its new incarnation alive.
restored3() {
	local i inc
	inc=$(n 3 ftctl show -j | jq '.incarnation')
	[ "$inc" != "$inc3" ] || return 1
	for ((i = 1; i <= N; i++)); do
		[ "$i" = 3 ] && continue
		n "$i" ftstat -j | jq -e --argjson inc "$inc" \
			'.nodes[] | select(.id == 3) | .state == "alive" and .incarnation == $inc' \
			> /dev/null || return 1
	done
}
wait_until 20 restored3 || { n 1 ftstat; fail "node 3's restart not seen everywhere"; }
wait_until 20 all_alive || not_up "node 3 did not see everyone again"
sleep 2	# the views of all 7
[ "$(rank_event_count "$FTD_TMP/dev.3" PROC_DEAD 5)" = 1 ] ||
	fail "node 3: rank 5's death told again after its restart"
[ "$(rank_event_count "$FTD_TMP/dev.3" PROC_EXIT 6)" = 1 ] ||
	fail "node 3: rank 6's exit told again after its restart"
log "node 3 restarted: the views it got told it no ended rank again"

# --- 3. the node of a registered rank dies
start_rank 4 1:7 > /dev/null
sleep 1
cut_node 4 > /dev/null
wait_until 20 everyone_rank RANKS_DEAD 7 4 || fail "RANKS_DEAD for rank 7 not everywhere"
sleep 0.3
for ((i = 1; i <= N; i++)); do
	[ "$i" = 4 ] && continue
	[ "$(rank_event_count "$FTD_TMP/dev.$i" RANKS_DEAD 7)" = 1 ] || fail "node $i: RANKS_DEAD not exactly once"
	has_event "$FTD_TMP/dev.$i" NODE_DEAD 4 || fail "node $i: no NODE_DEAD for node 4"
done
log "node 4 died with rank 7: NODE_DEAD and RANKS_DEAD at all 7 others"
log "ok"
