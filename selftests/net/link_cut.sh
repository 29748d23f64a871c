#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# link_cut.sh: a broken link between two live nodes is no death. Node 2
# observes node 1; the link between them is cut both ways (a blackhole
# route on each side), while both still reach everyone else. Node 2 hears
# nothing from node 1 and suspects it, but the members it asks to probe
# node 1 for it (PROBE_REQ, kmod/proto/relay.h) hear it and relay its
# answer: for 30 timeouts nobody declares anybody dead and nobody fences.
# Then node 1 is cut off from everyone for real: every other node declares
# it dead, once, as without the cut link (indirect probes never refute a
# real death).
#
#   n1 .. n6 ── br0 (k = 2: node 1 is observed by nodes 2 and 3)
source "$(dirname "$0")/../lib.sh"

N=6
timeout_ms=${FTD_TEST_TIMEOUT%ms}
[[ $timeout_ms =~ ^[0-9]+$ ]] || fail "FTD_TEST_TIMEOUT must be in ms here, not $FTD_TEST_TIMEOUT"
cluster_create "$N"
cluster_up "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT"
wait_until 30 all_alive || { n 1 ftstat; fail "cluster did not come up"; }
watch_devices $(seq 1 "$N")

# Both ways: each side's frames to the other go nowhere.
n 1 ip route add blackhole "$(addr4 0 2)/32"
n 2 ip route add blackhole "$(addr4 0 1)/32"
log "link 1-2 cut both ways; waiting 30 timeouts"
sleep "$(awk -v t="$timeout_ms" 'BEGIN { printf "%.3f", 30 * t / 1000 }')"

relays_heard=$(stat_counter 2 relays_heard)
relays_asked=$(stat_counter 2 relays_asked)
for ((i = 1; i <= N; i++)); do
	dead=$(count_events "$FTD_TMP/dev.$i" NODE_DEAD 1)
	[ "$dead" = 0 ] || fail "node $i: NODE_DEAD of live node 1 ($dead times) with only the link 1-2 cut (node 2: relays asked $relays_asked, heard $relays_heard)"
	fenced=$(grep -c '"event":"FENCED"' "$FTD_TMP/dev.$i" || true)
	[ "$fenced" = 0 ] || fail "node $i fenced itself $fenced times with only the link 1-2 cut"
done
[[ $relays_heard =~ ^[0-9]+$ ]] || fail "node 2: the module reports no relays_heard"
[ "$(count_events "$FTD_TMP/dev.2" NODE_SUSPECT 1)" -ge 1 ] ||
	fail "node 2 never suspected node 1: the link was not cut (relays heard $relays_heard)"
[ "$relays_heard" -ge 1 ] || fail "node 2 suspected node 1 and kept it alive, but heard no relay"
log "no NODE_DEAD, no FENCED; node 2 asked $relays_asked times, heard node 1 through others $relays_heard times"

# A real death is still declared, everywhere, once.
cut_node 1 > /dev/null
all_know() {
	local i
	for ((i = 2; i <= N; i++)); do
		has_event "$FTD_TMP/dev.$i" NODE_DEAD 1 || return 1
	done
}
wait_until 20 all_know || fail "node 1, cut off, not declared dead everywhere"
for ((i = 2; i <= N; i++)); do
	[ "$(count_events "$FTD_TMP/dev.$i" NODE_DEAD 1)" = 1 ] || fail "node $i: NODE_DEAD 1 not once"
	c=$(jq -c 'select(.event == "NODE_DEAD" and .node != 1)' "$FTD_TMP/dev.$i" | wc -l)
	[ "$c" = 0 ] || fail "node $i declared $c others dead"
done
log "node 1 cut off: declared dead once at every other node"
