#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Reconfiguring live nodes while heartbeats and events flow: node 1 and
# node 2 apply alternating files (node 3's address changes: a replace;
# node 4 is removed and added back: a delete and an add) many times, while
# a reader drains events on node 1. A replaced or removed node must never
# be touched after it is freed (the harness fails on any kernel report; the
# debug kernel's KASAN sees what a plain kernel would not), and the cluster
# must converge again on the original file. Last, node 1 applying the file
# as node 3 (a wrong --node) is refused, and changes nothing.
#
#   n1 --+                 file A: 1 .1   2 .2   3 .3    4 .4
#   n2 --+-- br0 (sw)      file B: 1 .1   2 .2   3 .33   (no 4)
#   n3 --+
#   n4 --+
. "$(dirname "$0")/../lib.sh"

ROUNDS=${FTD_RECONFIG_ROUNDS:-30}

cluster_create 4
cluster_up "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT"
wait_until 20 all_alive || fail "the cluster did not come up"
watch_devices 1

conf_b=$FTD_TMP/b.conf
sed -e 's/^3 192\.0\.2\.3$/3 192.0.2.33/' -e '/^4 /d' "$FTD_CONF" > "$conf_b"
chmod 600 "$conf_b"
grep -q '^3 192.0.2.33$' "$conf_b" || fail "file B was not made: $(cat "$conf_b")"

churn() { # node
	local i
	for ((i = 0; i < ROUNDS; i++)); do
		n "$1" ftctl apply "$conf_b" > /dev/null || return 1
		n "$1" ftctl apply "$FTD_CONF" > /dev/null || return 1
	done
}
start=$(date +%s%N)
churn 1 & c1=$!
churn 2 & c2=$!
wait "$c1" || fail "ftctl apply failed on node 1"
wait "$c2" || fail "ftctl apply failed on node 2"
log "$((2 * ROUNDS)) applies on each of nodes 1 and 2 in $(( ($(date +%s%N) - start) / 1000000 )) ms"

# Node tables are back to file A on both: 4 nodes each.
for i in 1 2; do
	nodes=$(n "$i" ftstat -j | jq '.nodes | length')
	[ "$nodes" = 4 ] || fail "node $i holds $nodes nodes after the churn, not 4"
done
# A replaced peer keeps what was known of the node, but our streams to it
# restart: the cluster must converge, every node alive everywhere.
wait_until 30 all_alive || { n 1 ftstat; n 2 ftstat; fail "the cluster did not converge after the churn"; }
# The status table too: a node deleted while another CPU still told of it
# must not come back there.
for i in 1 2; do
	ids=$(n "$i" ftd-status | jq -c '[.nodes[].id]')
	[ "$ids" = "[1,2,3,4]" ] || fail "node $i's status table lists nodes $ids after the churn, not [1,2,3,4]"
done
[ "$(pgrep -c ftd-devwatch)" -ge 1 ] || fail "the event reader on node 1 died"
log "converged: every node alive at every node; $(wc -l < "$FTD_TMP/dev.1") events read on node 1"

show1=$(n 1 ftctl show -j | jq -c '{node, incarnation, up}')
out=$(n 1 ftctl apply --node 3 "$FTD_CONF" 2>&1) && fail "ftctl apply --node 3 on node 1 succeeded: $out"
[[ $out == *"node 3 (given with --node) has no address on this host"*"--force"* ]] ||
	fail "no clear error for --node 3 on node 1: $out"
[ "$(n 1 ftctl show -j | jq -c '{node, incarnation, up}')" = "$show1" ] ||
	fail "a refused apply changed node 1's instance: $show1 -> $(n 1 ftctl show -j)"
log "node 1 applying as node 3: refused ($out)"
