#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cost.sh: what ftdetect costs: guest CPU time per heartbeat, bytes per
# second per node on the wire, and the impact on a UDP ping-pong latency
# test between two nodes. One cluster per setting:
#
#   off (module loaded, not configured), period 10 ms, 1 ms, 100 us
#   (timeout 10 periods)
#
#   n1 .. n4 ── br0     ping-pong n1 <-> n2 (ftb-udp), heartbeats k = 2
#
# For each setting, with nothing else running: the guest's busy CPU time
# from /proc/stat over BENCH_WINDOW seconds (all CPUs: user, system, irq,
# softirq), heartbeat frames sent (ftctl stats), bytes sent per node on its
# veth. CPU per heartbeat = (busy with ftdetect - busy off) / frames sent;
# each frame is also received, so this is send + receive + timer work.
# Then BENCH_PINGS round trips n1 -> n2. Output: a table, and
# build/bench/cost.json. Under TCG all CPU times are of the emulated CPU.
source "$(dirname "$0")/lib.sh"

NODES=${BENCH_NODES:-4}
WINDOW=${BENCH_WINDOW:-5}
PINGS=${BENCH_PINGS:-3000}
SETTINGS="off 10000:100000 1000:10000 100:1000"
OUT=$BENCH_OUT/cost.json

# busy_idle: "busy idle" jiffies of all CPUs so far (/proc/stat).
busy_idle() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9, $5 + $6 }' /proc/stat; }

# counters: the module's counters (ftctl stats) and the veths' tx bytes and
# packets, each summed over the nodes, as one JSON object.
counters() {
	local i
	for ((i = 1; i <= NODES; i++)); do
		if [ "$1" = off ]; then echo '{}'; else n "$i" ftctl stats -j; fi
		n "$i" sh -c "cd /sys/class/net/n${i}r0/statistics &&
			echo '{\"wire_tx_bytes\":'\$(cat tx_bytes)',\"wire_tx_packets\":'\$(cat tx_packets)'}'"
	done | jq -s 'reduce (.[] | to_entries[]) as $e ({}; .[$e.key] += $e.value) | del(.tick_late_max_ns)'
}

run_case() {
	local setting=$1 out=$2 p_us=0 t_us=0 c0 c1 t0 t1 hz ka k0 k1
	cluster_create "$NODES"
	if [ "$setting" != off ]; then
		p_us=${setting%:*} t_us=${setting#*:}
		cluster_up "${p_us}us" "${t_us}us"
		wait_until 60 all_alive || bench_fail "$out" cost "cluster did not come up at period ${p_us}us"
	fi
	sleep 2		# settle: no start-up traffic in the window
	# Reading the counters of every node takes long under TCG: the rates
	# use the time between the middles of the two reads.
	ka=$(now_ns)
	counters "$setting" > "$FTD_TMP/k0"
	k0=$(( (ka + $(now_ns)) / 2 ))
	t0=$(now_ns)
	c0=$(busy_idle)
	sleep "$WINDOW"
	c1=$(busy_idle)
	t1=$(now_ns)
	ka=$(now_ns)
	counters "$setting" > "$FTD_TMP/k1"
	k1=$(( (ka + $(now_ns)) / 2 ))

	n 2 ftb-udp pong 9001 2> "$FTD_TMP/pong.err" &
	FTD_BG_PIDS+=($!)
	wait_until 10 grep -q ready "$FTD_TMP/pong.err" || bench_fail "$out" cost "ftb-udp pong did not start"
	n 1 ftb-udp ping "$(addr4 0 2)" 9001 "$PINGS" > "$FTD_TMP/ping.json" ||
		bench_fail "$out" cost "ping-pong failed: $(tail -n1 "$FTD_TMP/ping.json")"
	hz=$(getconf CLK_TCK)
	jqs -n --arg setting "$setting" --argjson p "$((p_us * 1000))" --argjson t "$((t_us * 1000))" \
		--argjson nodes "$NODES" --argjson w "$((t1 - t0))" --argjson kw "$((k1 - k0))" --argjson hz "$hz" \
		--argjson c0 "[${c0// /,}]" --argjson c1 "[${c1// /,}]" \
		--slurpfile k0 "$FTD_TMP/k0" --slurpfile k1 "$FTD_TMP/k1" \
		--slurpfile ping "$FTD_TMP/ping.json" '
		include "stats";
		($k1[0] | with_entries(.value -= ($k0[0][.key] // 0))) as $d |
		($d.tx // 0) as $frames | $d.wire_tx_bytes as $bytes |
		{setting: $setting, period_ns: $p, timeout_ns: $t, nodes: $nodes, window_ns: $w,
		 cpu_busy_ns: (($c1[0] - $c0[0]) * 1e9 / $hz | floor),
		 cpu_idle_ns: (($c1[1] - $c0[1]) * 1e9 / $hz | floor),
		 frames_sent: $frames, counters: $d,
		 frames_per_node_per_tick: (if ($d.ticks // 0) > 0 then $frames / $d.ticks else null end),
		 wire_bytes_per_packet: (if $d.wire_tx_packets > 0 then $bytes / $d.wire_tx_packets | floor else null end),
		 counters_window_ns: $kw,
		 frames_per_node_per_s: ($frames / $nodes / ($kw / 1e9) | floor),
		 bytes_per_node_per_s: ($bytes / $nodes / ($kw / 1e9) | floor),
		 pingpong_rtt_ns: ($ping[0].rtt_ns | stats)}' > "$out"
}

if [ "${1:-}" = --case ]; then
	run_case "$2" "$3"
	exit 0
fi

status=0
: > "$FTD_TMP/results"
for s in $SETTINGS; do
	log "cost: $s, $NODES nodes, ${WINDOW} s window, $PINGS ping-pongs"
	bench_case "$s" || status=1
done
# CPU per heartbeat frame: the busy time above the "off" baseline, per frame.
jq -s --argjson env "$(bench_env)" '
	(map(select(.setting == "off"))[0]) as $off |
	{benchmark: "cost", env: $env,
	 note: "cpu_busy = busy time of every guest CPU in the window (/proc/stat, USER_HZ resolution); cpu_per_frame = (busy - busy with ftdetect off, per second of window) / frames sent per second (each frame is also received: send, receive and timer work). bytes = veth tx bytes, Ethernet frames. Ping-pong: UDP round trips n1 <-> n2 one at a time. TCG-emulated guest: CPU times are of the emulated CPU.",
	 measured: (length > 0 and all(.[]; .measured != false)),
	 results: map(. + (if .setting != "off" and $off != null and .frames_sent > 0 then
		{cpu_per_frame_ns: (((.cpu_busy_ns / .window_ns) - ($off.cpu_busy_ns / $off.window_ns)) *
			.window_ns / .frames_sent | floor),
		 cpu_fraction: (.cpu_busy_ns / .window_ns), cpu_fraction_off: ($off.cpu_busy_ns / $off.window_ns)}
		else {} end))}' "$FTD_TMP/results" > "$OUT"

echo "# cost of ftdetect, $(jq -r '.results[0].nodes' "$OUT") nodes ($(bench_env | jq -r .virtualization), $(nproc) CPU)"
printf '%-8s %9s %8s %11s %7s %8s %12s | %10s %10s %10s\n' PERIOD FRAMES/S FR/TICK BYTES/S B/PKT CPU% CPU/FRAME RTT_MED_US RTT_P99_US RTT_MAX_US
jq -r '.results[] | [(if .setting == "off" then "off" else "\(.period_ns / 1000)us" end),
	.frames_per_node_per_s, (if .frames_per_node_per_tick then .frames_per_node_per_tick * 100 | floor / 100 else "-" end), .bytes_per_node_per_s, (.wire_bytes_per_packet // "-"), (.cpu_busy_ns / .window_ns * 100 * 10 | floor / 10),
	(if .cpu_per_frame_ns then "\(.cpu_per_frame_ns / 1000 | floor) us" else "-" end),
	.pingpong_rtt_ns.median / 1000, .pingpong_rtt_ns.p99 / 1000, .pingpong_rtt_ns.max / 1000] | @tsv' "$OUT" |
	awk -F'\t' '{ printf "%-8s %9s %8s %11s %7s %8s %12s | %10.1f %10.1f %10.1f\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 }'
echo "# (frames sent per node per second and per timer tick, wire bytes per node per second and per packet; CPU% of all guest CPUs)"
echo "# -> $OUT"
exit $status
