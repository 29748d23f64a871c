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
export PATH="$FTD_ROOT/build/bench/bin:$PATH"
BENCH_OUT=${BENCH_OUT:-$FTD_ROOT/build/bench}
mkdir -p "$BENCH_OUT"

# jqs ARGS...: jq with bench/stats.jq available (include "stats").
jqs() { jq -L "$BENCH_DIR" "$@"; }

# bench_env: JSON describing where the numbers come from. Under TCG every
# guest instruction is emulated, so microsecond timings mostly measure QEMU.
bench_env() {
	local virt
	virt=$(systemd-detect-virt --vm 2>/dev/null || true)	# "none" on bare metal
	[ -n "$virt" ] || virt=unknown
	case $virt in
	qemu) virt="qemu-tcg (software emulation)" ;;
	kvm) virt="kvm" ;;
	esac
	jq -nc --arg kernel "$(uname -r)" --arg virt "$virt" --argjson cpus "$(nproc)" \
		--arg date "$(date -u +%FT%TZ)" --arg commit "$(git -C "$FTD_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)" \
		'{kernel: $kernel, virtualization: $virt, cpus: $cpus, date: $date, commit: $commit}'
}

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
