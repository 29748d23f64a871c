#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# outdated_start.sh: a node that comes back below the incarnation the others
# hold it at (its clock behind at boot: a flat RTC battery, NTP not synced
# yet) is told so and rejoins above it, instead of being refused as stale
# for good.
#   3 nodes. Node 3 runs at incarnation I; its namespace goes (the instance
#   with it: a crash) and nodes 1 and 2 declare it dead at I. It is made
#   again and comes up with the clock 100 s back: at about I - 100, below
#   what nodes 1 and 2 hold. They refuse its frames as stale and answer its
#   PROBEs with OUTDATED (docs/trust.md): node 3 fences once (FENCED, origin
#   node 1 or 2) and rejoins above I; nodes 1 and 2 deliver NODE_RESTORED at
#   that incarnation, and everyone is alive. The module before that left
#   node 3 deaf: its PROBEs refused, unanswered, and no lease to end it.
#
#   n1 n2 n3 ── br0
source "$(dirname "$0")/../lib.sh"

cluster_create 3
cluster_up "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT"
wait_until 30 all_alive || { n 1 ftstat; fail "cluster did not come up"; }
watch_devices 1 2
inc1=$(n 3 ftctl show -j | jq '.incarnation')

# The crash: node 3's namespace goes, its instance and links with it.
ip netns del "$(ns_of 3)"
declared() {
	local i
	for i in 1 2; do
		has_event "$FTD_TMP/dev.$i" NODE_DEAD 3 incarnation "$inc1" || return 1
	done
}
wait_until 20 declared || { n 1 ftstat; fail "node 3 ($inc1) not declared dead at nodes 1 and 2"; }

# The node again, its wiring as cluster_create made it.
ip netns add "$(ns_of 3)"
ip link add n3r0 netns "$(ns_of 3)" type veth peer s3r0 netns "$(sw_ns)"
n 3 sysctl -qw net.ipv6.conf.all.accept_dad=0 net.ipv6.conf.default.accept_dad=0
ip -n "$(ns_of 3)" -batch - <<- EOF
	link set lo up
	addr add $(addr4 0 3)/24 dev n3r0
	link set n3r0 up
EOF
sw ip link set s3r0 master br0 up
wait_until 10 links_up "$(ns_of 3)" || fail "node 3's link did not come up"

# Up with the clock 100 s behind, which is put right at once: the
# incarnation is taken from it at up, nothing else here reads it.
read -r up0 _ < /proc/uptime
real0=$EPOCHREALTIME
date -s "@$((inc1 - 100))" > /dev/null || fail "cannot set the clock"
rc=0
n 3 ftctl apply "$FTD_CONF" > /dev/null || rc=$?
read -r up1 _ < /proc/uptime
date -s "@$(awk -v r="$real0" -v a="$up0" -v b="$up1" 'BEGIN { printf "%.6f", r + b - a }')" > /dev/null
[ "$rc" = 0 ] || fail "node 3: apply failed"

# The answer may come before `ftctl show` could say where node 3 came up:
# its fence says it (the only fence of node 3 in this test).
inc_now() { n 3 ftctl show -j | jq '.incarnation'; }
above() { [ "$(inc_now)" -gt "$inc1" ]; }
wait_until 20 above || { n 3 ftstat; n 1 ftctl stats; fail "node 3 still at $(inc_now), below $inc1"; }
inc3=$(inc_now)
said=$(dmesg | grep "node 3: node [12] holds it at incarnation $inc1, above its own ") ||
	fail "node 3 did not say why it fenced"
[ "$(wc -l <<< "$said")" = 1 ] || fail "node 3 fenced more than once for being outdated: $said"
inc2=$(sed -n 's/.*above its own \([0-9]*\).*/\1/p' <<< "$said")
[ "$inc2" -lt "$inc1" ] || fail "node 3 came up at $inc2, not below $inc1: the case is not the one tested"
log "node 3 came up at incarnation $inc2, below the $inc1 nodes 1 and 2 hold it at"
restored() {
	local i
	for i in 1 2; do
		has_event "$FTD_TMP/dev.$i" NODE_RESTORED 3 incarnation "$inc3" || return 1
	done
}
wait_until 20 restored || { n 1 ftstat; cat "$FTD_TMP/dev.1"; fail "nodes 1 and 2 did not see node 3 back at $inc3"; }
wait_until 20 all_alive || { n 1 ftstat; n 3 ftstat; fail "not all alive after node 3 rejoined"; }
for i in 1 2; do
	c=$(count_events "$FTD_TMP/dev.$i" NODE_DEAD 3)
	[ "$c" = 1 ] || fail "node $i: NODE_DEAD of node 3 $c times, not once (at $inc1)"
	grep -q FENCED "$FTD_TMP/dev.$i" && fail "node $i was fenced"
done
log "node 3 told it was outdated: rejoined at $inc3 (above $inc1); NODE_RESTORED at nodes 1 and 2"
log "ok"
