#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# preds_dead.sh: every survivor's observed predecessors die at once. Each
# survivor then hears nobody, as if it were the one cut off; it asks a few
# other members (PROBE) whether it can still reach anyone, and one answer
# is enough to trust its own silence verdicts.
#   9 nodes, k = 2; nodes 2, 3, 5 and 6 cut off together: node 4 observes
#   3 and 2, node 7 observes 6 and 5, all four silent. Both declare all
#   four dead, once each, and never each other nor anyone else, and
#   nobody is fenced. (The five survivors are a majority of the nine: with
#   fewer, the partition rule would fence them, see partition.sh.)
#
#   n1 .. n9 ── br0
source "$(dirname "$0")/../lib.sh"

N=9
WATCHED="4 7"
cluster_create "$N"
cluster_up "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT"
wait_until 60 all_alive || { n 1 ftstat; fail "cluster did not come up"; }
watch_events 4
watch_events 7
sleep 0.5
mark=$(kernel_mark)
show_watched() {
	show_files "$FTD_TMP/dev.4" "$FTD_TMP/dev.7"
	echo "---- kernel"
	kernel_since "$mark" | grep ftdetect
	n 1 ftctl stats -j
	n 4 ftctl stats -j
	# Per CPU, in hex: processed, dropped (backlog full), time_squeeze (budget spent).
	echo "---- /proc/net/softnet_stat"
	cut -d' ' -f1-3 /proc/net/softnet_stat
}
FTD_ON_FAIL=show_watched

before=$(now_ns)
printf 'link set s%sr0 down\n' 2 3 5 6 | sw ip -batch - || fail "cannot cut the four off"
log "nodes 2, 3, 5, 6 cut off in $(( ($(now_ns) - before) / 1000000 )) ms"
all_declared() {
	local i j
	for i in $WATCHED; do
		for j in 2 3 5 6; do
			has_event "$FTD_TMP/dev.$i" NODE_DEAD "$j" || return 1
		done
	done
}
wait_until 20 all_declared || { n 4 ftstat; n 7 ftstat; fail "the four were not all declared dead at 4 and 7"; }
sleep 0.5
for i in $WATCHED; do
	for j in 2 3 5 6; do
		[ "$(count_events "$FTD_TMP/dev.$i" NODE_DEAD "$j")" = 1 ] ||
			fail "node $i: NODE_DEAD $j not exactly once"
		[ "$(count_events "$FTD_TMP/nl.$i" NODE_DEAD "$j")" = 1 ] ||
			fail "node $i (netlink): NODE_DEAD $j not exactly once"
		t=$(first_event_time "$FTD_TMP/dev.$i" NODE_DEAD "$j")
		log "node $i: NODE_DEAD $j $(( (t - before) / 1000 )) us after the cut (timeout $FTD_TEST_TIMEOUT)"
	done
done
for i in $WATCHED; do
	for j in 1 4 7 8 9; do
		has_event "$FTD_TMP/dev.$i" NODE_DEAD "$j" && fail "node $i declared node $j dead"
		[ "$i" = "$j" ] || [ "$(node_state "$i" "$j")" = alive ] ||
			fail "node $i holds node $j $(node_state "$i" "$j")"
	done
	grep -q FENCED "$FTD_TMP/dev.$i" && fail "node $i was fenced"
done
log "ok"
