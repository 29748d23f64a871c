#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# repair.sh: a notice lost on every path is still delivered (anti-entropy).
#   6 nodes, k = 2. Every notice sent to node 3 is dropped (a tc filter on
#   the frame type at its port; heartbeats pass, so it hears its
#   predecessors, and its frames go out, so nobody times it out) while
#   node 6 is cut off and declared dead by the others. Node 6 is neither
#   observed by node 3 nor one of its observers, so once node 3 gets
#   notices again only the digests it exchanges can tell it: NODE_DEAD 6
#   at node 3 exactly once, nobody fenced, nobody else declared; then the
#   views agree and the repairs stop. (Node 3 deaf to everything for a
#   timeout would fence itself: kmod/proto/lease.h.)
#   Then the same for a rank: node 3 holds rank 1:5 of node 2 registered,
#   gets no notice while the rank is killed (PROC_DEAD everywhere else),
#   and once it hears again only the digests (which count every node's
#   live registrations) can tell it: PROC_DEAD 1:5 at node 3 exactly once,
#   and again the repairs stop.
#
#   n1 .. n6 ── br0
source "$(dirname "$0")/../lib.sh"

N=6
cluster_create "$N"
cluster_up "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT"
wait_until 30 all_alive || { n 1 ftstat; fail "cluster did not come up"; }
watch_devices 1 2 4 5
watch_events 3
sleep 1

repairs() {
	local i sum=0
	for ((i = 1; i <= N; i++)); do
		sum=$((sum + $(stat_counter "$i" repairs)))
	done
	echo "$sum"
}

deaf_to_notices 3
deaf=$(now_ns)
cut_node 6 > /dev/null
others_know() {
	local i
	for i in 1 2 4 5; do
		has_event "$FTD_TMP/dev.$i" NODE_DEAD 6 || return 1
	done
}
wait_until 20 others_know || { n 1 ftstat; fail "node 6 not declared dead at 1, 2, 4, 5"; }
sleep 0.5
has_event "$FTD_TMP/dev.3" NODE_DEAD 6 && fail "node 3 heard of the death through the filter"
dropped=$(n 3 tc -s filter show dev n3r0 ingress | awk '/Sent/ { print $4; exit }')
[ "${dropped:-0}" -gt 0 ] || fail "the filter dropped no notice to node 3"
hears_notices 3
hears=$(now_ns)
log "node 3 got no notice for $(( (hears - deaf) / 1000000 )) ms ($dropped dropped), while node 6 was declared dead"

wait_until 30 has_event "$FTD_TMP/dev.3" NODE_DEAD 6 ||
	{ n 3 ftstat; n 3 ftctl stats; fail "node 3 never learnt of node 6's death"; }
t=$(first_event_time "$FTD_TMP/dev.3" NODE_DEAD 6)
log "node 3: NODE_DEAD 6 $(( (t - hears) / 1000000 )) ms after it heard again (digests every 1 s +-25 %)"
sleep 1
[ "$(count_events "$FTD_TMP/dev.3" NODE_DEAD 6)" = 1 ] || fail "node 3: NODE_DEAD 6 not exactly once"
[ "$(count_events "$FTD_TMP/nl.3" NODE_DEAD 6)" = 1 ] || fail "node 3 (netlink): NODE_DEAD 6 not exactly once"
for ((i = 1; i <= 5; i++)); do
	grep -q FENCED "$FTD_TMP/dev.$i" && fail "node $i was fenced"
	[ "$(count_events "$FTD_TMP/dev.$i" NODE_DEAD 6)" = 1 ] || fail "node $i: NODE_DEAD 6 not once"
	for ((j = 1; j <= 5; j++)); do
		has_event "$FTD_TMP/dev.$i" NODE_DEAD "$j" && fail "node $i declared node $j dead"
	done
done
[ "$(repairs)" -ge 1 ] || fail "no node counts a repair"

# Agreed views: digests keep going, repairs do not (8 s: several rounds).
before=$(repairs)
sleep 8
after=$(repairs)
[ "$after" = "$before" ] || fail "views still differ: repairs $before -> $after"
log "views agree: $after repairs in all, none in the last 8 s"

# --- a rank's crash, lost on every path to node 3
# rank_events NODE EVENT: how many EVENT records of rank 1:5 node NODE has.
rank_events() {
	awk -v ev="\"event\":\"$2\"" 'index($0, ev) && /"job":1,/ && /"rank":5,/ { n++ }
		END { print n + 0 }' "$FTD_TMP/dev.$1"
}
rank_known_alive() { n 3 ftd-status -r 1:5 2>/dev/null | grep -q '"state":"alive"'; }
ip netns exec "$(ns_of 2)" ftd-devwatch -r 1:5 -q > /dev/null 2> "$FTD_TMP/rank.err" &
rank_pid=$!
wait_until 10 grep -q ready "$FTD_TMP/rank.err" || fail "rank 1:5 did not register on node 2"
wait_until 10 rank_known_alive || fail "node 3 does not hold rank 1:5 registered"
deaf_to_notices 3
kill -9 "$rank_pid"
wait "$rank_pid" 2> /dev/null || :	# (137: the kill)
others_know_rank() {
	local i
	for i in 1 2 4 5; do
		[ "$(rank_events "$i" PROC_DEAD)" -ge 1 ] || return 1
	done
}
wait_until 20 others_know_rank || fail "PROC_DEAD 1:5 not at 1, 2, 4, 5"
sleep 0.5
[ "$(rank_events 3 PROC_DEAD)" = 0 ] || fail "node 3 heard of the rank's death through the filter"
hears_notices 3
hears=$(now_ns)
node3_knows_rank() { [ "$(rank_events 3 PROC_DEAD)" -ge 1 ]; }
wait_until 30 node3_knows_rank || { n 3 ftctl stats; fail "node 3 never learnt of rank 1:5's death"; }
t=$(awk '/"event":"PROC_DEAD"/ && /"job":1,/ && /"rank":5,/ && match($0, /"time_ns":[0-9]+/) {
	print substr($0, RSTART + 10, RLENGTH - 10); exit }' "$FTD_TMP/dev.3")
log "node 3: PROC_DEAD 1:5 $(( (t - hears) / 1000000 )) ms after it heard again"
sleep 1
for i in 1 2 3 4 5; do
	[ "$(rank_events "$i" PROC_DEAD)" = 1 ] || fail "node $i: PROC_DEAD 1:5 not exactly once"
	grep -q FENCED "$FTD_TMP/dev.$i" && fail "node $i was fenced"
done
before=$(repairs)
sleep 8
after=$(repairs)
[ "$after" = "$before" ] || fail "views still differ after the rank's repair: repairs $before -> $after"
log "views agree again: $after repairs in all"
log "ok"
