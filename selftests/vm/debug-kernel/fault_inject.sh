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
# 2. Random: ftd-failnth -r runs the same requests, round after round, from
#    a thread that sees 2% of its slab allocations fail (failslab with a
#    task filter: only that thread, which execs nothing while it is marked:
#    a fault in exec or in the page cache of a binary would hit other
#    processes later); then, without faults, the instance must answer and
#    the requests done again must give the node table of a clean run.
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

pct=${FTD_FAULT_PERCENT:-2}
log "random: the same requests with $pct% of the requesting thread's slab allocations failing"
knob failslab/task-filter Y
knob failslab/interval 1
knob failslab/times -1
knob failslab/probability "$pct"
ftd-failnth -r "${FTD_FAULT_ROUNDS:-60}" || fail "random faults left a bad state (above)"
echo 0 > $FI/failslab/probability
log "ok"
