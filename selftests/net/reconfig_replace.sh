#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# reconfig_replace.sh: a node whose entry changes (an address changed, a
# rail added) is the same node. What every node knows of it survives the
# change: its incarnation, its state, its registered ranks, the deaths
# already delivered.
#   1. 3 nodes run on rail 0 only; node 2 holds a rank (job 1, rank 5).
#      Every node applies the file with rail 1 added: each entry is
#      replaced. Every node still holds node 2 alive at its incarnation and
#      rank 5 alive, and no death or restart is delivered. Then node 2 is
#      cut off on both rails: nodes 1 and 3 deliver NODE_DEAD and
#      RANKS_DEAD for rank 5, once each.
#   2. Node 1 then applies a file where the dead node 2 has another
#      address (a replaced entry, held dead). Node 3's repair keeps telling
#      node 1 of node 2's death: node 1 must not deliver it again.
#
#   n1 .. n3 ─ rail 0 ─ br0  (192.0.2.0/24)
#   n1 .. n3 ─ rail 1 ─ br1  (198.51.100.0/24)
source "$(dirname "$0")/../lib.sh"

N=3
cluster_create "$N" 2
cluster_up "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT"
conf_two=$FTD_CONF
# The same cluster on rail 0 only: every [nodes] line keeps its first address.
conf_one=$FTD_TMP/one-rail.conf
awk '/^\[nodes\]/ { nodes = 1 } nodes && /^[0-9]+ / { $0 = $1 " " $2 } { print }' \
	"$conf_two" > "$conf_one"
chmod 600 "$conf_one"
grep -q '^2 192\.0\.2\.2$' "$conf_one" || fail "the one-rail file was not made: $(cat "$conf_one")"
for ((i = 1; i <= N; i++)); do
	n "$i" ftctl apply "$conf_one" > /dev/null || fail "node $i: applying the one-rail file failed"
done
wait_until 30 all_alive || not_up "the cluster did not come up on rail 0"
watch_devices 1 3
ip netns exec "$(ns_of 2)" ftd-devwatch -r 1:5 -q > /dev/null 2> "$FTD_TMP/rank.err" &
pid=$!
wait_until 10 grep -q ready "$FTD_TMP/rank.err" || fail "rank 1:5 did not register on node 2"
rank_alive_at() { n "$1" ftd-status -r 1:5 2> /dev/null | grep -q '"state":"alive"'; }
rank_known() { rank_alive_at 1 && rank_alive_at 3; }
wait_until 10 rank_known || fail "nodes 1 and 3 do not hold rank 1:5 registered"
inc2=$(n 2 ftctl show -j | jq '.incarnation')

# held OBSERVER: node 2's state and incarnation as OBSERVER holds them.
held() {
	n "$1" ftstat -j | jq -r '.nodes[] | select(.id == 2) | "\(.state)@\(.incarnation)"'
}

# --- 1. a rail is added: every entry is replaced, everywhere
for ((i = 1; i <= N; i++)); do
	n "$i" ftctl apply "$conf_two" > /dev/null || fail "node $i: applying the two-rail file failed"
done
two_rails() {
	local i
	for ((i = 1; i <= N; i++)); do
		n "$i" ftstat -j | jq -e '.nodes[] | select(.id == 2) | .rails | length == 2' \
			> /dev/null || return 1
	done
}
wait_until 10 two_rails || { n 1 ftstat -r; fail "node 2 does not have two rails everywhere"; }
wait_until 30 all_alive || not_up "the cluster did not come up on two rails"
for i in 1 3; do
	[ "$(held "$i")" = "alive@$inc2" ] ||
		fail "node $i holds node 2 at $(held "$i") after the rail was added, not alive@$inc2"
	rank_alive_at "$i" || fail "node $i forgot rank 1:5 when node 2's entry was replaced"
done
[ "$(n 2 ftstat -j | jq '.nodes[] | select(.id == 2) | .incarnation')" = "$inc2" ] ||
	fail "node 2 holds itself at incarnation $(n 2 ftstat -j | jq '.nodes[] | select(.id == 2) | .incarnation'), not $inc2"
for i in 1 3; do
	for ev in NODE_DEAD NODE_RESTORED RANKS_DEAD PROC_DEAD; do
		[ "$(event_query count "$FTD_TMP/dev.$i" "$ev" node 2)" = 0 ] ||
			fail "node $i delivered $ev for node 2 when its entry was replaced"
	done
done
log "rail 1 added everywhere: node 2 still alive@$inc2 and rank 1:5 alive at nodes 1 and 3"

cut=$(now_ns)
cut_node 2 0 > /dev/null
cut_node 2 1 > /dev/null
ranks_dead_at() { [ "$(event_query count "$FTD_TMP/dev.$1" RANKS_DEAD rank 5)" -ge 1 ]; }
both_know() { has_event "$FTD_TMP/dev.1" NODE_DEAD 2 && has_event "$FTD_TMP/dev.3" NODE_DEAD 2; }
wait_until 20 both_know || { n 1 ftstat; fail "node 2 not declared dead at nodes 1 and 3"; }
wait_until 10 ranks_dead_at 1 || { cat "$FTD_TMP/dev.1"; fail "node 1: NODE_DEAD for node 2 but no RANKS_DEAD for rank 5"; }
wait_until 10 ranks_dead_at 3 || { cat "$FTD_TMP/dev.3"; fail "node 3: NODE_DEAD for node 2 but no RANKS_DEAD for rank 5"; }
sleep 1
for i in 1 3; do
	[ "$(count_events "$FTD_TMP/dev.$i" NODE_DEAD 2)" = 1 ] || fail "node $i: NODE_DEAD for node 2 not once"
	[ "$(event_query count "$FTD_TMP/dev.$i" RANKS_DEAD rank 5)" = 1 ] ||
		fail "node $i: RANKS_DEAD for rank 5 not once"
	log "node $i: NODE_DEAD for node 2 $(( ($(first_event_time "$FTD_TMP/dev.$i" NODE_DEAD 2) - cut) / 1000000 )) ms after the cut, with RANKS_DEAD for rank 5"
done

# --- 2. the dead node's entry changes at node 1 only
conf_moved=$FTD_TMP/moved.conf
sed 's/^2 192\.0\.2\.2 /2 192.0.2.22 /' "$conf_two" > "$conf_moved"
chmod 600 "$conf_moved"
grep -q '^2 192\.0\.2\.22 ' "$conf_moved" || fail "the moved file was not made: $(cat "$conf_moved")"
n 1 ftctl apply "$conf_moved" > /dev/null || fail "node 1: applying the moved file failed"
[ "$(held 1)" = "dead@$inc2" ] || fail "node 1 holds node 2 at $(held 1) after its entry changed, not dead@$inc2"
# Repair (digest and view exchange with node 3) has many periods to teach it again.
sleep "$(awk -v t="${FTD_TEST_TIMEOUT%ms}" 'BEGIN { print t * 30 / 1000 }')"
[ "$(count_events "$FTD_TMP/dev.1" NODE_DEAD 2)" = 1 ] ||
	{ cat "$FTD_TMP/dev.1"; fail "node 1 delivered node 2's death again after its entry changed"; }
[ "$(event_query count "$FTD_TMP/dev.1" RANKS_DEAD rank 5)" = 1 ] ||
	fail "node 1 delivered rank 5's death again after node 2's entry changed"
[ "$(held 1)" = "dead@$inc2" ] || fail "node 1 holds node 2 at $(held 1), not dead@$inc2"
log "node 2's entry changed at node 1 while dead: still dead@$inc2, its death delivered once"
log "ok"
