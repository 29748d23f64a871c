#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Where a benchmark's numbers come from, for every benchmark: those in the
# VM (bench/lib.sh) and those over the simulator on the host
# (bench/sim-lib.sh).
BENCH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

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
		--arg date "$(date -u +%FT%TZ)" --arg commit "$(git -C "$BENCH_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)" \
		'{kernel: $kernel, virtualization: $virt, cpus: $cpus, date: $date, commit: $commit}'
}
