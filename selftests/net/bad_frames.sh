#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bad_frames.sh: malformed, foreign and forged frames aimed at the heartbeat
# port are dropped and counted, and change no state: no event, the peer
# stays alive, nothing is learnt from them. A frame of several notices is
# whole or nothing: a member's batch that carries a control notice beside
# a death (signed, fresh) is malformed, and the death in it is not
# applied; the same batch without it is taken, notice by notice.
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

# Batches, from node 2 itself: its key, address and incarnation, and a
# notice seq far ahead of its own (its later notices to node 1 fall
# behind the window then: refused as replays, which changes nothing here).
inc2=$(n 2 ftctl show -j | jq '.incarnation')
[ -n "$inc2" ] || fail "no incarnation of node 2"
seq=$((1 << 40))
batch() { n 2 ftd-inject -t 192.0.2.1 -R 1 -c 42 -s 2 -i "$inc2" -K "$KEY" "$@"; }
mal0=$(stat rx_malformed)
# Its own death and a PROBE in one frame: FTD_NOTICE_DEAD (1) is news, a
# PROBE travels alone.
batch -k badbatch -q "$seq" -V "2:$inc2:2"
wait_until 5 test "$(stat rx_malformed)" -gt "$mal0" ||
	fail "a batch with a PROBE beside a DEAD was not counted malformed"
[ "$(node_state 1 2)" = alive ] || fail "node 2 is $(node_state 1 2) after a malformed batch declaring it dead"
log "a DEAD beside a PROBE in one frame: malformed as a whole, node 2 still alive"
items0=$(stat notice_items_rx) dup0=$(stat notices_dup)
# Three ALIVE (3) of node 2 as it is: taken one by one, no news.
batch -k batch -N 3 -q $((seq + 1)) -V "2:$inc2:2" -V "2:$inc2:2" -V "2:$inc2:2"
wait_until 5 test "$(stat notice_items_rx)" -ge $((items0 + 3)) ||
	fail "a well-formed batch of 3 was not taken (notice_items_rx $items0 -> $(stat notice_items_rx))"
[ "$(stat notices_dup)" -ge $((dup0 + 3)) ] || fail "the 3 notices of a batch were not each applied (notices_dup $dup0 -> $(stat notices_dup))"
log "three ALIVE in one frame: taken, each no news"

# A flood of junk is cheap to drop and does not disturb detection.
n 3 ftd-inject -t 192.0.2.1 -k badmagic -n 20000
sleep 0.5
[ "$(node_state 1 2)" = alive ] || fail "node 2 no longer alive after the junk"
# Processing the flood may starve node 1's own timer under emulation: a
# suspicion taken back then is by design (quiet_since), anything else fails.
quiet_since "$FTD_TMP/dev.1" 1 "$late0" "bad frames"
n 1 ftctl stats
log "ok"
