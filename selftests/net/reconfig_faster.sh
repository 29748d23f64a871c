#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# reconfig_faster.sh: shortening the period and the timeout of a running
# cluster (ftctl apply, which changes them live) declares nobody and fences
# nobody. Heartbeats sent every old period are not late by the new timeout:
# silence measured before the change does not count (proto/detect.h), and
# each node ticks at its new period at once rather than an old period later.
#   4 nodes at 2 s / 10 s, then every node applies 50 ms / 1 s at once.
#   The module before that measured the old period's gaps against the new
#   timeout on the first ticks: deaths and self-fences.
#
#   n1 .. n4 ── br0
source "$(dirname "$0")/../lib.sh"

N=4
cluster_create "$N"
cluster_up 2s 10s
wait_until 30 all_alive || { n 1 ftstat; fail "cluster did not come up"; }
watch_devices 1 2 3 4
sleep 3	# heartbeats 2 s apart by now

fast=$FTD_TMP/fast.conf
sed -e 's/^period = .*/period = 50ms/' -e 's/^timeout = .*/timeout = 1s/' "$FTD_CONF" > "$fast"
chmod 600 "$fast"
pids=()
for ((i = 1; i <= N; i++)); do
	n "$i" ftctl apply "$fast" > /dev/null & pids+=($!)
done
for p in "${pids[@]}"; do
	wait "$p" || fail "ftctl apply of the faster timing failed"
done
for ((i = 1; i <= N; i++)); do
	[ "$(n "$i" ftctl show -j | jq '.timeout_ns')" = 1000000000 ] ||
		fail "node $i does not run at the new timeout"
done
log "every node at 50 ms / 1 s (was 2 s / 10 s)"

sleep 5	# five new timeouts
for ((i = 1; i <= N; i++)); do
	if grep -qE '"event":"(NODE_DEAD|FENCED)"' "$FTD_TMP/dev.$i"; then
		cat "$FTD_TMP/dev.$i"
		fail "node $i: a death or a fence after the timing got shorter"
	fi
done
# Suspicions may come while the applies run (a node still at 2 s for a
# moment): they are taken back, nobody is declared.
log "suspicions meanwhile: $(cat "$FTD_TMP"/dev.* | grep -c '"event":"NODE_SUSPECT"' || :)"
all_alive || { n 1 ftstat; fail "not all alive at the new timing"; }
rx0=$(n 1 ftstat -j | jq '[.nodes[] | select(.id == 4) | .rx] | .[0]')
sleep 1
rx1=$(n 1 ftstat -j | jq '[.nodes[] | select(.id == 4) | .rx] | .[0]')
log "node 1 hears node 4 $((rx1 - rx0)) times a second now"
[ $((rx1 - rx0)) -ge 5 ] || fail "node 1 hears node 4 only $((rx1 - rx0)) times a second at a 50 ms period"
log "ok"
