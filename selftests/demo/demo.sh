#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The demo (make demo): a 4-node cluster, one network namespace per node, in
# the VM. ftstat watches the events; a rank is killed with SIGKILL, then a
# node is cut off the network; each detection is shown with its latency.
#
#   n1 ──┐
#   n2 ──┤ br0      n2 runs a registered "rank" (killed)
#   n3 ──┤          n4 is cut off (its switch port goes down)
#   n4 ──┘
source "$(dirname "$0")/../lib.sh"

PERIOD=${FTD_DEMO_PERIOD:-$FTD_TEST_PERIOD}
TIMEOUT=${FTD_DEMO_TIMEOUT:-$FTD_TEST_TIMEOUT}
say() { printf '\n=== %s\n' "$*"; }
ms() { awk -v ns="$1" 'BEGIN { printf "%.1f ms", ns / 1e6 }'; }

say "Starting a 4-node cluster (period $PERIOD, timeout $TIMEOUT)"
cluster_create 4
cluster_up "$PERIOD" "$TIMEOUT"
cat "$FTD_CONF" | sed 's/^/    /'
wait_until 30 all_alive || fail "cluster did not come up"

say "ftstat on node 1"
n 1 ftstat

say "ftstat -w on nodes 1 and 2 (events as they happen)"
bg bash -c "ip netns exec $(ns_of 1) ftstat -w | sed -u 's/^/    [node 1] /'"
bg bash -c "ip netns exec $(ns_of 2) ftstat -w | sed -u 's/^/    [node 2] /'"
for i in 1 2; do watch_events "$i"; done

say "A rank (job 1, rank 5) registers on /dev/ftdetect on node 2, then is killed with SIGKILL"
# ip netns exec execs the command: $! is the rank's own pid.
ip netns exec "$(ns_of 2)" ftd-devwatch -r 1:5 -q 2> "$FTD_TMP/rank.err" &
rank=$!
wait_until 10 grep -q ready "$FTD_TMP/rank.err" || fail "rank did not register"
sleep 0.5
kill_at=$(now_ns)
kill -9 "$rank"
wait "$rank" 2>/dev/null || true
wait_until 10 bash -c "jq -e 'select(.event == \"PROC_DEAD\" and .rank == 5)' '$FTD_TMP/dev.2' >/dev/null" ||
	fail "PROC_DEAD not seen"
seen=$(jq -r 'select(.event == "PROC_DEAD" and .rank == 5) | .time_ns' "$FTD_TMP/dev.2" | head -n1)
sleep 0.3
echo "    -> PROC_DEAD for rank 5 on node 2, $(ms $((seen - kill_at))) after kill -9 (no timeout involved)"

say "Node 4 is cut off the network"
cut_at=$(cut_node 4 | jq '.before_ns')
wait_until 10 has_event "$FTD_TMP/dev.1" NODE_DEAD 4 || fail "node 4 not declared dead"
seen=$(first_event_time "$FTD_TMP/dev.1" NODE_DEAD 4)
sleep 0.3
echo "    -> NODE_DEAD for node 4 at node 1, $(ms $((seen - cut_at))) after the cut (timeout $TIMEOUT)"

say "ftstat on node 1 after the failures"
n 1 ftstat
say "Done"
