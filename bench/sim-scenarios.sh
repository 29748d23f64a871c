#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sim-scenarios.sh: every completeness and accuracy scenario of the
# simulator in one table: who knows each death and when, what stays
# undelivered, what is declared falsely, what a failure costs, and
# whether the side that must fence itself did. The VM half of the same
# scenarios is the selftests' output (docs/detection.md, "Measured").
#
# Each scenario is one ftdsim invocation (the module's protocol core,
# docs/simulation.md) over a few seeds; a row sums its runs. Columns:
#   first      earliest failure until the first node knows it, min..max
#              over the runs (ms; the latest failure's, for a run of
#              deaths: its first node)
#   all        until every live node of the side that goes on knows every
#              failure (ms), the worst run
#   undeliv    (live node, death) pairs never delivered
#   again      deliveries of a death a node had delivered
#   false      live nodes declared dead (NODE_DEAD deliveries about them)
#   ntc/n/f    notice frames sent per node and failure, mean
#   fenced     nodes that fenced themselves (the side that does not go on)
#   wrong      nodes that had to fence and did not + nodes that fenced
#              and should not have
#   ok         runs that kept every rule (ftdsim's exit status)
#
#   bench/sim-scenarios.sh      (make bench-sim-scenarios; ~2 min, 4 GB)
#
# BENCH_BIG=0 leaves out the 100,000-node row; BENCH_OUT: where
# sim-scenarios.json goes (build/bench).
set -eu
source "$(dirname "$0")/sim-lib.sh"

OUT=$OUT_DIR/sim-scenarios.json
BIG=${BENCH_BIG:-1}
BASE="--period 10ms --timeout 50ms --observers 2 --latency 20us --jitter 5us"

# Name, then ftdsim's options after $BASE (later options win). From the
# completeness/accuracy issue's list: a death, with loss; many deaths at
# random (the repair); runs of deaths (racks, every observed predecessor
# dead); a quorum of every observer; fast timeouts where the heal races
# the notices; partitions and islands; loss alone.
SCENARIOS=(
	"one death, 0 and 1 % loss|-n 1000 -s single --loss 0,1% --seed 1,2,3"
	"one death, 10,000 nodes, 0 and 1 % loss|-n 10000 -s single --loss 0,1% --seed 1,2,3"
	"one death, 20 % loss|-n 1000 -s single --loss 20% --tail 2s --seed 1,2,3"
	"30 % die at random|-n 1000 -s partition --cut 30% --cut-layout random --seed 1,2,3,4"
	"40 % die at random|-n 1000 -s partition --cut 40% --cut-layout random --seed 1,2,3,4"
	"49 % die at random|-n 1000 -s partition --cut 49% --cut-layout random --seed 1,2,3,4"
	"49 % at random, 20 % loss|-n 1000 -s partition --cut 49% --cut-layout random --loss 20% --seed 1,2,3"
	"both observed predecessors die (k = 2)|-n 1000 -s adjacent --adjacent 2 --seed 1,2,3"
	"rack of 16|-n 1000 -s partition --cut 16 --seed 1,2,3"
	"rack of 256|-n 1000 -s partition --cut 256 --seed 1,2,3"
	"rack of 1,000|-n 10000 -s partition --cut 1000 --seed 1"
	"quorum 2 of 2, one death|-n 1000 -s single --quorum 2 --seed 1,2,3"
	"quorum 2 of 2, 3 adjacent|-n 1000 -s adjacent --adjacent 3 --quorum 2 --seed 1,2,3"
	"heal race, 1 ms / 10 ms, 2.25 ms +- 0.75 ms a hop|-n 1000 -s single -p 1ms -t 10ms -l 2250us -j 750us --seed 1,2,3"
	"heal race, 100 us / 1 ms|-n 10000 -s single -p 100us -t 1ms --seed 1,2,3"
	"one node cut off|-n 1000 -s partition --cut 1 --seed 1,2,3"
	"even split, islands|-n 1000 -s partition --cut 50% --cut-mode island --first 1 --seed 1,2"
	"a third cut off, an island|-n 1000 -s partition --cut 33.3% --cut-mode island --seed 1,2"
	"a third cut off, isolated|-n 1000 -s partition --cut 33.3% --seed 1,2"
	"island of a tenth|-n 1000 -s partition --cut 10% --cut-mode island --first 1 --seed 1,2,3"
	"island of a quarter|-n 1000 -s partition --cut 25% --cut-mode island --first 1 --seed 1,2,3"
	"60 % cut off at random (nobody goes on)|-n 1000 -s partition --cut 60% --cut-layout random --seed 1,2"
)
[ "$BIG" = 0 ] || SCENARIOS+=("one death, 100,000 nodes, 0 and 1 % loss|-n 100000 -s single --loss 0,1%")

: > "$TMP/rows"
for sc in "${SCENARIOS[@]}"; do
	name=${sc%%|*}
	args=${sc#*|}
	rc=0
	# shellcheck disable=SC2086 # the options are words
	"$SIM" $BASE $args --json > "$TMP/runs" 2> "$TMP/err" || rc=$?
	[ $rc -le 1 ] || { cat "$TMP/err" >&2; die "ftdsim failed: $args"; }
	jq -s -c --arg name "$name" --arg args "$args" '{
		name: $name, args: $args, runs: length,
		first_ms_min: (map(.detect_min_ns) | min / 1e6),
		first_ms_max: (map(.detect_min_ns) | max / 1e6),
		all_know_ms_max: (map(.all_know_ns) | max / 1e6),
		never_delivered: (map(.never_delivered) | add),
		delivered_again: (map(.delivered_again) | add),
		false_declared: (map(.false_declared) | add),
		false_deaths: (map(.false_deaths) | add),
		notices_per_node_failure: (map(.notice_per_node_failure) | add / length),
		fence_wrong: (map(.unfenced + .fenced_wrongly) | add),
		fenced: (map(.fenced_majority + .fenced_reach + .fenced_lease) | add),
		ok: (map(select(.ok)) | length),
		wall_s: (map(.wall_s) | add)}' "$TMP/runs" >> "$TMP/rows"
	printf '# %s: done\n' "$name" >&2
done

jq -s --argjson env "$(bench_env)" --arg base "$BASE" \
	'{benchmark: "sim-scenarios", env: $env, base: $base, scenarios: .}' \
	"$TMP/rows" > "$OUT"

printf '%-50s %4s %15s %8s %7s %5s %5s %7s %6s %5s %3s\n' scenario runs "first (ms)" "all (ms)" undeliv again false ntc/n/f fenced wrong ok
jq -r '.scenarios[] | [.name, .runs, .first_ms_min, .first_ms_max, .all_know_ms_max, .never_delivered,
	.delivered_again, .false_declared, .notices_per_node_failure, .fenced, .fence_wrong, .ok] | @tsv' "$OUT" |
	while IFS=$'\t' read -r name runs f0 f1 all un again fd ntc fc fw ok; do
		printf '%-50s %4d %7.1f..%-6.1f %8.1f %7d %5d %5d %7.2f %6d %5d %3d\n' \
			"$name" "$runs" "$f0" "$f1" "$all" "$un" "$again" "$fd" "$ntc" "$fc" "$fw" "$ok"
	done
echo "# $OUT" >&2
