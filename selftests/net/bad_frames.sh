#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bad_frames.sh: malformed, foreign and forged frames aimed at the heartbeat
# port are dropped and counted, and change no state: no event, the peer
# stays alive, nothing is learnt from them.
#
#   n1 ──┐
#   n2 ──┤ br0
#   n3 ──┘  n3 is not a member: an intruder at 192.0.2.3
source "$(dirname "$0")/../lib.sh"

KEY=000102030405060708090a0b0c0d0e0f
cluster_create 3
FTD_NODES=2 cluster_config "$FTD_TMP/c.conf" "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT" 4
n 1 ftctl apply "$FTD_TMP/c.conf" >/dev/null
n 2 ftctl apply "$FTD_TMP/c.conf" >/dev/null
FTD_NODES=2
wait_until 30 all_alive || fail "cluster did not come up"
watch_events 1
late0=$(stat_counter 1 ticks_late)

stat() { n 1 ftctl stats -j | jq -r ".$1"; }
# inject FROM_NODE KIND EXPECT_COUNTER [ftd-inject options]
inject() {
	local from=$1 kind=$2 counter=$3; shift 3
	local before after
	before=$(stat "$counter")
	n "$from" ftd-inject -t 192.0.2.1 -k "$kind" -c 42 -s 2 -K "$KEY" -n 5 "$@"
	wait_until 5 test "$(stat "$counter")" -ge $((before + 5)) ||
		fail "$kind from node $from: $counter did not grow by 5 (was $before, now $(stat "$counter"))"
	log "$kind from node $from: dropped, counted in $counter"
}

for kind in short badmagic badversion badlength badflags badtype payload; do
	inject 2 "$kind" rx_malformed
done
inject 2 badmac rx_badmac
inject 2 valid rx_badmac -K ffffffffffffffffffffffffffffffff	# wrong key
# ...and ftstat says which member's address they came from.
badmac2=$(n 1 ftstat -j | jq '.nodes[] | select(.id == 2) | .rx_badmac')
[ "$badmac2" -ge 10 ] || fail "ftstat shows $badmac2 bad MACs from node 2, 10 were sent"
log "ftstat: node 2 rx_badmac $badmac2"
inject 2 valid rx_foreign -c 43					# other cluster
inject 3 valid rx_foreign					# member id, wrong source
inject 2 valid rx_foreign -s 9					# unknown sender
inject 2 valid rx_foreign -s 1					# our own id
inject 2 valid rx_replay -R 3					# for node 3, not us

# A flood of junk is cheap to drop and does not disturb detection.
n 3 ftd-inject -t 192.0.2.1 -k badmagic -n 20000
sleep 0.5
[ "$(node_state 1 2)" = alive ] || fail "node 2 no longer alive after the junk"
# Processing the flood may starve node 1's own timer under emulation: a
# suspicion taken back then is by design (quiet_since), anything else fails.
quiet_since "$FTD_TMP/dev.1" 1 "$late0" "bad frames"
n 1 ftctl stats
log "ok"
