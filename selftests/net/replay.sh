#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# replay.sh: an attacker on the wire, without the key, records every frame
# node 1 receives while the cluster lives through events (a rank registers
# and is killed on node 2, node 3 is cut off, voted on, declared dead and
# fenced, then rejoins, and so does node 2), and later sends every one of them again, byte for
# byte, from each sender's own address. Nothing may change: no event at
# node 1, no view sent for a replayed SYNC, every replay counted (rx_replay
# or rx_stale, per sender in ftstat). The same after node 1 restarts its
# instance (it keeps what its peers proved), and after node 2 is removed
# and added back (nothing proven: refused as unproven until the real node 2
# answers a PROBE).
#
#   n1 --+
#   n2 --+-- br0 (sw)     observers = 2, quorum = 2
#   n3 --+
#   n4 --+
source "$(dirname "$0")/../lib.sh"

cluster_create 4
# Recording from before the start: PROBEs, their answers and the first
# SYNCs are sent while the cluster comes up.
cap=$FTD_TMP/captured
n 1 ftd-replay record -i n1r0 -o "$cap" -t 300 > "$FTD_TMP/kept" 2> "$FTD_TMP/rec.err" &
wait_until 10 grep -q ready "$FTD_TMP/rec.err" || fail "ftd-replay did not start"
rec=$(pgrep -f "ftd-replay record -i n1r0")
FTD_CLUSTER_EXTRA="observers = 2
quorum = 2"
cluster_up "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT"
wait_until 30 all_alive || fail "the cluster did not come up"

# Events to capture: PROC_REG, PROC_DEAD; SUSPECT votes, DEAD; the fenced
# node's ALIVE, views and SYNCs; PROBEs and their answers.
watch_events 1
# Not through n(): $! must be the registered process, not a subshell.
ip netns exec "$(ns_of 2)" ftd-devwatch -r 5:0 -q > /dev/null 2> "$FTD_TMP/rank.err" &
rank=$!
wait_until 10 grep -q ready "$FTD_TMP/rank.err" || fail "the rank did not register"
sleep 0.5
kill -9 "$rank"
wait_until 10 has_event "$FTD_TMP/dev.1" PROC_DEAD 2 || fail "no PROC_DEAD for the killed rank"
# Node 3, whose judges (its successors) are nodes 4 and 1: node 1 receives
# node 4's vote (SUSPECT).
cut_node 3 > /dev/null
wait_until 10 has_event "$FTD_TMP/dev.1" NODE_DEAD 3 || fail "node 3 was not declared dead"
sw ftd-link s3r0 up > /dev/null
wait_until 20 has_event "$FTD_TMP/dev.1" NODE_RESTORED 3 || fail "node 3 did not come back"
wait_until 20 all_alive || fail "the cluster did not settle after node 3 came back"
# Node 1 judged node 3: when it concluded first, it declared, and nobody
# sends the declarer a DEAD (a clean-clone CI run captured none). Node 2,
# judged by nodes 3 and 4, has node 1 among its predecessors, whom the
# declarer tells straight away: a DEAD frame at node 1 whoever concludes.
cut_node 2 > /dev/null
wait_until 10 has_event "$FTD_TMP/dev.1" NODE_DEAD 2 || fail "node 2 was not declared dead"
sw ftd-link s2r0 up > /dev/null
wait_until 20 has_event "$FTD_TMP/dev.1" NODE_RESTORED 2 || fail "node 2 did not come back"
wait_until 20 all_alive || fail "the cluster did not settle after node 2 came back"
kill -TERM "$rec"
wait_until 10 test -s "$FTD_TMP/kept" || fail "ftd-replay did not stop"
[ "$(cat "$FTD_TMP/kept")" -gt 0 ] || fail "nothing captured"
kinds=$(ftd-replay kinds -f "$cap")
log "captured $(cat "$FTD_TMP/kept") frames at node 1: $kinds"
for want in notice1 notice4 notice5 notice7 notice10 notice11 notice12; do
	[[ " $kinds " == *" $want="* ]] ||
		fail "the capture lacks $want (1 DEAD, 4 PROC_REG, 5 PROC_DEAD, 7 SYNC, 10 SUSPECT, 11 PROBE, 12 PROBE_ACK)"
done

refused() { # the frames node 1 refused as replayed or stale so far
	n 1 ftctl stats -j | jq '.rx_replay + .rx_stale + .rx_unproven'
}

# replay_all WHAT: send everything captured again, from each sender's
# address, and check that nothing changed at node 1.
replay_all() {
	local what=$1 before after sent=0 s late0 ntx0 ntx capout views
	: > "$FTD_TMP/dev.1"
	# What node 1 sends meanwhile: its own notices go on (DIGESTs, PROBEs).
	n 1 ftd-capture -i n1r0 -d out -s 1 -t 600 > "$FTD_TMP/out.1" 2> "$FTD_TMP/out.1.err" &
	capout=$!
	wait_until 10 grep -q ready "$FTD_TMP/out.1.err" || fail "ftd-capture did not start on node 1"
	late0=$(stat_counter 1 ticks_late)
	ntx0=$(stat_counter 1 notices_tx)
	before=$(refused)
	for s in 2 3 4; do
		# PROBEs are answered, whoever sent them (an answer changes
		# nothing and is rate-limited): not counted as refused.
		sent=$((sent + $(n "$s" ftd-replay send -f "$cap" -d 192.0.2.1 -s "$s" -x 11)))
	done
	sleep 1
	after=$(refused)
	ntx=$(( $(stat_counter 1 notices_tx) - ntx0 ))
	kill -TERM "$capout"
	wait "$capout" || true
	# (the capture was stopped mid-line perhaps: whole lines only)
	log "$what: $sent frames replayed; node 1 refused $((after - before)) (rx_replay+rx_stale+rx_unproven), sent $ntx notices:" \
		"$(jq -nrR 'inputs | fromjson? | select(.type == 2) | .notices[] | "notice\(.kind)"' "$FTD_TMP/out.1" |
			sort | uniq -c | tr -s ' \n' ' ')"
	[ $((after - before)) -ge "$sent" ] ||
		{ n 1 ftctl stats; fail "$what: only $((after - before)) of $sent replayed frames refused"; }
	quiet_since "$FTD_TMP/dev.1" 1 "$late0" "$what"
	# A replayed SYNC used to make node 1 send its whole view each time:
	# a notice per node it knows (DEAD 1, LEFT 2, ALIVE 3) and per rank
	# (PROC_REG 4). Nothing in this window calls for any of them.
	views=$(jq -nR '[inputs | fromjson? | select(.type == 2) | .notices[] |
		select(.kind >= 1 and .kind <= 4)] | length' "$FTD_TMP/out.1")
	[ "$views" = 0 ] || fail "$what: node 1 sent $views view notices (a view for a replayed SYNC?)"
	all_alive || { n 1 ftstat; fail "$what: the cluster is no longer all alive"; }
}

replay_all "replay"
n 1 ftstat -j | jq -e '[.nodes[] | select(.id == 2) | .rx_replay + .rx_stale] | .[0] > 0' > /dev/null ||
	fail "ftstat does not say that node 2's frames were refused"

# Node 1 restarts its instance: what its peers proved survives.
n 1 ftctl down > /dev/null
n 1 ftctl apply "$FTD_CONF" > /dev/null
wait_until 20 all_alive || fail "the cluster did not settle after node 1 restarted"
replay_all "replay after a restart of node 1"

# Node 2 removed and added back: node 1 knows nothing of it. Its old frames
# are refused until the real node 2 proves its incarnation.
grep -v '^2 ' "$FTD_CONF" > "$FTD_TMP/without2.conf"
chmod 600 "$FTD_TMP/without2.conf"
n 1 ftctl apply "$FTD_TMP/without2.conf" > /dev/null
n 1 ftctl apply "$FTD_CONF" > /dev/null
before=$(n 1 ftstat -j | jq '.nodes[] | select(.id == 2) | .rx_unproven + .rx_stale + .rx_replay')
sent=$(n 2 ftd-replay send -f "$cap" -d 192.0.2.1 -s 2 -x 11)
log "node 2 re-added at node 1: $sent of its old frames replayed at once"
wait_until 20 all_alive || fail "the cluster did not settle after node 2 was re-added"
after=$(n 1 ftstat -j | jq '.nodes[] | select(.id == 2) | .rx_unproven + .rx_stale + .rx_replay')
proven=$(n 1 ftstat -j | jq '.nodes[] | select(.id == 2) | .proven_incarnation')
inc=$(n 1 ftstat -j | jq '.nodes[] | select(.id == 2) | .incarnation')
log "node 1 refused $((after - before)) of them; node 2 proved incarnation $proven (its own: $inc)"
[ "$proven" = "$inc" ] || fail "node 1 holds node 2 at incarnation $inc but node 2 proved $proven"
[ $((after - before)) -ge "$sent" ] || fail "node 1 accepted $((sent - (after - before))) old frames of node 2"
log "ok"
