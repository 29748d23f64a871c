#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# status.sh: each node's mmap'd status table, read through libftdetect
# (ftd-status, no system call per read), says what that node's event stream
# (ftd-devwatch) said and what its netlink dump (ftstat) says:
#   1. the cluster is up: every table has every node alive, itself self,
#      like ftstat
#   2. ranks 1:5, 1:6, 1:7 register on nodes 2, 3, 4: alive in every table
#      (no event says so: the table is where an MPI runtime sees it)
#   3. kill -9 of rank 5: dead in every table, cause PROC_DEAD, with the seq
#      of that node's PROC_DEAD event
#   4. rank 1:8 registers on node 3 and deregisters: exited, cause PROC_EXIT
#   5. node 4 is cut off with rank 7: nodes 1..3 have node 4 dead and rank 7
#      dead (RANKS_DEAD), each with the seq of its event
#   6. on every node, node 4 included: for each node and rank, the last event
#      the node recorded is what its table holds, and the table's event_seq
#      is the last event it read
#   7. rank 7 is killed, node 4 is reconnected: it was fenced while cut off
#      (a timeout of hearing nobody; its table counts it, with its new
#      incarnation) and rejoins: the others' tables have it alive at that
#      incarnation; rank 7 stays dead; 6. again
#
#   n1 .. n4 ── br0
source "$(dirname "$0")/../lib.sh"

N=4
cluster_create "$N"
cluster_up "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT"
wait_until 60 all_alive || not_up "cluster did not come up"
watch_devices $(seq 1 "$N")

table() { n "$1" ftd-status; }

# same_as_ftstat NODE: the table's node states and incarnations are ftstat's.
same_as_ftstat() {
	local t s
	t=$(table "$1" | jq -c '[.nodes[] | {id, state, incarnation}]') || return 1
	s=$(n "$1" ftstat -j | jq -c '[.nodes[] | {id, state, incarnation}] | sort_by(.id)') || return 1
	[ "$t" = "$s" ]
}

# rank_in NODE JOB:RANK STATE [CAUSE]: NODE's table has the rank in STATE.
rank_in() {
	local r
	r=$(n "$1" ftd-status -r "$2" 2>/dev/null) || return 1
	jq -e --arg st "$3" --arg c "${4:-}" '.state == $st and ($c == "" or .cause == $c)' \
		<<< "$r" > /dev/null
}
everywhere() { # CMD ARGS...: CMD NODE ARGS... for every node of $NODES
	local i
	for i in $NODES; do "$1" "$i" "${@:2}" || return 1; done
}

# event_seq NODE EVENT FIELD VALUE: seq of NODE's last EVENT with .FIELD == VALUE.
event_seq() {
	jq -r --arg ev "$2" --arg f "$3" --argjson v "$4" \
		'select(.event == $ev and .[$f] == $v) | .seq' "$FTD_TMP/dev.$1" | tail -n1
}

# The fold of a node's event records (jq -s) against its table ($t): for
# each node the state of its last NODE_* event and the seq of its last
# NODE_*/IFACE_* one; for each rank an entry with the state, cause and seq of
# its last end; the table's event_seq is the last record.
AGREES=$(cat <<'EOF'
def node_state: {NODE_ALIVE: "alive", NODE_RESTORED: "alive",
	NODE_SUSPECT: "suspect", NODE_DEAD: "dead", NODE_LEFT: "left"}[.];
def rank_state: {PROC_DEAD: "dead", RANKS_DEAD: "dead", PROC_EXIT: "exited"}[.];
(map(.seq) | max) as $last |
([group_by(.node)[] | map(select(.event | test("^(NODE|IFACE)_"))) |
  select(length > 0) | max_by(.seq) as $e |
  (map(select(.event | startswith("NODE_"))) | max_by(.seq)) as $s |
  $t.nodes[] | select(.id == $e.node) |
  select(.event_seq != $e.seq or
	 ($s != null and .state != "self" and .state != ($s.event | node_state)))] |
 length == 0) and
([map(select(.event | test("^(PROC_DEAD|PROC_EXIT|RANKS_DEAD)$"))) |
  group_by([.job, .rank])[] | max_by(.seq) as $e |
  select([$t.ranks[] | select(.job == $e.job and .rank == $e.rank and
	.event_seq == $e.seq and .cause == $e.event and
	.state == ($e.event | rank_state))] | length == 0)] | length == 0) and
($last == null or $t.event_seq == $last)
EOF
)

# agrees NODE: NODE's table is the fold of the events it recorded (6. above).
agrees() {
	local t
	t=$(table "$1") || return 1
	jq -s -e --argjson t "$t" "$AGREES" "$FTD_TMP/dev.$1" > /dev/null
}
explain() { # NODE: what did not agree
	log "node $1's table:"; table "$1" | jq -c '{event_seq, nodes, ranks}' | sed 's/^/#   /'
	log "node $1's events:"; sed 's/^/#   /' "$FTD_TMP/dev.$1"
}

# start_rank NODE JOB:RANK: a registered process; prints its pid.
start_rank() {
	ip netns exec "$(ns_of "$1")" ftd-devwatch -r "$2" -q > /dev/null 2> "$FTD_TMP/rank.$2.err" &
	wait_until 10 grep -q ready "$FTD_TMP/rank.$2.err" || fail "rank $2 did not register"
	echo $!
}

# --- 1. up
NODES=$(seq 1 "$N")
wait_until 20 everywhere same_as_ftstat || { table 1; n 1 ftstat -j; fail "a table differs from ftstat"; }
for i in $NODES; do
	table "$i" | jq -e --argjson i "$i" '.up and .local_node == $i and .node_count == 4 and
		([.nodes[] | select(.id == $i)][0].state == "self") and
		([.nodes[] | select(.id != $i and .state != "alive")] | length == 0)' > /dev/null ||
		{ table "$i"; fail "node $i: table of a cluster up"; }
done
log "cluster up: every table has the 4 nodes alive (itself self), as ftstat has"

# --- 2. registrations
pid5=$(start_rank 2 1:5)
start_rank 3 1:6 > /dev/null
pid7=$(start_rank 4 1:7)
for r in 1:5 1:6 1:7; do
	wait_until 10 everywhere rank_in "$r" alive || fail "rank $r not alive in every table"
done
table 4 | jq -e '[.ranks[] | select(.rank == 7)][0] | .local and .node == 4' > /dev/null ||
	fail "node 4's table does not hold rank 7 as its own"
log "ranks 5, 6, 7 registered on nodes 2, 3, 4: alive in every table"

# --- 3. kill -9
kill -9 "$pid5"
wait_until 10 everywhere rank_in 1:5 dead PROC_DEAD || fail "rank 5 not dead in every table"
for i in $NODES; do
	seq=$(event_seq "$i" PROC_DEAD rank 5)
	[ -n "$seq" ] || fail "node $i: table says rank 5 is dead, but no PROC_DEAD event"
	n "$i" ftd-status -r 1:5 | jq -e --argjson s "$seq" '.event_seq == $s' > /dev/null ||
		fail "node $i: rank 5's entry is not its PROC_DEAD event (seq $seq)"
done
log "kill -9 of rank 5: dead (PROC_DEAD) in every table, with each node's event seq"

# --- 4. clean exit: ftd-devwatch deregisters when its time runs out
ip netns exec "$(ns_of 3)" ftd-devwatch -r 1:8 -q -t 1 2> /dev/null
wait_until 10 everywhere rank_in 1:8 exited PROC_EXIT || fail "rank 8 not exited in every table"
log "rank 8 deregistered: exited (PROC_EXIT) in every table"

# --- 5. node 4 cut off with rank 7
inc4=$(table 4 | jq .local_incarnation)
cut_node 4 > /dev/null
NODES="1 2 3"
node4_dead() {
	n "$1" ftd-status -n 4 | jq -e '.state == "dead"' > /dev/null &&
		rank_in "$1" 1:7 dead RANKS_DEAD
}
wait_until 20 everywhere node4_dead || { table 1; fail "node 4 and rank 7 not dead in the tables of 1..3"; }
for i in $NODES; do
	s_node=$(event_seq "$i" NODE_DEAD node 4)
	s_rank=$(event_seq "$i" RANKS_DEAD rank 7)
	[ -n "$s_node" ] && [ -n "$s_rank" ] || fail "node $i: no NODE_DEAD 4 or RANKS_DEAD 7 event"
	n "$i" ftd-status -n 4 | jq -e --argjson s "$s_node" '.event_seq == $s' > /dev/null ||
		fail "node $i: node 4's entry is not its NODE_DEAD event"
	n "$i" ftd-status -r 1:7 | jq -e --argjson s "$s_rank" '.event_seq == $s' > /dev/null ||
		fail "node $i: rank 7's entry is not its RANKS_DEAD event"
done
log "node 4 cut off: node 4 dead, rank 7 dead (RANKS_DEAD) in the tables of 1..3, with their events' seqs"

# --- 6. each table is the fold of its node's events
sleep 0.5
NODES=$(seq 1 "$N")
for i in $NODES; do
	wait_until 10 agrees "$i" || { explain "$i"; fail "node $i: the table does not agree with the events"; }
done
rank_in 4 1:7 alive || fail "node 4 (cut off) no longer holds its own rank 7 alive"
log "every table (the cut-off node's too) is the fold of its node's events, event_seq included"

# --- 7. rank 7 ends, node 4 comes back: fenced, and rejoins
kill -9 "$pid7"
wait_until 10 rank_in 4 1:7 dead PROC_DEAD || fail "node 4: rank 7 not dead"
sw ftd-link s4r0 up > /dev/null
rejoined() {
	local t inc
	t=$(table 4) || return 1
	inc=$(jq .local_incarnation <<< "$t")
	jq -e --argjson old "$inc4" '.fenced >= 1 and .local_incarnation > $old and
		([.nodes[] | select(.id == 4)][0] | .state == "self" and .incarnation > $old)' \
		<<< "$t" > /dev/null || return 1
	for i in 1 2 3; do
		n "$i" ftd-status -n 4 | jq -e --argjson inc "$inc" \
			'.state == "alive" and .incarnation == $inc' > /dev/null || return 1
	done
}
wait_until 30 rejoined || { table 4; table 1; fail "node 4 did not rejoin as the tables tell"; }
NODES="1 2 3"
everywhere rank_in 1:7 dead RANKS_DEAD || {
	for i in 1 2 3; do log "node $i: $(n "$i" ftd-status -r 1:7)"; done
	fail "rank 7 no longer dead by RANKS_DEAD at every node (came back, or reported dead again)"
}
NODES=$(seq 1 "$N")
sleep 0.5
for i in $NODES; do
	wait_until 20 agrees "$i" || { explain "$i"; fail "node $i: after the rejoin, the table does not agree with the events"; }
done
log "node 4 fenced ($(table 4 | jq .fenced)x), rejoined as incarnation $(table 4 | jq .local_incarnation): alive at it in every table; rank 7 stays dead"

# The cost of a read in this guest (the host measures it without emulation).
log "read cost: $(n 1 ftd-status -b -r 1:7 -c 200000)"
log "ok"
