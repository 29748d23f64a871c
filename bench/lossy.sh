#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lossy.sh: false suspicions and deaths on lossy, jittery links. Every
# node's interface drops 5 % of what it sends and delays it 2 ms +- 1 ms
# (tc netem: reordering included), for a long window; nobody dies, so
# every NODE_DEAD and FENCED is false. Counted at every node: NODE_SUSPECT
# and NODE_DEAD records, FENCED, heartbeats lost (sequence gaps) against
# those received, and the suspicions refuted through another member
# (relays_heard: kmod/proto/relay.h).
#
#   n1 .. n8 ── br0       netem on every nX r0 (egress): loss, delay, jitter
#
#   bench/lossy.sh
#
# BENCH_SECONDS (default 600) the lossy window, BENCH_NODES (8),
# BENCH_LOSS (5%), BENCH_DELAY (2ms), BENCH_JITTER (1ms), BENCH_PERIOD
# (10ms), BENCH_TIMEOUT (50ms). A progress line every BENCH_PROGRESS
# seconds (60). Output: a table, build/bench/lossy.json and the window's
# kernel log in build/bench/lossy.dmesg. All nodes share the machine:
# frames it drops on receive because its CPU fell behind (RX_DROPS) are
# loss netem did not make, and a node that judges through them is held
# by the overload rule (kmod/proto/overload.h).
source "$(dirname "$0")/lib.sh"

NODES=${BENCH_NODES:-8}
SECS=${BENCH_SECONDS:-600}
LOSS=${BENCH_LOSS:-5%}
DELAY=${BENCH_DELAY:-2ms}
JITTER=${BENCH_JITTER:-1ms}
PERIOD=${BENCH_PERIOD:-10ms}
TIMEOUT=${BENCH_TIMEOUT:-50ms}
EVERY=${BENCH_PROGRESS:-60}
OUT=$BENCH_OUT/lossy.json

# mark FILE: every node's event file's length now, one line each: the
# window's start ($FTD_TMP/start) and end ($FTD_TMP/end).
mark() {
	local i
	for ((i = 1; i <= NODES; i++)); do
		wc -l < "$FTD_TMP/dev.$i"
	done > "$1"
}

# window_events: the events recorded in the window (up to now while it
# lasts), at every node, each line tagged with the node that recorded it
# ("N {json}"). Plain text tools only: under one emulated CPU a jq over
# every event, every minute, was load enough to make the machine drop
# frames and the window false deaths of its own.
window_events() {
	local i=0 start end
	while read -r start; do
		i=$((i + 1))
		end='$'
		if [ -s "$FTD_TMP/end" ]; then
			end=$(sed -n "${i}p" "$FTD_TMP/end")
			# sed's range N,M with M < N is line N: an empty window is none
			[ "$end" -gt "$start" ] || continue
		fi
		sed -n "$((start + 1)),${end}s/^/$i /p" "$FTD_TMP/dev.$i"
	done < "$FTD_TMP/start"
}

# progress: the false records so far and the machine's receive drops
# (backlog_drops, selftests/lib.sh), one line.
progress() {
	window_events | awk -v drops="$(backlog_drops)" '
		/"event":"NODE_SUSPECT"/ { s++ } /"event":"NODE_DEAD"/ { d++ } /"event":"FENCED"/ { f++ }
		END { printf "suspect %d, dead %d, fenced %d, machine rx drops %d\n", s, d, f, drops - base }' \
		base="$(cat "$FTD_TMP/drops0")"
}

# counts: the false records of the window, over every node, as JSON.
counts() {
	window_events | awk '/"event":"(NODE_SUSPECT|NODE_DEAD|FENCED)"/ {
		at = $1; sub(/^[0-9]+ [{]/, ""); print "{\"at\":" at "," $0 }' |
		jq -s '{node_suspect: map(select(.event == "NODE_SUSPECT")) | length,
			node_dead: map(select(.event == "NODE_DEAD")) | length,
			fenced: map(select(.event == "FENCED")) | length,
			dead_records: [.[] | select(.event == "NODE_DEAD" or .event == "FENCED") |
				{at, event, node, origin, time_ns}]}'
}

# frames: heartbeats received and lost (gaps), and suspicions refuted
# through another member (indirect probes), over every node.
frames() {
	local i
	for ((i = 1; i <= NODES; i++)); do
		n "$i" ftstat -j
		n "$i" ftctl stats -j
	done | jq -s '{hb_rx: [.[].nodes // [] | .[].rx // 0] | add,
		hb_lost: [.[].nodes // [] | .[].lost // 0] | add,
		relays_heard: [.[].relays_heard // 0] | add}'
}

cluster_create "$NODES"
cluster_up "$PERIOD" "$TIMEOUT"
wait_until 60 all_alive || bench_fail "$OUT" lossy "cluster of $NODES did not come up"
watch_devices $(seq 1 "$NODES")
for ((i = 1; i <= NODES; i++)); do
	n "$i" tc qdisc add dev "n${i}r0" root netem loss "$LOSS" delay "$DELAY" "$JITTER" ||
		bench_fail "$OUT" lossy "tc netem on node $i"
done
frames > "$FTD_TMP/frames0"
backlog_drops > "$FTD_TMP/drops0"
kmark=$(kernel_mark)
mark "$FTD_TMP/start"
from=$(now_ns)
log "lossy: $NODES nodes, $PERIOD / $TIMEOUT, netem loss $LOSS delay $DELAY +- $JITTER, $SECS s"
for ((t = EVERY; t <= SECS; t += EVERY)); do
	sleep "$EVERY"
	log "lossy: $t of $SECS s: $(progress)"
done
sleep $((SECS % EVERY))
until=$(now_ns)
mark "$FTD_TMP/end"
frames > "$FTD_TMP/frames"
drops=$(($(backlog_drops) - $(cat "$FTD_TMP/drops0")))
kernel_since "$kmark" > "$BENCH_OUT/lossy.dmesg"
# The window is over: the loss stops before the counting, which a cluster
# that overloads the machine would otherwise slow without end.
for ((i = 1; i <= NODES; i++)); do
	n "$i" tc qdisc del dev "n${i}r0" root || true
done
counts > "$FTD_TMP/counts"
jq -n --slurpfile c "$FTD_TMP/counts" --slurpfile f0 "$FTD_TMP/frames0" \
	--slurpfile f "$FTD_TMP/frames" --argjson env "$(bench_env)" \
	--arg loss "$LOSS" --arg delay "$DELAY" --arg jitter "$JITTER" \
	--arg period "$PERIOD" --arg timeout "$TIMEOUT" --argjson nodes "$NODES" \
	--argjson window "$((until - from))" --argjson drops "$drops" '
	($f[0].hb_rx - $f0[0].hb_rx) as $rx | ($f[0].hb_lost - $f0[0].hb_lost) as $lost |
	{benchmark: "lossy", env: $env, measured: true,
	 note: "nobody dies: every NODE_DEAD and FENCED is false; suspicions are refuted by a heartbeat, a PROBE answer or a helper relaying one (relays_heard)",
	 nodes: $nodes, period: $period, timeout: $timeout,
	 netem: {loss: $loss, delay: $delay, jitter: $jitter}, window_ns: $window,
	 heartbeats_received: $rx, heartbeats_lost: $lost,
	 relays_heard: ($f[0].relays_heard - $f0[0].relays_heard),
	 machine_rx_drops: $drops,
	 loss_measured: (if $rx + $lost > 0 then $lost / ($rx + $lost) else null end)} + $c[0]' > "$OUT"

echo "# false verdicts on lossy links ($(bench_env | jq -r .virtualization), $(nproc) CPU)"
printf '%-6s %-16s %-20s %8s | %9s %9s %7s %9s | %12s %8s %9s\n' NODES PERIOD/TIMEOUT NETEM WINDOW_S \
	SUSPECT DEAD FENCED RELAYED HB_RX LOSS RX_DROPS
jq -r '[.nodes, "\(.period) / \(.timeout)", "\(.netem.loss) \(.netem.delay)+-\(.netem.jitter)",
	(.window_ns / 1e9 | floor), .node_suspect, .node_dead, .fenced, .relays_heard,
	.heartbeats_received, "\((.loss_measured // 0) * 1000 | floor / 10) %", .machine_rx_drops] | @tsv' "$OUT" |
	awk -F'\t' '{ printf "%-6s %-16s %-20s %8s | %9s %9s %7s %9s | %12s %8s %9s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11 }'
echo "# SUSPECT, DEAD, FENCED: records at all nodes (all false); RELAYED: suspicions refuted through another member; LOSS: heartbeats lost / sent, measured; RX_DROPS: frames the machine itself dropped on receive (its backlog full: the emulated CPU behind), the kernel log of the window in lossy.dmesg"
echo "# -> $OUT"
