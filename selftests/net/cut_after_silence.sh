#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cut_after_silence.sh: a node cut off from everyone declares nobody, even
# a predecessor it had stopped hearing before the cut. Node 3 observes
# nodes 2 and 1 (k = 2). First node 2's frames to node 3 go nowhere, and
# node 3's own frames go nowhere either (so that no helper can relay node
# 2's answer to it: kmod/proto/relay.h); node 3 still hears node 1. Then,
# 0.7 timeouts later, node 3's switch port goes down: node 3 hears nobody.
# Node 2's silence at node 3 runs out 0.3 timeouts after the cut, before
# "nobody for half a timeout" (the isolation rule) holds, and node 3 used
# to declare node 2 dead then, cut off as it was (in the simulator: 490 of
# 1,000 nodes cut off at 20 % loss, in 115 of 200 seeds). A silence is
# judged only once someone was heard after it ran out
# (ftd_detect_silence_proven, kmod/proto/detect.h): node 3 declares
# nobody, and fences itself by its lease; the others declare node 3.
#
#   n1 ──┐
#   n2 ──┤ br0      n2 -> n3 blackholed, n3 -> anyone blackholed,
#   n3 ──┤          then s3r0 down
#   n4 ──┘
source "$(dirname "$0")/../lib.sh"

N=4
V=3
P=2
# A long timeout, so that the shell's steps land well inside the window
# (half a timeout < gap < a timeout) under emulation too.
PERIOD_MS=$(scaled 50)
TIMEOUT_MS=$(scaled 2000)
GAP_MS=$(( TIMEOUT_MS * 6 / 10 ))	# and ftd-link's start-up, ~0.1 s

cluster_create "$N"
cluster_up "${PERIOD_MS}ms" "${TIMEOUT_MS}ms"
wait_until 30 all_alive || { n 1 ftstat; fail "cluster did not come up"; }
watch_devices $(seq 1 "$N")
sleep 0.5

batch=("route add blackhole $(addr4 0 "$V")/32")
ip -n "$(ns_of "$P")" -batch - <<< "${batch[*]}"
batch=()
for ((i = 1; i <= N; i++)); do
	[ "$i" = "$V" ] || batch+=("route add blackhole $(addr4 0 "$i")/32")
done
printf '%s\n' "${batch[@]}" | ip -n "$(ns_of "$V")" -batch -
silent_from=$(now_ns)
sleep "$(awk -v g="$GAP_MS" 'BEGIN { printf "%.3f", g / 1000 }')"
cut=$(cut_node "$V")
before=$(jq '.before_ns' <<< "$cut")
after=$(jq '.after_ns' <<< "$cut")
gap_ms=$(( (before - silent_from) / 1000000 ))
log "node $P silent at node $V, node $V mute; node $V cut off ${gap_ms} ms later (timeout $TIMEOUT_MS ms)"
# The window the test needs: node $P's silence ends after the cut and before
# half a timeout of hearing nobody. The stamps bracket it.
(( gap_ms > TIMEOUT_MS / 2 + 2 * PERIOD_MS )) ||
	again_or_fail "the cut came ${gap_ms} ms after the silence began: too soon to show anything (half the timeout is $((TIMEOUT_MS / 2)) ms)"
(( (after - silent_from) / 1000000 < TIMEOUT_MS - 2 * PERIOD_MS )) ||
	again_or_fail "the cut ended $(( (after - silent_from) / 1000000 )) ms after the silence began: too late to show anything (timeout $TIMEOUT_MS ms)"

others_know() {
	local i
	for ((i = 1; i <= N; i++)); do
		[ "$i" = "$V" ] || has_event "$FTD_TMP/dev.$i" NODE_DEAD "$V" || return 1
	done
}
wait_until 20 others_know || { n 1 ftstat; fail "node $V, cut off, not declared dead by the others"; }
fenced() { grep -q '"event":"FENCED"' "$FTD_TMP/dev.$V"; }
wait_until 20 fenced || fail "node $V, cut off, did not fence itself"
# Past the point where node $P's silence at node $V ran out by two timeouts.
sleep "$(awk -v t="$TIMEOUT_MS" 'BEGIN { printf "%.3f", 2 * t / 1000 }')"

dead=$(jq -c 'select(.event == "NODE_DEAD")' "$FTD_TMP/dev.$V")
[ -z "$dead" ] || fail "node $V, cut off, declared: $dead
$(kernel_since "$FTD_KERNEL_MARK" | grep 'ftdetect: node '"$V"':' | tail -5)"
for ((i = 1; i <= N; i++)); do
	[ "$i" = "$V" ] && continue
	[ "$(count_events "$FTD_TMP/dev.$i" NODE_DEAD "$V")" = 1 ] || fail "node $i: NODE_DEAD $V not once"
	[ "$(count_events "$FTD_TMP/dev.$i" NODE_DEAD "$P")" = 0 ] || fail "node $i: live node $P declared dead"
done
log "node $V, cut off after node $P fell silent at it, declared nobody and fenced itself; the others declared node $V once"
log ok
