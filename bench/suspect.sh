#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# suspect.sh: false suspicions under full CPU load, ftdetect side by side
# with a user-space heartbeat thread of the same period and timeout (the
# ULFM detector-thread design, ftb-hbthread).
#
#   n1 .. n4 ── br0     every node: one rank, registered with ftdetect,
#                       spinning (no MPI call), with a detector thread
#   stress-ng --cpu <every CPU> in the root namespace
#
# Nobody dies, so every suspicion and every death is false. Counted over the
# loaded window: ftdetect's NODE_SUSPECT and NODE_DEAD records (all nodes'
# /dev/ftdetect), and the detector threads' suspicions (silence >= timeout/2)
# and declarations (silence >= timeout), ftdetect's own rules. Settings:
# period 10 ms / timeout 50 ms and 1 ms / 10 ms. Output: a table, and
# build/bench/suspect.json; each run's kernel log in build/bench/suspect.dmesg.
#
#   bench/suspect.sh                       every setting
#   bench/suspect.sh --case PERIOD_US TIMEOUT_US SECONDS OUT
#
# BENCH_SECONDS (default 20) loaded seconds per run, BENCH_NODES (4),
# BENCH_RUNS (1) runs of each setting, each on a fresh cluster,
# BENCH_SETTINGS ("10000:50000 1000:10000") PERIOD_US:TIMEOUT_US pairs.
# `make bench-suspect-runs` is 10 runs at 1 ms / 10 ms.
source "$(dirname "$0")/lib.sh"

NODES=${BENCH_NODES:-4}
SECONDS_LOADED=${BENCH_SECONDS:-20}
SETTINGS=${BENCH_SETTINGS:-10000:50000 1000:10000}
RUNS=${BENCH_RUNS:-1}
OUT=$BENCH_OUT/suspect.json

run_case() {
	local period_us=$1 timeout_us=$2 secs=$3 out=$4 i load_start until stress kmark
	kmark=$(kernel_mark)
	command -v stress-ng > /dev/null || bench_fail "$out" suspect "stress-ng not installed (selftests/deps/install)"
	cluster_create "$NODES"
	cluster_up "${period_us}us" "${timeout_us}us"
	wait_until 60 all_alive || bench_fail "$out" suspect "cluster of $NODES did not come up at period ${period_us}us"
	watch_devices $(seq 1 "$NODES")
	sleep 0.5
	for ((i = 1; i <= NODES; i++)); do
		n "$i" ftctl stats -j
	done | jq -s '{late: (map(.ticks_late) | add), behind: (map(.ticks_rx_behind // 0) | add),
		      dropped: (map(.ticks_rx_dropped // 0) | add),
		      stuck: (map(.ticks_rx_stuck // 0) | add)}' > "$FTD_TMP/late0"

	stress-ng --cpu "$(nproc)" --timeout $((secs + 30))s --quiet &
	stress=$!
	FTD_BG_PIDS+=("$stress")
	load_start=$(now_ns)
	# Every rank stops at the same instant; starting them under load is slow.
	until=$(( load_start + (secs + 5) * 1000000000 ))
	for ((i = 1; i <= NODES; i++)); do
		n "$i" ftb-hbthread -i "$i" -n "$NODES" -p "$period_us" -t "$timeout_us" \
			-u "$until" -r "1:$i" -b > "$FTD_TMP/hb.$i.json" 2> "$FTD_TMP/hb.$i.err" &
		echo $! > "$FTD_TMP/hb.$i.pid"
	done
	for ((i = 1; i <= NODES; i++)); do
		wait "$(< "$FTD_TMP/hb.$i.pid")" ||
			bench_fail "$out" suspect "node $i: ftb-hbthread: $(cat "$FTD_TMP/hb.$i.err")"
	done
	kill "$stress" 2> /dev/null || true
	wait "$stress" 2> /dev/null || true
	sleep 0.3
	# The declarations' evidence (silence, deadline, the observer's own
	# late tick) is only in the kernel log.
	{
		echo "### period ${period_us}us timeout ${timeout_us}us, loaded from $load_start ns"
		kernel_since "$kmark"
	} >> "$BENCH_OUT/suspect.dmesg"

	for ((i = 1; i <= NODES; i++)); do
		n "$i" ftctl stats -j
	done | jq -s '{ticks_late: (map(.ticks_late) | add), tick_late_max_ns: (map(.tick_late_max_ns) | max),
		      ticks_rx_behind: (map(.ticks_rx_behind // 0) | add),
		      ticks_rx_dropped: (map(.ticks_rx_dropped // 0) | add),
		      ticks_rx_stuck: (map(.ticks_rx_stuck // 0) | add)}' \
		> "$FTD_TMP/late"
	# The extra silence any node gives any other for its late ticks.
	for ((i = 1; i <= NODES; i++)); do
		n "$i" ftstat -j
	done | jq -s '[.[].nodes[].slow_ns // 0] | max // 0' > "$FTD_TMP/slow"
	for ((i = 1; i <= NODES; i++)); do
		jq -c --argjson at "$i" '. + {at: $at}' "$FTD_TMP/dev.$i"
	done > "$FTD_TMP/events"
	cat "$FTD_TMP"/hb.*.json > "$FTD_TMP/hb"
	jq -n --slurpfile ev "$FTD_TMP/events" --slurpfile hb "$FTD_TMP/hb" \
		--slurpfile late "$FTD_TMP/late" --slurpfile late0 "$FTD_TMP/late0" \
		--slurpfile slow "$FTD_TMP/slow" \
		--argjson p "$((period_us * 1000))" --argjson t "$((timeout_us * 1000))" \
		--argjson from "$load_start" --argjson until "$until" --argjson nodes "$NODES" '
		[$ev[] | select(.time_ns >= $from and .time_ns <= $until)] as $w |
		{period_ns: $p, timeout_ns: $t, nodes: $nodes, loaded_ns: ($until - $from),
		 cpu_load: "stress-ng --cpu <every CPU>, and every rank spinning",
		 ftdetect: {node_suspect: ([$w[] | select(.event == "NODE_SUSPECT")] | length),
			    node_dead: ([$w[] | select(.event == "NODE_DEAD")] | length),
			    # a node that heard nobody for a timeout fences itself (proto/lease.h)
			    fenced: ([$w[] | select(.event == "FENCED")] | length),
			    # one death is delivered at every node: count the decisions too
			    deaths_declared: ([$w[] | select(.event == "NODE_DEAD") | [.node, .incarnation]] | unique | length),
			    dead_records: [$w[] | select(.event == "NODE_DEAD") |
				{at, node, origin, incarnation, time_ns}],
			    ticks_late: ($late[0].ticks_late - $late0[0].late),
			    # a heartbeat handled since the tick before had waited over a period
			    ticks_rx_behind: ($late[0].ticks_rx_behind - $late0[0].behind),
			    # judging held: the machine dropped received frames (proto/overload.h)
			    ticks_rx_dropped: ($late[0].ticks_rx_dropped - $late0[0].dropped),
			    # judging and the lease held: frames waited on a CPU that drained none (lag.h)
			    ticks_rx_stuck: ($late[0].ticks_rx_stuck - $late0[0].stuck),
			    tick_late_max_ns: $late[0].tick_late_max_ns,
			    slow_ns_max_at_end: $slow[0]},
		 user_thread: {suspicions: ($hb | map(.suspicions) | add),
			       declarations: ($hb | map(.declarations) | add),
			       worst_gap_ns: ($hb | map(.worst_gap_ns) | max),
			       tick_late_max_ns: ($hb | map(.tick_late_max_ns) | max),
			       heartbeats_sent: ($hb | map(.sent) | add),
			       heartbeats_received: ($hb | map(.received) | add),
			       per_node: $hb}}' > "$out"
}

if [ "${1:-}" = --case ]; then
	run_case "$2" "$3" "$4" "$5"
	exit 0
fi

status=0
: > "$FTD_TMP/results"
: > "$BENCH_OUT/suspect.dmesg"
for s in $SETTINGS; do
	p=${s%:*} t=${s#*:}
	for ((run = 1; run <= RUNS; run++)); do
		log "suspect: period ${p}us, timeout ${t}us, run $run of $RUNS, $SECONDS_LOADED s of full CPU load on $NODES nodes"
		bench_case "$p" "$t" "$SECONDS_LOADED" || status=1
	done
done
jq -s --argjson env "$(bench_env)" '{benchmark: "suspect", env: $env,
	note: "false suspicions (timeout/2 of silence) and false deaths (timeout) while stress-ng loads every CPU and every rank spins; user_thread = a heartbeat thread in each rank (ULFM design) with the same period, timeout and rules. Nobody dies: every count is false.",
	measured: (length > 0 and all(.[]; .measured != false)), results: .}' "$FTD_TMP/results" > "$OUT"

echo "# false suspicions under full CPU load ($(bench_env | jq -r .virtualization), $(nproc) CPU)"
printf '%-8s %-8s %6s | %12s %10s %7s %9s %9s %9s %9s %9s | %12s %10s %12s\n' PERIOD TIMEOUT LOAD_S \
	FTD_SUSPECT FTD_DEAD FENCED LATE_TICK RX_BEHIND RX_DROPS RX_STUCK SLOW_MS THR_SUSPECT THR_DEAD THR_WORST_GAP
jq -r '.results[] | select(.ftdetect) | [.period_ns / 1e6, .timeout_ns / 1e6, (.loaded_ns / 1e9 | floor),
	.ftdetect.node_suspect, "\(.ftdetect.node_dead) (\(.ftdetect.deaths_declared))", (.ftdetect.fenced // 0), .ftdetect.ticks_late,
	(.ftdetect.ticks_rx_behind // "-"), (.ftdetect.ticks_rx_dropped // "-"), (.ftdetect.ticks_rx_stuck // "-"),
	(.ftdetect.slow_ns_max_at_end / 1e6 | floor),
	.user_thread.suspicions, .user_thread.declarations, "\(.user_thread.worst_gap_ns / 1e6 | floor) ms"] | @tsv' "$OUT" |
	awk -F'\t' '{ printf "%-8s %-8s %6s | %12s %10s %7s %9s %9s %9s %9s %9s | %12s %10s %12s\n", $1 "ms", $2 "ms", $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14 }'
echo "# FTD_DEAD: NODE_DEAD records at all nodes (distinct deaths declared); FENCED: nodes that fenced themselves; THR_DEAD: the threads' declarations"
echo "# RX_BEHIND: ticks at which a heartbeat handled since the tick before had waited over a period (its wait stretches the deadlines, proto/health.h); RX_DROPS: ticks that held verdicts and the lease, the machine dropping received frames (proto/overload.h); RX_STUCK: ticks that held verdicts and the lease, frames waiting on a CPU that processed none for a period, at least 1 ms (kmod/lag.h)"
echo "# SLOW_MS: the most extra silence a node gave another for its late ticks, at the end (proto/health.h)"
jq -r '.results | group_by([.period_ns, .timeout_ns])[] | select(length > 1) |
	"# \(.[0].period_ns / 1e6) ms / \(.[0].timeout_ns / 1e6) ms, \(length) runs: ftdetect NODE_DEAD \(map(.ftdetect.node_dead // 0) | add), FENCED \(map(.ftdetect.fenced // 0) | add), runs with any \(map(select((.ftdetect.node_dead // 0) > 0)) | length); thread declarations \(map(.user_thread.declarations // 0) | add)"' "$OUT"
echo "# -> $OUT"
exit $status
