#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Helpers for the benchmarks (bench/*.sh): the cluster helpers of the
# selftests (selftests/lib.sh) plus where results go, a description of the
# machine they were measured on, and statistics through bench/stats.jq.
#
# A benchmark reports numbers and never fails on a timing; it exits non-zero
# only when it could not measure (bench_fail says why, also in its JSON).
BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$BENCH_DIR/../selftests/lib.sh"
source "$BENCH_DIR/env.sh"
export PATH="$FTD_ROOT/build/bench/bin:$PATH"
BENCH_OUT=${BENCH_OUT:-$FTD_ROOT/build/bench}
mkdir -p "$BENCH_OUT"

# jqs ARGS...: jq with bench/stats.jq available (include "stats").
jqs() { jq -L "$BENCH_DIR" "$@"; }

# bench_fail FILE NAME WHY: record that NAME could not be measured, and exit 1.
bench_fail() {
	jq -n --arg name "$2" --arg why "$3" --argjson env "$(bench_env)" \
		'{benchmark: $name, env: $env, measured: false, reason: $why}' > "$1"
	echo "# $2: NOT MEASURED: $3" >&2
	exit 1
}

# bench_case ARGS...: run one case of this benchmark, "$0 --case ARGS...
# FILE", in a process of its own (its cluster goes with it), and append the
# JSON it writes in FILE to $FTD_TMP/results; non-zero if it could not
# measure (its JSON then says why).
bench_case() {
	local rc=0
	"$0" --case "$@" "$FTD_TMP/case.json" || rc=1
	if [ -s "$FTD_TMP/case.json" ]; then
		cat "$FTD_TMP/case.json" >> "$FTD_TMP/results"
	fi
	rm -f "$FTD_TMP/case.json"
	return $rc
}

# us NS: nanoseconds as microseconds (integer), for tables.
us() { echo $(( $1 / 1000 )); }
