#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fault_inject.sh: allocations fail inside the module's requests, on the
# debug kernel (make test-debug; this test is in debug-tests.list only).
#
# 1. Systematic: build/selftests/ftd-failnth makes the 1st, 2nd, ... fault
#    point (slab or page allocation, sleeping ones included) of each request
#    of a configuration's life fail, one at a time, each in a fresh network
#    namespace, and checks that the request returns, the instance still
#    answers, the request then succeeds, and the node table is right.
# 2. Random: `ftctl apply` of a 3-node config, again and again, by a
#    process that sees 2% of its slab allocations fail (failslab with a task
#    filter: only that process and what it execs; many of its faults hit
#    exec and the loader, the rest the module's requests); failures must be
#    clean errors, and a last apply without faults must give the full config.
#
# The kernel log is judged by guest-init after the run (KASAN, lockdep,
# kmemleak, WARNING...): this test only drives the faults.
# shellcheck source=../../lib.sh
source "$(dirname "$0")/../../lib.sh"

FI=/sys/kernel/debug
[ -d $FI/failslab ] || skip "kernel without CONFIG_FAILSLAB and CONFIG_FAULT_INJECTION_DEBUG_FS"
[ -e /proc/self/fail-nth ] || skip "kernel without /proc/self/fail-nth"
command -v ftd-failnth > /dev/null || fail "build/selftests/ftd-failnth not built (make selftests)"

saved=()
# knob FILE VALUE: set a fault-injection knob, restored at exit.
knob() {
	saved+=("$1=$(cat "$FI/$1")")
	echo "$2" > "$FI/$1"
}
restore() {
	local kv
	for kv in "${saved[@]}"; do
		echo "${kv#*=}" > "$FI/${kv%%=*}" 2>/dev/null || true
	done
}
trap 'restore; cleanup' EXIT

# Sleeping allocations are the module's usual ones (GFP_KERNEL): count them
# too. One line in dmesg per injected fault (verbose 1), no stack dump.
for attr in failslab fail_page_alloc; do
	[ -d "$FI/$attr" ] || continue
	knob "$attr/ignore-gfp-wait" N
	knob "$attr/verbose" 1
	knob "$attr/probability" 0
done
[ -d $FI/fail_page_alloc ] && knob fail_page_alloc/min-order 0

log "systematic: every fault point of every step"
ftd-failnth -m "${FTD_FAILNTH_MAX:-400}" || fail "ftd-failnth found a bad error path (above)"

log "random: ftctl apply with 2% of its slab allocations failing"
cluster_create 3
cluster_config "$FTD_TMP/c.conf" "$FTD_TEST_PERIOD" "${FTD_TEST_TIMEOUT:-100ms}" 4
knob failslab/task-filter Y
knob failslab/interval 1
knob failslab/times -1
knob failslab/probability 2
ok=0 failed=0
for ((i = 0; i < ${FTD_FAULT_ROUNDS:-30}; i++)); do
	# make-it-fail is inherited: the shell, ftctl and what it execs.
	# shellcheck disable=SC2016  # $1 is the inner shell's
	if n 1 sh -c 'echo 1 > /proc/self/make-it-fail && exec ftctl apply "$1"' sh \
		"$FTD_TMP/c.conf" > "$FTD_TMP/apply.out" 2>&1; then
		ok=$((ok + 1))
	else
		failed=$((failed + 1))
		sed 's/^/#   /' "$FTD_TMP/apply.out" | head -n 3
	fi
	# Now and then start over, so that the first apply's paths get faults too.
	((i % 5 != 4)) || n 1 ftctl down > /dev/null 2>&1 || true
done
echo 0 > $FI/failslab/probability
log "$ok applies succeeded, $failed failed"
n 1 ftctl apply "$FTD_TMP/c.conf" > /dev/null || fail "apply without faults fails afterwards"
[ "$(n 1 ftstat -j | jq '.nodes | length')" = 3 ] || { n 1 ftstat; fail "not 3 nodes after the last apply"; }
log "ok"
