#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# procdead.sh: how long a rank's crash takes to be known at every node,
# against the one-way latency of a plain UDP packet between the same
# namespaces, measured in the same run.
#
#   n1 .. n8 ── br0        rank on node r (r rotates), kill -9
#
# A registered rank (ftb-crash, sleeping, or with -b spinning as a computing
# rank does) is killed with SIGKILL; ftb-crash stamps the kill itself. For
# each kill: the delay to the PROC_DEAD of the rank's own node (the kernel's
# part: the dead process's file is released late in its exit), to the last
# node's PROC_DEAD, and between the two (ftdetect's part: the notice crossing
# the overlay). Then ftb-udp sends packets from node 1 to every other node
# and takes their one-way delay to the receiving kernel's stamp (the same
# point in the stack where an event gets its time_ns) and to the
# application. Output: a table, and build/bench/procdead.json.
#
# BENCH_KILLS (default 10) kills per kind (sleeping, spinning),
# BENCH_NODES (default 8) nodes, BENCH_UDP (default 50) packets per node.
source "$(dirname "$0")/lib.sh"

NODES=${BENCH_NODES:-8}
KILLS=${BENCH_KILLS:-10}
UDP=${BENCH_UDP:-50}
PERIOD=10ms
TIMEOUT=100ms
OUT=$BENCH_OUT/procdead.json

cluster_create "$NODES"
cluster_up "$PERIOD" "$TIMEOUT"
wait_until 60 all_alive || bench_fail "$OUT" procdead "cluster of $NODES did not come up"
watch_devices $(seq 1 "$NODES")
sleep 0.5

everyone_proc_dead() { # RANK
	local i
	for ((i = 1; i <= NODES; i++)); do
		grep -q "\"event\":\"PROC_DEAD\".*\"rank\":$1," "$FTD_TMP/dev.$i" || return 1
	done
}

: > "$FTD_TMP/kills"
rank=0
for busy in 0 1; do
	for ((k = 1; k <= KILLS; k++)); do
		rank=$((rank + 1))
		node=$(( (rank - 1) % NODES + 1 ))
		flag=""
		[ "$busy" = 1 ] && flag=-b
		out=$(n "$node" ftb-crash $flag -w 1 "1:$rank") ||
			bench_fail "$OUT" procdead "ftb-crash could not register rank $rank on node $node"
		jq -c --argjson node "$node" --argjson rank "$rank" --argjson busy "$busy" \
			'. + {node: $node, rank: $rank, busy: ($busy == 1)}' <<< "$out" >> "$FTD_TMP/kills"
		wait_until 20 everyone_proc_dead "$rank" ||
			bench_fail "$OUT" procdead "PROC_DEAD of rank $rank (node $node) not at every node within 20 s"
	done
done
sleep 0.3

# The yardstick: plain UDP from node 1 to each other node, same cluster,
# heartbeats running.
for ((j = 2; j <= NODES; j++)); do
	n "$j" ftb-udp recv 9000 "$UDP" > "$FTD_TMP/udp.$j.json" 2> "$FTD_TMP/udp.$j.err" &
	rpid=$!
	wait_until 10 grep -q ready "$FTD_TMP/udp.$j.err" || bench_fail "$OUT" procdead "ftb-udp recv did not start"
	n 1 ftb-udp send "$(addr4 0 "$j")" 9000 "$UDP" 1000 ||
		bench_fail "$OUT" procdead "ftb-udp send to node $j failed"
	wait "$rpid" || bench_fail "$OUT" procdead "node $j: $(cat "$FTD_TMP/udp.$j.err")"
done

for ((i = 1; i <= NODES; i++)); do
	jq -c --argjson at "$i" 'select(.event == "PROC_DEAD") | . + {at: $at}' "$FTD_TMP/dev.$i"
done > "$FTD_TMP/events"
cat "$FTD_TMP"/udp.*.json | jq -s '{kernel: [.[].kernel_ns[][0]], app: [.[].kernel_ns[][1]]}' > "$FTD_TMP/udp"

jqs -n --slurpfile kills "$FTD_TMP/kills" --slurpfile ev "$FTD_TMP/events" \
	--slurpfile udp "$FTD_TMP/udp" --argjson env "$(bench_env)" --argjson nodes "$NODES" \
	--arg period "$PERIOD" --arg timeout "$TIMEOUT" '
	include "stats";
	[$kills[] | . as $k |
		[$ev[] | select(.rank == $k.rank)] as $e |
		([$e[] | select(.at == $k.node)][0].time_ns) as $own |
		($e | map(.time_ns) | max) as $last |
		{busy: $k.busy, nodes: ($e | length), own: ($own - $k.kill_ns),
		 last: ($last - $k.kill_ns), spread: ($last - $own),
		 reaped: ($k.reaped_ns - $k.kill_ns)}] as $s |
	def series($b): [$s[] | select(.busy == $b)] as $x |
		{kills: ($x | length), at_every_node: ([$x[] | select(.nodes == $nodes)] | length),
		 kill_to_own_node_ns: ([$x[].own] | stats),
		 kill_to_last_node_ns: ([$x[].last] | stats),
		 own_node_to_last_node_ns: ([$x[].spread] | stats),
		 kill_to_reaped_ns: ([$x[].reaped] | stats)};
	{benchmark: "procdead", env: $env, measured: true, nodes: $nodes, period: $period, timeout: $timeout,
	 note: "kill_to_own_node = SIGKILL to the PROC_DEAD of the rank'"'"'s own node (kernel: file released at exit); own_node_to_last_node = ftdetect'"'"'s notice reaching every node; udp = one-way delay of plain UDP between the same namespaces to the receiver'"'"'s kernel stamp and to the application. TCG-emulated guest.",
	 sleeping_rank: series(false), spinning_rank: series(true),
	 udp_one_way_kernel_ns: ($udp[0].kernel | map(select(. >= 0)) | stats),
	 udp_one_way_app_ns: ($udp[0].app | stats)}' > "$OUT"

echo "# process-crash notice latency, $NODES nodes ($(bench_env | jq -r .virtualization), $(nproc) CPU), in us"
printf '%-34s %6s %9s %9s %9s %9s\n' WHAT N MIN MEDIAN P99 MAX
jq -r '
	def row($name; $s): [$name, $s.n, $s.min, $s.median, $s.p99, $s.max] | @tsv;
	row("sleeping: kill -> own node"; .sleeping_rank.kill_to_own_node_ns),
	row("sleeping: own node -> last node"; .sleeping_rank.own_node_to_last_node_ns),
	row("sleeping: kill -> last node"; .sleeping_rank.kill_to_last_node_ns),
	row("spinning: kill -> own node"; .spinning_rank.kill_to_own_node_ns),
	row("spinning: own node -> last node"; .spinning_rank.own_node_to_last_node_ns),
	row("spinning: kill -> last node"; .spinning_rank.kill_to_last_node_ns),
	row("UDP one-way (kernel stamp)"; .udp_one_way_kernel_ns),
	row("UDP one-way (application)"; .udp_one_way_app_ns)' "$OUT" |
awk -F'\t' '{ printf "%-34s %6s", $1, $2; for (i = 3; i <= 6; i++) printf " %9.1f", $i / 1000; print "" }'
echo "# -> $OUT"
