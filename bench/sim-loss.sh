#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sim-loss.sh: how often independent frame loss alone gets a live node
# declared dead, in the simulator (ftdsim, the module's protocol core).
#
# At the loss a site sees (2 %) a false death is far too rare to count: an
# hour of 100,000 nodes is 3.6 x 10^8 node-seconds, about ten hours of
# simulation here, and would most likely show nothing. So the rate is
# counted where it is frequent enough to count (high loss), a power law
# rate = C p^m is fitted through those points, and carried down to the
# target loss. A false death needs a timeout of heartbeats lost in a row
# and every ask of the suspect lost too, direct and through helpers: each
# of those factors grows slower than p at high p (a helper's four-frame
# path fails with probability 1 - (1 - p)^4, not 4p), so the exponent
# fitted at high loss is at most the exponent at low loss and the
# extrapolation errs high. It assumes no other way to a false death that
# is too rare to show at high loss and still matters at 2 %: the direct
# runs at the target loss are there to catch one that is not rare.
#
# Each run is one single-failure ftdsim run with every frame lost
# independently with probability p, ended at its first false declaration
# (--stop-at-false) or after BENCH_RUN of simulated time; its exposure is
# nodes x its simulated time. Runs at a loss rate go on, in parallel
# batches, until BENCH_EVENTS false deaths or BENCH_NODE_SECONDS of
# exposure. The rate is events / exposure, with an exact-enough 95 %
# interval (Wilson-Hilferty); the fit weighs each point by its events.
#
#   bench/sim-loss.sh            (make bench-sim-loss; ~15 min on 2 cores)
#
# BENCH_NODES (1000) nodes in each run; BENCH_LOSS_RATES ("16% 18% 20% 22%
# 24% 26% 28% 30%") the rates counted; BENCH_EVENTS (20); BENCH_NODE_SECONDS
# (2e7) the exposure cap per rate; BENCH_RUN (60s) the longest run;
# BENCH_TARGET_LOSS (2%) and BENCH_TARGET_NODES (100000) where the fit is
# carried; BENCH_TARGET_NODE_SECONDS (1e7) of direct runs at the target
# loss; BENCH_PERIOD (10ms), BENCH_TIMEOUT (50ms), BENCH_OBSERVERS (2);
# BENCH_JOBS (nproc) runs at once. Output: a table and
# build/bench/sim-loss.json (BENCH_OUT: elsewhere).
set -eu
source "$(dirname "$0")/sim-lib.sh"

OUT=$OUT_DIR/sim-loss.json
NODES=${BENCH_NODES:-1000}
RATES=${BENCH_LOSS_RATES:-16% 18% 20% 22% 24% 26% 28% 30%}
EVENTS=${BENCH_EVENTS:-20}
BUDGET=${BENCH_NODE_SECONDS:-2e7}
RUN=${BENCH_RUN:-60s}
TARGET_LOSS=${BENCH_TARGET_LOSS:-2%}
TARGET_NODES=${BENCH_TARGET_NODES:-100000}
TARGET_BUDGET=${BENCH_TARGET_NODE_SECONDS:-1e7}
PERIOD=${BENCH_PERIOD:-10ms}
TIMEOUT=${BENCH_TIMEOUT:-50ms}
K=${BENCH_OBSERVERS:-2}
JOBS=${BENCH_JOBS:-$(nproc)}
BATCH=$((JOBS * 4))

# one_run LOSS SEED: one run's numbers as a JSON line. ftdsim exits 1 when
# a run broke a rule, which a false death is: only 2 and up are errors.
one_run() {
	local rc=0
	"$SIM" -n "$NODES" -k "$K" -p "$PERIOD" -t "$TIMEOUT" -s single --loss "$1" \
		--tail "$RUN" --limit "$RUN" --stop-at-false --seed "$2" --json 2> "$TMP/err.$2" > "$TMP/run.$2" || rc=$?
	if [ $rc -gt 1 ]; then
		cat "$TMP/err.$2" >&2
		return 255	# xargs stops
	fi
	jq -c '{loss, seed, nodes, sim_ns, first_false_ns, suspects, relays_asked, wall_s}' "$TMP/run.$2"
	rm -f "$TMP/run.$2" "$TMP/err.$2"
}
export -f one_run
export SIM NODES K PERIOD TIMEOUT RUN TMP

# measure LOSS EVENTS BUDGET: runs at LOSS until EVENTS false deaths or
# BUDGET node-seconds; every run's line in $TMP/runs.LOSS.
measure() {
	local loss=$1 want=$2 budget=$3 seed=1 file=$TMP/runs.$1 events exposure enough
	: > "$file"
	for (( ; ; )); do
		# shellcheck disable=SC2016 # $0 and $1 are the inner shell's
		seq "$seed" $((seed + BATCH - 1)) | xargs -P "$JOBS" -n 1 bash -c 'one_run "$0" "$1"' "$loss" \
			>> "$file" || die "ftdsim failed at loss $loss (see above)"
		seed=$((seed + BATCH))
		read -r events exposure enough < <(jq -s -r --argjson want "$want" --argjson budget "$budget" '
			(map(select(.first_false_ns > 0)) | length) as $e |
			(map(.nodes * .sim_ns / 1e9) | add) as $x |
			"\($e) \($x | floor) \($e >= $want or $x >= $budget)"' "$file")
		printf '# loss %s: %d runs, %s node-seconds, %d false deaths\n' \
			"$loss" $((seed - 1)) "$exposure" "$events" >&2
		[ "$enough" = true ] && break
	done
}

for loss in $RATES; do
	measure "$loss" "$EVENTS" "$BUDGET"
done
measure "$TARGET_LOSS" 1000000 "$TARGET_BUDGET"

jq -n --arg target_loss "$TARGET_LOSS" --argjson target_nodes "$TARGET_NODES" \
	--arg rates "$RATES" --argjson env "$(bench_env)" \
	--arg period "$PERIOD" --arg timeout "$TIMEOUT" --argjson k "$K" --argjson nodes "$NODES" '
	# Wilson-Hilferty: the 95 % (two-sided) bounds of a Poisson mean seen as e.
	def hi($e): ($e + 1) * pow(1 - 1 / (9 * ($e + 1)) + 1.96 / (3 * (($e + 1) | sqrt)); 3);
	def lo($e): if $e == 0 then 0 else $e * pow(1 - 1 / (9 * $e) - 1.96 / (3 * ($e | sqrt)); 3) end;
	def pct: rtrimstr("%") | tonumber / 100;
	def point:
		(map(select(.first_false_ns > 0)) | length) as $e |
		(map(.nodes * .sim_ns / 1e9) | add) as $x |
		{loss: .[0].loss, runs: length, node_seconds: $x, false_deaths: $e,
		 per_node_second: ($e / $x), per_node_second_lo95: (lo($e) / $x),
		 per_node_second_hi95: (hi($e) / $x),
		 suspicions_per_node_second: ((map(.suspects) | add) / $x),
		 helper_asks_per_node_second: ((map(.relays_asked) | add) / $x),
		 wall_s: (map(.wall_s) | add)};
	[inputs] as $all |
	($target_loss | pct) as $tp |
	($all | map(select(.loss != $tp)) | group_by(.loss) | map(point)) as $points |
	($all | map(select(.loss == $tp)) | point) as $direct |
	($points | map(select(.false_deaths >= 3))) as $fit_points |
	(if ($fit_points | length) < 2 then null else
		($fit_points | map({x: (.loss | log), y: (.per_node_second | log), w: .false_deaths})) as $p |
		($p | map(.w) | add) as $sw |
		(($p | map(.w * .x) | add) / $sw) as $mx |
		(($p | map(.w * .y) | add) / $sw) as $my |
		($p | map(.w * (.x - $mx) * (.x - $mx)) | add) as $sxx |
		(($p | map(.w * (.x - $mx) * (.y - $my)) | add) / $sxx) as $m |
		{exponent: $m, exponent_se: (1 / ($sxx | sqrt)),
		 coefficient: (($my - $m * $mx) | exp),
		 from_loss: ($fit_points | map(.loss) | min), to_loss: ($fit_points | map(.loss) | max),
		 points: ($fit_points | length)}
	 end) as $fit |
	(3600 * $target_nodes) as $hour |
	{benchmark: "sim-loss",
	 env: $env,
	 settings: {nodes: $nodes, period: $period, timeout: $timeout, observers: $k, quorum: 1,
		    latency: "20us", jitter: "5us", rates: ($rates | split(" "))},
	 points: $points, fit: $fit,
	 target: ({loss: $tp, nodes: $target_nodes} +
		  (if $fit == null then {} else
		   {per_hour_fit: ($fit.coefficient * pow($tp; $fit.exponent) * $hour),
		    per_hour_fit_exponent_less_2se: ($fit.coefficient
			* pow($fit_points | map(.loss) | min; 2 * $fit.exponent_se)
			* pow($tp; $fit.exponent - 2 * $fit.exponent_se) * $hour)} end) +
		  {direct: ($direct + {per_hour_hi95: ($direct.per_node_second_hi95 * $hour)})})}
	' "$TMP"/runs.* > "$OUT"

printf '%6s %6s %9s %5s  %-31s %s\n' loss runs node-s false "per node-second (95 %)" "suspicions/node-s"
jq -r '.points[] | [.loss * 100, .runs, .node_seconds, .false_deaths, .per_node_second,
	.per_node_second_lo95, .per_node_second_hi95, .suspicions_per_node_second] | @tsv' "$OUT" |
	while IFS=$'\t' read -r loss runs x e r lo hi s; do
		printf '%5.1f%% %6d %9.2e %5d  %8.2e (%8.2e .. %8.2e)  %.1f\n' "$loss" "$runs" "$x" "$e" "$r" "$lo" "$hi" "$s"
	done
jq -r 'if .fit == null then "fit: fewer than two rates with 3 or more false deaths" else
	[.fit.points, .fit.from_loss * 100, .fit.to_loss * 100, .fit.coefficient, .fit.exponent,
	 .fit.exponent_se, .target.loss * 100, .target.nodes, .target.per_hour_fit,
	 .target.per_hour_fit_exponent_less_2se] | @tsv end' "$OUT" |
	while IFS=$'\t' read -r pts from to c m se tl tn ph phs; do
		if [ -z "$from" ]; then
			echo "$pts"
			continue
		fi
		printf 'fit over %d rates (%g-%g %%): rate = %.3g p^%.2f per node-second (exponent +- %.2f)\n' \
			"$pts" "$from" "$to" "$c" "$m" "$se"
		printf 'carried to %g %% at %d nodes: %.2g false deaths an hour (exponent less 2 SE: %.2g)\n' \
			"$tl" "$tn" "$ph" "$phs"
	done
jq -r '[.target.loss * 100, .target.nodes, .target.direct.false_deaths, .target.direct.node_seconds,
	.target.direct.runs, .target.direct.per_hour_hi95] | @tsv' "$OUT" |
	while IFS=$'\t' read -r tl tn de dx dr dh; do
		printf 'measured at %g %%: %d false deaths in %.2e node-seconds (%d runs; 95 %% bound: %.3g an hour at %d nodes)\n' \
			"$tl" "$de" "$dx" "$dr" "$dh" "$tn"
	done
echo "# $OUT" >&2
