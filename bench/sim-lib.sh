#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What the benchmarks over the simulator share (bench/sim-*.sh, on the
# host, no VM): the simulator, where results go, a scratch directory, and
# bench_env (bench/env.sh).
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
SIM=${FTDSIM:-$BENCH_ROOT/build/bin/ftdsim}
OUT_DIR=${BENCH_OUT:-$BENCH_ROOT/build/bench}

die() { echo "$(basename "$0"): $*" >&2; exit 1; }
[ -x "$SIM" ] || die "$SIM not built (make sim)"
command -v jq > /dev/null || die "jq is needed (apt-get install jq)"
mkdir -p "$OUT_DIR"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
