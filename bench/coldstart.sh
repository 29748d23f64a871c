#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# coldstart.sh: what a cluster's start and a late join cost in notices.
# For each N of BENCH_COLD_NODES (default 8 16), a cluster of N + 1 nodes
# is listed in every node's file, and:
#
#   cold start  nodes 1..N are configured one after the other (`ftctl
#               apply`, as a boot would: each starts while the earlier ones
#               run), until each holds every other alive, then
#               BENCH_COLD_SETTLE seconds (default 6: several digest rounds)
#               for what follows a start (views, digests) to be counted
#   join        node N + 1 is configured: the same, counted apart
#
# Counted, summed over the nodes (`ftctl stats`): notice frames and the
# notices they carried (announcements, views, digests, SYNCs, share
# acknowledgements: every notice kind), and the views exchanged because
# two settled digests differed (`repairs`). Heartbeats are not notices and
# are not counted. Period and timeout: BENCH_COLD_PERIOD / BENCH_COLD_TIMEOUT
# (default 20ms / 200ms, the ratio of the suite's). Output: a table, and
# build/bench/coldstart.json.
source "$(dirname "$0")/lib.sh"

NODES_LIST=${BENCH_COLD_NODES:-8 16}
SETTLE=${BENCH_COLD_SETTLE:-6}
PERIOD=${BENCH_COLD_PERIOD:-20ms}
TIMEOUT=${BENCH_COLD_TIMEOUT:-200ms}
OUT=$BENCH_OUT/coldstart.json

# counters FIRST LAST: notice counters summed over nodes FIRST..LAST.
counters() {
	local i
	for ((i = $1; i <= $2; i++)); do
		n "$i" ftctl stats -j
	done | jq -sc '{notice_frames: (map(.notices_tx) | add), notices: (map(.notice_items_tx) | add),
		repairs: (map(.repairs) | add), views_asked: (map(.views_asked) | add), fenced: (map(.fenced) | add)}'
}

# diff A B: B - A, key by key, as JSON.
diff_counters() { jq -nc --argjson a "$1" --argjson b "$2" '$b | with_entries(.value -= $a[.key])'; }

run_case() {
	local nodes=$1 out=$2 all=$(($1 + 1)) i t0 t_up t1 t_join cold join
	cluster_create "$all"
	FTD_CONF=$FTD_TMP/cluster.conf
	cluster_config "$FTD_CONF" "$PERIOD" "$TIMEOUT"
	t0=$(now_ns)
	for ((i = 1; i <= nodes; i++)); do
		n "$i" ftctl apply "$FTD_CONF" > /dev/null || bench_fail "$out" coldstart "node $i: ftctl apply failed"
	done
	wait_until 120 alive_among $(seq 1 "$nodes") ||
		bench_fail "$out" coldstart "$nodes nodes did not all hold each other alive in 120 s"
	t_up=$(now_ns)
	sleep "$SETTLE"
	cold=$(counters 1 "$nodes")

	t1=$(now_ns)
	n "$all" ftctl apply "$FTD_CONF" > /dev/null || bench_fail "$out" coldstart "node $all: ftctl apply failed"
	wait_until 60 all_alive ||
		bench_fail "$out" coldstart "node $all was not held alive by all, nor held all alive, in 60 s"
	t_join=$(now_ns)
	sleep "$SETTLE"
	join=$(diff_counters "$cold" "$(counters 1 "$all")")
	jq -n --argjson nodes "$nodes" --argjson up "$((t_up - t0))" --argjson joined "$((t_join - t1))" \
		--argjson cold "$cold" --argjson join "$join" --arg period "$PERIOD" --arg timeout "$TIMEOUT" \
		--argjson settle "$SETTLE" '
		{nodes: $nodes, period: $period, timeout: $timeout, settle_s: $settle,
		 cold_start: ($cold + {all_alive_ns: $up,
			notices_per_node: ($cold.notices / $nodes | floor),
			frames_per_node: ($cold.notice_frames / $nodes | floor)}),
		 join: ($join + {all_alive_ns: $joined,
			notices_per_node: ($join.notices / ($nodes + 1) | floor)})}' > "$out"
}

if [ "${1:-}" = --case ]; then
	run_case "$2" "$3"
	exit 0
fi

status=0
: > "$FTD_TMP/results"
for nodes in $NODES_LIST; do
	log "coldstart: $nodes nodes, then one more, period $PERIOD, timeout $TIMEOUT"
	bench_case "$nodes" || status=1
done
jq -s --argjson env "$(bench_env)" '
	{benchmark: "coldstart", env: $env,
	 note: "notices = notices carried by notice frames (every kind), summed over the nodes (ftctl stats notice_items_tx), from the first apply until BENCH_COLD_SETTLE s after every node held every other alive; join: the same for one node more, counted apart. repairs = views exchanged because two settled digests differed. TCG-emulated guest.",
	 measured: (length > 0 and all(.[]; .measured != false)),
	 results: .}' "$FTD_TMP/results" > "$OUT"

echo "# cold start and join ($(bench_env | jq -r .virtualization), $(nproc) CPU)"
printf '%-6s | %7s %7s %8s %6s %7s %6s | %7s %7s %8s %6s %7s %6s\n' NODES UP_MS FRAMES NOTICES N/NODE REPAIRS ASKED \
	JOIN_MS FRAMES NOTICES N/NODE REPAIRS ASKED
jq -r '.results[] | select(.nodes) | [.nodes] + ([.cold_start, .join] | map([(.all_alive_ns / 1e6 | floor),
	.notice_frames, .notices, .notices_per_node, .repairs, (.views_asked // "-")]) | add) | @tsv' "$OUT" |
	awk -F'\t' '{ printf "%-6s | %7s %7s %8s %6s %7s %6s | %7s %7s %8s %6s %7s %6s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13 }'
echo "# (notice frames and notices summed over the nodes, from the first apply to ${SETTLE} s after all alive; join: the same for the node added)"
echo "# -> $OUT"
exit $status
