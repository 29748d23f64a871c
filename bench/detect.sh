#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# detect.sh: detection latency of a node death. A node of a small cluster is
# cut off (its switch port goes down) again and again; each time, the delay
# from the cut to the NODE_DEAD of the observer that declared it ("detect",
# and its overshoot over the configured timeout) and to the last node's
# NODE_DEAD ("all nodes"). The node is then reconnected, rejoins (fenced,
# higher incarnation) and the next node is cut. One cluster per setting:
#
#   period 10 ms / timeout 50 ms, 1 ms / 10 ms, 100 us / 1 ms
#
#   n1 .. n4 ── br0 (switch namespace)     s<v>r0 down: node v is cut off
#
# The cut is stamped by ftd-link (CLOCK_REALTIME just before and after the
# link change), a NODE_DEAD by the kernel when it queued the event: both in
# the guest's one clock. Output: a table, and build/bench/detect.json.
#
#   bench/detect.sh                        every setting
#   bench/detect.sh --case PERIOD_US TIMEOUT_US CUTS OUT    one (internal)
#
# BENCH_CUTS (default 20) cuts per setting, BENCH_NODES (default 4) nodes.
source "$(dirname "$0")/lib.sh"

NODES=${BENCH_NODES:-4}
CUTS=${BENCH_CUTS:-20}
SETTINGS="10000:50000 1000:10000 100:1000"	# period_us:timeout_us
OUT=$BENCH_OUT/detect.json

# dead_count NODE VICTIM / restored_count NODE VICTIM: records so far.
dead_count() { grep -c "\"event\":\"NODE_DEAD\".*\"node\":$2," "$FTD_TMP/dev.$1" || true; }
restored_count() { grep -c "\"event\":\"NODE_RESTORED\".*\"node\":$2," "$FTD_TMP/dev.$1" || true; }

# all_reached COUNTER VICTIM: every node but VICTIM has more COUNTER records
# about VICTIM than in $FTD_TMP/base.<node>.
all_reached() {
	local i
	for ((i = 1; i <= NODES; i++)); do
		[ "$i" = "$2" ] && continue
		[ "$("$1" "$i" "$2")" -gt "$(< "$FTD_TMP/base.$i")" ] || return 1
	done
}
snapshot() { # COUNTER VICTIM
	local i
	for ((i = 1; i <= NODES; i++)); do
		"$1" "$i" "$2" > "$FTD_TMP/base.$i"
	done
}

run_case() {
	local period_us=$1 timeout_us=$2 cuts=$3 out=$4 c v cut up i why=""
	cluster_create "$NODES"
	cluster_up "${period_us}us" "${timeout_us}us"
	wait_until 60 all_alive || bench_fail "$out" detect "cluster of $NODES did not come up at period ${period_us}us"
	watch_devices $(seq 1 "$NODES")
	sleep 1
	: > "$FTD_TMP/cuts"
	for ((c = 1; c <= cuts; c++)); do
		v=$(( (c - 1) % NODES + 1 ))
		log "cut $c: node $v ($(( SECONDS )) s)"
		snapshot dead_count "$v"
		cut=$(cut_node "$v")
		if ! wait_until 20 all_reached dead_count "$v"; then
			why="cut $c of node $v: not reported dead everywhere within 20 s"
		fi
		sleep 0.2	# late duplicates land inside this cut's window
		snapshot restored_count "$v"
		sw ftd-link "s${v}r0" up > /dev/null
		up=$(now_ns)
		echo "$cut" | jq -c --argjson c "$c" --argjson v "$v" --argjson up "$up" \
			'. + {cut: $c, victim: $v, up_ns: $up}' >> "$FTD_TMP/cuts"
		[ -z "$why" ] || break
		wait_until 30 all_reached restored_count "$v" ||
			{ why="node $v did not rejoin after cut $c"; break; }
		wait_until 30 all_alive || { why="cluster not all alive after cut $c"; break; }
	done
	sleep 0.5
	for ((i = 1; i <= NODES; i++)); do
		jq -c --argjson at "$i" '. + {at: $at}' "$FTD_TMP/dev.$i"
	done > "$FTD_TMP/events"
	for ((i = 1; i <= NODES; i++)); do
		n "$i" ftctl stats -j
	done | jq -s '{ticks_late: (map(.ticks_late) | add), tick_late_max_ns: (map(.tick_late_max_ns) | max)}' \
		> "$FTD_TMP/late"
	jqs -n --slurpfile cuts "$FTD_TMP/cuts" --slurpfile ev "$FTD_TMP/events" \
		--slurpfile late "$FTD_TMP/late" --argjson p "$((period_us * 1000))" \
		--argjson t "$((timeout_us * 1000))" --argjson nodes "$NODES" --arg why "$why" '
		include "stats";
		[$ev[] | select(.event == "NODE_DEAD")] as $dead |
		[$cuts[] | . as $c |
			[$dead[] | select(.node == $c.victim and .at != $c.victim and
				.time_ns >= $c.before_ns and .time_ns < $c.up_ns)] as $e |
			select($e | length > 0) |
			(([$e[] | select(.at == .origin)] | .[0].time_ns) // ($e | map(.time_ns) | min)) as $d |
			{detect: ($d - $c.before_ns), all: (($e | map(.time_ns) | max) - $c.before_ns),
			 nodes: ($e | map(.at) | unique | length), cut_ns: ($c.after_ns - $c.before_ns)}] as $s |
		{period_ns: $p, timeout_ns: $t, nodes: $nodes, cuts: ($cuts | length),
		 detected: ($s | length),
		 detected_everywhere: ([$s[] | select(.nodes == $nodes - 1)] | length),
		 detect_ns: ([$s[].detect] | stats),
		 overshoot_ns: ([$s[].detect - $t] | stats),
		 all_nodes_ns: ([$s[].all] | stats),
		 cut_duration_ns: ([$s[].cut_ns] | stats),
		 false_dead: ([$dead[] | . as $d | select([$cuts[] | select(.victim == $d.node and
			$d.time_ns >= .before_ns and $d.time_ns < .up_ns)] | length == 0)] | length),
		 suspicions: ([$ev[] | select(.event == "NODE_SUSPECT")] | length)} +
		$late[0] + (if $why == "" then {} else {incomplete: $why} end)' > "$out"
	[ -z "$why" ] || { echo "# detect: $why" >&2; exit 1; }
}

if [ "${1:-}" = --case ]; then
	run_case "$2" "$3" "$4" "$5"
	exit 0
fi

status=0
: > "$FTD_TMP/results"
for s in $SETTINGS; do
	p=${s%:*} t=${s#*:}
	log "detect: period ${p}us, timeout ${t}us, $CUTS cuts of a node in a cluster of $NODES"
	bench_case "$p" "$t" "$CUTS" || status=1
done
jq -s --argjson env "$(bench_env)" '{benchmark: "detect", env: $env,
	note: "detect = cut to the NODE_DEAD of the observer that declared it; overshoot = detect - timeout; all_nodes = cut to the last NODE_DEAD; cut stamped before the link change. Under TCG emulation short periods are dominated by the emulation.",
	measured: (length > 0), results: .}' "$FTD_TMP/results" > "$OUT"

ms() { awk -v v="$1" 'BEGIN { if (v == "null" || v == "") print "-"; else printf "%.2f", v / 1e6 }'; }
echo "# detection latency of a node death ($(bench_env | jq -r .virtualization), $(nproc) CPU)"
printf '%-8s %-8s %5s %8s %8s %8s %8s %10s %10s %6s\n' PERIOD TIMEOUT N MIN_MS MED_MS P99_MS MAX_MS OVER_MED OVER_P99 ALL_P99
jq -r '.results[] | [.period_ns, .timeout_ns, .detected, .detect_ns.min, .detect_ns.median, .detect_ns.p99,
	.detect_ns.max, .overshoot_ns.median, .overshoot_ns.p99, .all_nodes_ns.p99] | @tsv' "$OUT" |
while IFS=$'\t' read -r p t nn a b c d e f g; do
	printf '%-8s %-8s %5s %8s %8s %8s %8s %10s %10s %6s\n' "$(ms "$p")" "$(ms "$t")" "$nn" \
		"$(ms "$a")" "$(ms "$b")" "$(ms "$c")" "$(ms "$d")" "$(ms "$e")" "$(ms "$f")" "$(ms "$g")"
done
jq -r '.results[] | "# period \(.period_ns / 1000) us: \(.detected)/\(.cuts) cuts detected, \(.detected_everywhere) everywhere; false NODE_DEAD \(.false_dead), suspicions \(.suspicions), late ticks \(.ticks_late) (worst \(.tick_late_max_ns / 1000 | floor) us)\(if .incomplete then "; INCOMPLETE: " + .incomplete else "" end)"' "$OUT"
echo "# -> $OUT"
exit $status
