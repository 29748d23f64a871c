#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ulfm.sh: time from a rank's death to the ULFM error in the survivors' MPI
# call, Open MPI 5 on its own against Open MPI 5 with ftdetect, in one run.
#
#   n1 .. nN ── br0     one rank per node (ftb-ulfm), Open MPI 5 launched
#                       with --with-ft ulfm; the victim is the last rank,
#                       on node N; every other rank waits in MPI_Recv from it
#
# Each case is one job on a fresh cluster. The victim is killed (kill -9)
# or its node cut off (its switch port down: ftd-link stamps the change),
# and each survivor stamps when its MPI_Recv returned and with what error.
# Time to error = that stamp - the kill or the start of the cut
# (CLOCK_REALTIME of the one VM). A cut takes effect somewhere between
# ftd-link's two stamps, up to ~15 ms apart in the emulated guest (the
# link's teardown waits for RCU): the time is measured from the first, an
# upper bound, and the window is recorded (cut_window_ns). Modes:
#   ompi          Open MPI alone at its defaults (its heartbeat detector off:
#                 PRRTE's view of its daemons and the TCP connections)
#   ompi-fd:P:T   Open MPI alone, its detector on, in its own thread, with
#                 period P and timeout T (mpi_ft_detector*)
#   ftd:P:T       ftdetect with period P and timeout T on every node, and the
#                 ranks attached with libftdetect_mpi (ftdetect_mpi(3))
# Each case runs idle and under full CPU load (stress-ng --cpu <every CPU>
# in the root namespace, from BENCH_LOAD_SECONDS before the death). A false
# failure is a survivor whose call returned before the death began, or
# whose MPI lists a live rank as failed; ftdetect's NODE_DEAD records of
# live nodes, and FENCED records at live nodes (fenced while alive), are counted as
# well. The kernel log of every job goes to build/bench/ulfm.dmesg.
#
#   bench/ulfm.sh                              every mode, event and load
#   bench/ulfm.sh --case MODE EVENT LOAD OUT   one job
#
# BENCH_MODES ("ompi ompi-fd:10ms:100ms ftd:10ms:100ms ftd:1ms:10ms"),
# BENCH_EVENTS ("cut kill"), BENCH_LOADS ("idle loaded"), BENCH_RUNS (2)
# jobs of each, BENCH_NODES (4), BENCH_WAIT (60) seconds a survivor is
# given to return, BENCH_LOAD_SECONDS (10). Needs an MPI with working ULFM
# from the Open MPI 5 family that make mpi built for (ftdetect_mpi(3));
# otherwise it says why and measures nothing. Output: a table, and
# build/bench/ulfm.json.
source "$(dirname "$0")/lib.sh"
source "$FTD_ROOT/selftests/lib-mpi.sh"

NODES=${BENCH_NODES:-4}
MODES=${BENCH_MODES:-ompi ompi-fd:10ms:100ms ftd:10ms:100ms ftd:1ms:10ms}
EVENTS=${BENCH_EVENTS:-cut kill}
LOADS=${BENCH_LOADS:-idle loaded}
RUNS=${BENCH_RUNS:-2}
WAIT=${BENCH_WAIT:-60}
LOAD_SECONDS=${BENCH_LOAD_SECONDS:-10}
OUT=$BENCH_OUT/ulfm.json
VICTIM=$((NODES - 1))

# seconds DURATION: "10ms", "1s", "0.5s" as seconds, for Open MPI's settings.
seconds() {
	case $1 in
	*ms) awk -v v="${1%ms}" 'BEGIN { print v / 1000 }' ;;
	*us) awk -v v="${1%us}" 'BEGIN { print v / 1000000 }' ;;
	*s) echo "${1%s}" ;;
	*) echo "$1" ;;
	esac
}

# line_of R KIND: rank R's line of KIND in its file.
line_of() { grep -m1 "^$2 " "$FTD_TMP/job/ulfm.$1" 2> /dev/null || true; }
# field LINE KEY: KEY's value in LINE.
field() { [[ " $1 " =~ \ $2=([^ ]*)\  ]] && echo "${BASH_REMATCH[1]}"; }

survivors_returned() {
	local r
	for ((r = 0; r < VICTIM; r++)); do
		[ -n "$(line_of "$r" returned)" ] || return 1
	done
}

# dead_records NODE: NODE_DEAD records of NODE at every node's device.
dead_records() {
	local i
	for ((i = 1; i <= NODES; i++)); do
		[ -e "$FTD_TMP/dev.$i" ] || continue
		jq -c --argjson n "$1" 'select(.event == "NODE_DEAD" and .node == $n)' "$FTD_TMP/dev.$i"
	done | wc -l
}

# fence_records NODE: the times NODE was fenced (declared dead while alive,
# or by its own lease or reach check), as its own device said.
fence_records() {
	[ -e "$FTD_TMP/dev.$1" ] || { echo 0; return; }
	jq -c 'select(.event == "FENCED")' "$FTD_TMP/dev.$1" | wc -l
}

run_case() {
	local mode=$1 event=$2 load=$3 out=$4 flavour period="" timeout="" glue="" args
	local job=$FTD_TMP/job r line stress="" event_ns event_end_ns pid false_dead=0 false_fenced=0 i
	local kmark
	flavour=$(mpi_resolve ulfm)
	local prog=$FTD_ROOT/build/bench/mpi/ftb-ulfm.$flavour

	args="--with-ft ulfm"
	case $mode in
	ompi) ;;
	ompi-fd:*:*)
		IFS=: read -r _ period timeout <<< "$mode"
		args+=" --mca mpi_ft_detector true --mca mpi_ft_detector_thread true"
		args+=" --mca mpi_ft_detector_period $(seconds "$period") --mca mpi_ft_detector_timeout $(seconds "$timeout")"
		;;
	ftd:*:*)
		IFS=: read -r _ period timeout <<< "$mode"
		glue=--glue
		;;
	*) bench_fail "$out" ulfm "unknown mode $mode (ompi, ompi-fd:P:T, ftd:P:T)" ;;
	esac

	kmark=$(kernel_mark)
	cluster_create "$NODES"
	if [ -n "$glue" ]; then
		cluster_up "$period" "$timeout"
		wait_until 60 all_alive || bench_fail "$out" ulfm "cluster of $NODES did not come up"
		watch_devices $(seq 1 "$NODES")
	fi
	mkdir -p "$job"
	FTD_MPI_ARGS=$args FTD_MPI_TIMEOUT=$((WAIT + LOAD_SECONDS + 600)) \
		mpi_start "$FTD_TMP/job.out" "$flavour" "$NODES" $(seq 1 "$NODES") -- \
		"$prog" --dir "$job" --victim "$VICTIM" $glue
	wait_until 300 test -e "$job/ulfm.ready" ||
		{ cat "$FTD_TMP/job.out" >&2; bench_fail "$out" ulfm "the job did not start within 300 s"; }
	if [ "$load" = loaded ]; then
		stress-ng --cpu "$(nproc)" --timeout $((LOAD_SECONDS + WAIT + 60))s --quiet &
		stress=$!
		FTD_BG_PIDS+=("$stress")
		sleep "$LOAD_SECONDS"
	else
		sleep 2
	fi
	case $event in
	kill)
		pid=$(field "$(line_of "$VICTIM" start)" pid)
		[ -n "$pid" ] || bench_fail "$out" ulfm "no pid of the victim rank $VICTIM"
		event_ns=$(now_ns)
		kill -9 "$pid"
		event_end_ns=$event_ns
		;;
	cut)
		read -r event_ns event_end_ns < <(cut_node "$NODES" | jq -r '"\(.before_ns) \(.after_ns)"')
		;;
	*) bench_fail "$out" ulfm "unknown event $event (cut, kill)" ;;
	esac
	wait_until "$WAIT" survivors_returned || true
	# Shrinking follows the error; give it a little longer.
	sleep 2
	if [ -n "$stress" ]; then
		kill "$stress" 2> /dev/null || true
		wait "$stress" 2> /dev/null || true
	fi
	touch "$job/stop"
	if [ -n "$glue" ]; then
		for ((i = 1; i < NODES; i++)); do
			false_dead=$((false_dead + $(dead_records "$i")))
			false_fenced=$((false_fenced + $(fence_records "$i")))
		done
	fi
	{
		echo "### $mode $event $load, the event at $event_ns ns (until $event_end_ns)"
		kernel_since "$kmark" | grep 'ftdetect: ' || true
	} >> "$BENCH_OUT/ulfm.dmesg"

	for ((r = 0; r < VICTIM; r++)); do
		line=$(line_of "$r" returned)
		jq -nc --argjson rank "$r" --arg ret "$line" --arg shrunk "$(line_of "$r" shrunk)" \
			--arg waiting "$(line_of "$r" waiting)" --argjson event "$event_ns" --argjson victim "$VICTIM" '
			def kv($l): $l | split(" ")[1:] | map(split("=") | {(.[0]): .[1]}) | add // {};
			kv($ret) as $x | kv($shrunk) as $s | kv($waiting) as $w |
			{rank: $rank, returned: ($ret != ""),
			 error: $x.class,
			 time_to_error_ns: (if $ret != "" then ($x.time_ns | tonumber) - $event else null end),
			 failed: (if ($x.failed // "-") == "-" then [] else $x.failed | split(",") | map(tonumber) end),
			 shrunk_to: (if $shrunk != "" then $s.size | tonumber else null end),
			 waiting_since_event_ns: (if $waiting != "" then ($w.since_ns | tonumber) - $event else null end)} |
			.false_failure = (.returned and (.time_to_error_ns < 0 or any(.failed[]; . != $victim)))'
	done > "$FTD_TMP/survivors"
	jq -s --arg mode "$mode" --arg event "$event" --arg load "$load" --argjson nodes "$NODES" \
		--argjson wait "$WAIT" --argjson false_dead "$false_dead" \
		--argjson false_fenced "$false_fenced" --argjson window "$((event_end_ns - event_ns))" \
		--arg flavour "$flavour" --arg desc "$(mpi_config "$flavour" DESCRIPTION)" \
		'{measured: true, mode: $mode, event: $event, load: $load, nodes: $nodes, mpi: $flavour,
		  mpi_description: $desc, wait_s: $wait, ftdetect_false_node_dead: $false_dead,
		  ftdetect_false_fenced: $false_fenced, cut_window_ns: $window,
		  survivors: .}' "$FTD_TMP/survivors" > "$out"
	log "ulfm: $mode $event $load: $(jq -r '[.survivors[] | if .returned then "rank \(.rank) \(.error) \(.time_to_error_ns / 1e6 | floor) ms" else "rank \(.rank) none" end] | join(", ")' "$out")"
}

if [ "${1:-}" = --case ]; then
	run_case "$2" "$3" "$4" "$5"
	exit 0
fi

# What every case needs, said once.
flavour=$(mpi_resolve ulfm)
why=$(mpi_missing "$flavour")
[ -z "$why" ] || bench_fail "$OUT" ulfm "$why"
[ "$(mpi_family "$flavour")" = prrte ] ||
	bench_fail "$OUT" ulfm "$flavour ($(mpi_config "$flavour" DESCRIPTION)) is not Open MPI 5: the comparison is with Open MPI's own detection"
[ -x "$FTD_ROOT/build/bench/mpi/ftb-ulfm.$flavour" ] ||
	bench_fail "$OUT" ulfm "build/bench/mpi/ftb-ulfm.$flavour not built (make bench-ulfm builds it)"
[[ " $LOADS " != *" loaded "* ]] || command -v stress-ng > /dev/null ||
	bench_fail "$OUT" ulfm "stress-ng not installed (selftests/deps/install)"
log "ulfm: $flavour, $(mpi_config "$flavour" DESCRIPTION)"

# tag_unmeasured MODE EVENT LOAD: the case just recorded could not measure
# (bench_fail says why, not which case): name it, so that the table still
# shows every other case and says which one is missing.
tag_unmeasured() {
	jq -s -c --arg m "$1" --arg e "$2" --arg l "$3" \
		'if length > 0 and .[-1].measured == false then .[-1] += {mode: $m, event: $e, load: $l} else . end | .[]' \
		"$FTD_TMP/results" > "$FTD_TMP/results.new" && mv "$FTD_TMP/results.new" "$FTD_TMP/results"
}

status=0
: > "$FTD_TMP/results"
: > "$BENCH_OUT/ulfm.dmesg"
for mode in $MODES; do
	for event in $EVENTS; do
		for load in $LOADS; do
			for ((run = 1; run <= RUNS; run++)); do
				log "ulfm: $mode, $event, $load, run $run of $RUNS ($NODES nodes)"
				if ! bench_case "$mode" "$event" "$load"; then
					status=1
					tag_unmeasured "$mode" "$event" "$load"
				fi
			done
		done
	done
done
jqs -s --argjson env "$(bench_env)" --argjson wait "$WAIT" '
	include "stats";
	{benchmark: "ulfm", env: $env,
	 note: "time from the kill or the cut of the last rank to each survivor'"'"'s MPI_Recv from it returning the ULFM error; one rank per node; ompi = Open MPI alone at its defaults, ompi-fd = its heartbeat detector on (own thread) at the period and timeout given, ftd = ftdetect at those and the ranks attached with libftdetect_mpi. Survivors that had not returned after wait_s count as not returned. TCG-emulated guest.",
	 measured: (length > 0 and all(.[]; .measured != false)),
	 not_measured: [.[] | select(.measured == false) | {mode, event, load, reason}],
	 rows: (map(select(.measured != false)) | group_by([.mode, .event, .load]) | map(
		[.[].survivors[]] as $s |
		{mode: .[0].mode, event: .[0].event, load: .[0].load, jobs: length,
		 survivors: ($s | length),
		 returned: ([$s[] | select(.returned)] | length),
		 errors: ([$s[] | select(.returned) | .error] | group_by(.) | map({(.[0]): length}) | add // {}),
		 shrunk: ([$s[] | select(.shrunk_to != null)] | length),
		 false_failures: ([$s[] | select(.false_failure)] | length),
		 ftdetect_false_node_dead: (map(.ftdetect_false_node_dead) | add),
		 ftdetect_false_fenced: (map(.ftdetect_false_fenced // 0) | add),
		 cut_window_ns: (map(.cut_window_ns // 0) | max),
		 time_to_error_ns: ([$s[] | select(.returned and .time_to_error_ns >= 0) | .time_to_error_ns] | stats)})),
	 jobs: .}' "$FTD_TMP/results" > "$OUT"

echo "# time to the ULFM error, $NODES ranks on $NODES nodes ($(bench_env | jq -r .virtualization), $(nproc) CPU), in ms"
printf '%-22s %-5s %-7s %9s %7s %9s %9s %9s %6s %6s\n' MODE EVENT LOAD RETURNED SHRUNK MIN MEDIAN P99 FALSE ERROR
jq -r '.rows[] | [.mode, .event, .load, "\(.returned)/\(.survivors)", .shrunk,
	(.time_to_error_ns.min // -1), (.time_to_error_ns.median // -1), (.time_to_error_ns.p99 // -1),
	(.false_failures + .ftdetect_false_node_dead + .ftdetect_false_fenced), (.errors | keys | map(sub("MPIX_ERR_"; "")) | join(","))] | @tsv' "$OUT" |
	awk -F'\t' '{ printf "%-22s %-5s %-7s %9s %7s", $1, $2, $3, $4, $5;
		for (i = 6; i <= 8; i++) if ($i < 0) printf " %9s", "-"; else printf " %9.1f", $i / 1e6;
		printf " %6s %6s\n", $9, $10 }'
jq -r '.not_measured[] | "# NOT MEASURED: one job of \(.mode) \(.event) \(.load): \(.reason)"' "$OUT"
echo "# RETURNED: survivors whose call returned within $WAIT s; FALSE: false failures (a live rank failed, an error before the death began) + ftdetect NODE_DEAD of live nodes + FENCED of live nodes"
echo "# times from the kill, or from the start of the cut (upper bounds: a cut takes effect within cut_window_ns of it, at most $(jq -r '[.rows[].cut_window_ns] | max // 0 | . / 1e6' "$OUT") ms here)"
echo "# kernel log: $BENCH_OUT/ulfm.dmesg"
echo "# -> $OUT"
exit $status
