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
# (10ms), BENCH_TIMEOUT (50ms). A progress line every minute. Output: a
# table, and build/bench/lossy.json.
source "$(dirname "$0")/lib.sh"

NODES=${BENCH_NODES:-8}
SECS=${BENCH_SECONDS:-600}
LOSS=${BENCH_LOSS:-5%}
DELAY=${BENCH_DELAY:-2ms}
JITTER=${BENCH_JITTER:-1ms}
PERIOD=${BENCH_PERIOD:-10ms}
TIMEOUT=${BENCH_TIMEOUT:-50ms}
OUT=$BENCH_OUT/lossy.json

# counts: the false records so far, over every node, as JSON.
counts() {
	local i
	for ((i = 1; i <= NODES; i++)); do
		jq -c --argjson at "$i" '. + {at: $at}' "$FTD_TMP/dev.$i"
	done | jq -s --argjson from "$1" '[.[] | select(.time_ns >= $from)] |
		{node_suspect: map(select(.event == "NODE_SUSPECT")) | length,
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
from=$(now_ns)
log "lossy: $NODES nodes, $PERIOD / $TIMEOUT, netem loss $LOSS delay $DELAY +- $JITTER, $SECS s"
for ((t = 60; t <= SECS; t += 60)); do
	sleep 60
	log "lossy: $t of $SECS s: $(counts "$from" | jq -c 'del(.dead_records)')"
done
sleep $((SECS % 60))
until=$(now_ns)
counts "$from" > "$FTD_TMP/counts"
frames > "$FTD_TMP/frames"
jq -n --slurpfile c "$FTD_TMP/counts" --slurpfile f0 "$FTD_TMP/frames0" \
	--slurpfile f "$FTD_TMP/frames" --argjson env "$(bench_env)" \
	--arg loss "$LOSS" --arg delay "$DELAY" --arg jitter "$JITTER" \
	--arg period "$PERIOD" --arg timeout "$TIMEOUT" --argjson nodes "$NODES" \
	--argjson window "$((until - from))" '
	($f[0].hb_rx - $f0[0].hb_rx) as $rx | ($f[0].hb_lost - $f0[0].hb_lost) as $lost |
	{benchmark: "lossy", env: $env, measured: true,
	 note: "nobody dies: every NODE_DEAD and FENCED is false; suspicions are refuted by a heartbeat, a PROBE answer or a helper relaying one (relays_heard)",
	 nodes: $nodes, period: $period, timeout: $timeout,
	 netem: {loss: $loss, delay: $delay, jitter: $jitter}, window_ns: $window,
	 heartbeats_received: $rx, heartbeats_lost: $lost,
	 relays_heard: ($f[0].relays_heard - $f0[0].relays_heard),
	 loss_measured: (if $rx + $lost > 0 then $lost / ($rx + $lost) else null end)} + $c[0]' > "$OUT"

echo "# false verdicts on lossy links ($(bench_env | jq -r .virtualization), $(nproc) CPU)"
printf '%-6s %-16s %-20s %8s | %9s %9s %7s %9s | %12s %8s\n' NODES PERIOD/TIMEOUT NETEM WINDOW_S \
	SUSPECT DEAD FENCED RELAYED HB_RX LOSS
jq -r '[.nodes, "\(.period) / \(.timeout)", "\(.netem.loss) \(.netem.delay)+-\(.netem.jitter)",
	(.window_ns / 1e9 | floor), .node_suspect, .node_dead, .fenced, .relays_heard,
	.heartbeats_received, "\((.loss_measured // 0) * 1000 | floor / 10) %"] | @tsv' "$OUT" |
	awk -F'\t' '{ printf "%-6s %-16s %-20s %8s | %9s %9s %7s %9s | %12s %8s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 }'
echo "# SUSPECT, DEAD, FENCED: records at all nodes (all false); RELAYED: suspicions refuted through another member; LOSS: heartbeats lost / sent, measured"
echo "# -> $OUT"
