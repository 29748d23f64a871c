#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rack.sh [NODES [RUN]]: a run of adjacent nodes dies at once (a rack, its
# switch, its power): the observer after the run watches past it
# (kmod/proto/watch.h) and declares the whole run within about 1.5
# timeouts, instead of one timeout per k nodes as the ring heals step by
# step.
#   NODES nodes (10), k = 1, period 10 ms, timeout 400 ms; RUN of them (4,
#   less than half), from node 4 on, cut off together (the last, the
#   nearest to the node after the run, last). That node observes it; it
#   finds node 3 alive past the run and declares the run. Every survivor
#   delivers each death once, the last within 2 timeouts of the end of the
#   cut (healing one node per timeout took RUN timeouts), and no survivor
#   is declared or fenced.
#   The deaths the observer declares in one tick go out together, a
#   frame to each of its fingers, and each survivor forwards what one
#   frame brought in one frame (the uapi's "Batches"): some frame node 1
#   received (AF_PACKET) must carry more than one death of the run.
#   The machine's receive backlog gets room for every node's frames
#   (backlog_per_node): with the default, a run of 16 of 34 lost about
#   1,500 of the burst's notices there, which the repair delivered up to
#   10 s later (docs/detection.md, "A run of deaths").
#
#   n1 .. nNODES ── br0
source "$(dirname "$0")/../lib.sh"

N=${1:-10}
RUN_LEN=${2:-4}
RUN=$(echo $(seq 4 $((3 + RUN_LEN))))
AFTER=$((4 + RUN_LEN))	# the node after the run
SURVIVORS=$(echo $(seq 1 3) $(seq "$AFTER" "$N"))
(( 2 * RUN_LEN < N && AFTER <= N )) || fail "a run of $RUN_LEN of $N nodes from node 4 on: not less than half, or past the last node"
TIMEOUT_MS=$(scaled 400)
FTD_CLUSTER_EXTRA="observers = 1"
backlog_per_node "$N"
cluster_create "$N"
cluster_up "$FTD_TEST_PERIOD" "${TIMEOUT_MS}ms"
wait_until 60 all_alive || { n 1 ftstat; fail "cluster did not come up"; }
watch_devices $SURVIVORS
n 1 ftd-capture -i n1r0 -d in -t 60 > "$FTD_TMP/cap.1" 2> "$FTD_TMP/cap.1.err" &
cap=$!
wait_until 10 grep -q ready "$FTD_TMP/cap.1.err" || fail "ftd-capture did not start on node 1"
sleep 0.5

late0=$(stat_counter "$AFTER" ticks_late)
frames0=$(notice_frames $SURVIVORS)
drops0=$(backlog_drops)
before=$(now_ns)
for j in $RUN; do echo "link set s${j}r0 down"; done | sw ip -batch - || fail "cannot cut the run off"
after=$(now_ns)
log "nodes $RUN cut off in $(( (after - before) / 1000000 )) ms"
# What the run's late timers bought them (docs/detection.md), at any
# survivor: frozen by the cut, it can only be forgotten.
slow=0
for i in $SURVIVORS; do
	s=$(n "$i" ftstat -j | jq --arg run " $RUN " '[.nodes[] | select(.id as $id | $run | contains(" \($id) ")) |
		.slow_ns // 0] | max // 0')
	[ "$s" -gt "$slow" ] && slow=$s
done
[ "$slow" = 0 ] || log "the run's late timers bought it up to $(( slow / 1000000 )) ms more"

# deaths NODE: what NODE delivered, one awk (a process per survivor and
# death would be hundreds per poll for a long run, ~0.15 s each under
# TCG): "DECLARED ONCE LAST_NS BAD", the run's members it declared, those
# declared exactly once, the time of the last first declaration, and the
# survivors it declared plus its FENCED events.
deaths() {
	awk -v run=" $RUN " '
		/"event":"NODE_DEAD"/ && match($0, /"node":[0-9]+/) {
			id = substr($0, RSTART + 7, RLENGTH - 7)
			if (index(run, " " id " ")) {
				# Kept as strings: 19 digits are past what a double holds.
				if (!n[id]++ && match($0, /"time_ns":[0-9]+/)) {
					t = substr($0, RSTART + 10, RLENGTH - 10)
					if (length(t) > length(last) || (length(t) == length(last) && t > last))
						last = t
				}
			} else
				bad++
		}
		/"event":"FENCED"/ { bad++ }
		END {
			for (id in n) { declared++; once += n[id] == 1 }
			printf "%d %d %s %d\n", declared, once, last == "" ? 0 : last, bad
		}' "$FTD_TMP/dev.$1"
}
all_declared() {
	local i d o l b
	for i in $SURVIVORS; do
		read -r d o l b < <(deaths "$i")
		[ "$d" = "$RUN_LEN" ] || return 1
	done
}
# The survivors share this machine's receive backlogs: a notice dropped
# there is lost to its node as on a wire, and comes later by the repair.
dropped() { echo "this machine dropped $(( $(backlog_drops) - drops0 )) received frames since the cut"; }
wait_until 20 all_declared || { n "$AFTER" ftstat; log "$(dropped)"; fail "the run was not declared dead everywhere"; }
sleep 1
log "$(dropped)"
log "node $AFTER, ms after the cut: $(jq -r --argjson t "$after" --argjson a "$AFTER" 'select(.node >= 3 and .node <= $a) |
	"\(.event) \(.node) by \(.origin) at \((.time_ns - $t) / 1000000 | floor)"' \
	"$FTD_TMP/dev.$AFTER" | tr '\n' ',')"
log "node $AFTER: $(( $(stat_counter "$AFTER" ticks_late) - late0 )) late ticks meanwhile"
notice_cost "$frames0" "$RUN_LEN" $SURVIVORS
kill -TERM "$cap" 2> /dev/null || true
wait "$cap" || true
# Per frame node 1 received: how many deaths of the run it carried (DEAD: 1).
# shellcheck disable=SC2016  # a jq filter: $id and $run are jq's
run_deaths='inputs | fromjson? | select(.type == 2) | [.notices[] |
	select(.kind == 1 and (.subject as $id | $run | contains(" \($id) ")))] | length'
per_frame=$(jq -nrR --arg run " $RUN " "$run_deaths | select(. > 0)" "$FTD_TMP/cap.1" |
	sort -n | uniq -c | awk '{ printf "%s%d frame(s) of %d", s, $1, $2; s = ", " }')
log "node 1 received the run's deaths in: ${per_frame:-no frame}"
most=$(jq -nR --arg run " $RUN " "[$run_deaths] | max // 0" "$FTD_TMP/cap.1")
[ "$most" -gt 1 ] || fail "node 1 got the run's deaths one a frame (${per_frame:-none}): nothing batched"
latest=0
for i in $SURVIVORS; do
	read -r d o last b < <(deaths "$i")
	[ "$o" = "$RUN_LEN" ] ||
		{ grep NODE_DEAD "$FTD_TMP/dev.$i" || true; fail "node $i: $o of the $RUN_LEN deaths delivered exactly once"; }
	[ "$b" = 0 ] ||
		{ grep 'NODE_DEAD\|FENCED' "$FTD_TMP/dev.$i" || true; fail "node $i declared a survivor dead or was fenced"; }
	log "node $i: the last of the run declared $(( (last - after) / 1000000 )) ms after the cut"
	[ "$last" -gt "$latest" ] && latest=$last
done
(( latest - after <= TIMEOUT_MS * 2 * 1000000 + slow )) ||
	fail "the run took $(( (latest - after) / 1000000 )) ms after the cut, more than 2 timeouts (+ $(( slow / 1000000 )) ms of slowness)"
log "ok"
