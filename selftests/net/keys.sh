#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# keys.sh: a running cluster changes its key without a false suspicion,
# and a node with a key nobody holds shows as such.
#
#   n1..n5 ── br0
#
# 1. Up under key A; ftctl show names it by its id (ftctl keyid), never
#    the key itself.
# 2. The three rounds of ftdetect.conf(5), KEYS, each applied node by node
#    with heartbeats flowing: accept B; send with B and accept A; B alone
#    (from a keyfile, as an admin would keep it). Meanwhile not one frame
#    is refused (rx_badmac stays 0 at every node) and no node changes state
#    (quiet_since), and a node between the rounds shows which key each
#    peer uses.
# 3. A skipped round: node 5 sends with key C that nobody accepts. The
#    others refuse its frames, count them against it, and ftstat says
#    "bad key" rather than just "left"; with B again it is alive again.
source "$(dirname "$0")/../lib.sh"

KEY_A=000102030405060708090a0b0c0d0e0f	# cluster_config's
KEY_B=$(ftctl genkey)
KEY_C=$(ftctl genkey)
[[ $KEY_B =~ ^[0-9a-f]{32}$ && $KEY_B != "$KEY_C" ]] || fail "ftctl genkey printed '$KEY_B', '$KEY_C'"
ID_A=$(ftctl keyid <<< "$KEY_A")
ID_B=$(ftctl keyid <<< "$KEY_B")
ID_C=$(ftctl keyid <<< "$KEY_C")
log "keys: A $ID_A, B $ID_B, C $ID_C (ids)"

cluster_create 5
cluster_up "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT"
wait_until 30 all_alive || fail "the cluster did not come up"
watch_devices 1 2 3 4 5

show_keys() { n "$1" ftctl show -j | jq -c '[.key_id, .accepted_key_ids]'; }
[ "$(show_keys 1)" = "[\"$ID_A\",[]]" ] || fail "node 1 shows keys $(show_keys 1), not [$ID_A,[]]"
n 1 ftctl show | grep -qx "key          $ID_A" || fail "ftctl show does not name key A: $(n 1 ftctl show)"
! n 1 ftctl show -j | grep -q "$KEY_A" || fail "ftctl show prints the key itself"

late0=()
late_baseline 1 2 3 4 5
for i in 1 2 3 4 5; do
	late0[i]=$(stat_counter "$i" ticks_late)
	[ "$(stat_counter "$i" rx_badmac)" = 0 ] || fail "node $i refused frames before the change"
done

# conf NAME KEYLINES...: the cluster's file with these key lines instead.
conf() {
	local f=$FTD_TMP/$1.conf; shift
	{ sed '/^key = /d; /^\[nodes\]/,$d' "$FTD_CONF"; printf '%s\n' "$@"; sed -n '/^\[nodes\]/,$p' "$FTD_CONF"; } > "$f"
	chmod 600 "$f"
	echo "$f"
}
r1=$(conf round1 "key = $KEY_A" "accept_key = $KEY_B")
r2=$(conf round2 "key = $KEY_B" "accept_key = $KEY_A")
printf '# the cluster key, since the change\n%s\n' "$KEY_B" > "$FTD_TMP/cluster.key"
chmod 600 "$FTD_TMP/cluster.key"
r3=$(conf round3 "keyfile = cluster.key")

# round FILE: every node applies it, one after the other, frames flowing.
round() {
	local i
	for i in 1 2 3 4 5; do
		n "$i" ftctl apply "$1" > /dev/null || fail "node $i: ftctl apply $1 failed"
		sleep "$(awk -v p="$FTD_TEST_PERIOD" 'BEGIN { print 3 * p / 1000 }')"
	done
}
# peer_key OBSERVER NODE: the id of the key NODE's frames use, at OBSERVER.
peer_key() { n "$1" ftstat -j | jq -r --argjson id "$2" '.nodes[] | select(.id == $id) | .key_id'; }

round "$r1"
[ "$(show_keys 3)" = "[\"$ID_A\",[\"$ID_B\"]]" ] || fail "after round 1 node 3 shows $(show_keys 3)"
# Round 2 half done: nodes 1-2 send with B, nodes 3-5 with A, all accepted.
# Heartbeats go to a node's k = 2 successors in the ring: node 3 hears node
# 1 (which switched), node 1 hears node 5 (which did not).
n 1 ftctl apply "$r2" > /dev/null
n 2 ftctl apply "$r2" > /dev/null
wait_until 10 test "$(peer_key 3 1)" = "$ID_B" || fail "node 3 sees node 1 use $(peer_key 3 1), not B"
[ "$(peer_key 1 5)" = "$ID_A" ] || fail "node 1 sees node 5 use $(peer_key 1 5), not A"
log "round 2 half done: node 3 sees node 1 use B ($ID_B), node 1 sees node 5 use A ($ID_A)"
round "$r2"
round "$r3"
[ "$(show_keys 4)" = "[\"$ID_B\",[]]" ] || fail "after round 3 node 4 shows $(show_keys 4)"
sleep "$(awk -v t="$FTD_TEST_TIMEOUT" 'BEGIN { print 2 * t / 1000 }')"	# any silence would show by now

timeout_ns=$(n 1 ftctl show -j | jq .timeout_ns)
heard_b=0
for i in 1 2 3 4 5; do
	bad=$(stat_counter "$i" rx_badmac)
	[ "$bad" = 0 ] || { n "$i" ftstat; fail "node $i refused $bad frames for their MAC during the change"; }
	quiet_since "$FTD_TMP/dev.$i" "$i" "${late0[i]}" "node $i during the key change"
	# Whoever heard a node lately (its observers: heartbeats go to k
	# successors only) heard it under B.
	stale=$(n "$i" ftstat -j | jq -c --arg b "$ID_B" --argjson t "$timeout_ns" \
		'[.nodes[] | select(.age_ns != null and .age_ns < 2 * $t and .key_id != $b) | .id]')
	[ "$stale" = "[]" ] || fail "node $i heard nodes $stale lately under a key other than B"
	heard_b=$((heard_b + $(n "$i" ftstat -j | jq --arg b "$ID_B" '[.nodes[] | select(.key_id == $b)] | length')))
done
[ "$heard_b" -ge 5 ] || fail "only $heard_b (observer, node) pairs heard under key B"
all_alive || { n 1 ftstat; fail "not every node alive after the key change"; }
log "key changed in 3 rounds at 5 nodes: 0 frames refused, no state change"

# 3. A node that skipped the rounds.
events_archive 1 2 3 4 5
c=$(conf wrong "key = $KEY_C")
n 5 ftctl apply "$c" > /dev/null
# Its observers (the nodes it sends heartbeats to) refuse them.
bad_key_at() { # OBSERVER: whether it shows node 5 under a bad key
	[ "$(n "$1" ftstat -j | jq '.nodes[] | select(.id == 5) | .bad_key')" = true ]
}
some_observer() { for o in 1 2 3 4; do bad_key_at "$o" && return 0; done; return 1; }
wait_until 20 some_observer || { n 1 ftstat -j; fail "no node shows node 5's frames as under a bad key"; }
n "$o" ftstat | grep -E '^5 .*\(bad key\)' > /dev/null || fail "ftstat's table does not say bad key: $(n "$o" ftstat)"
bad=$(n "$o" ftstat -j | jq '.nodes[] | select(.id == 5) | .rx_badmac')
[ "$bad" -gt 0 ] || fail "node $o counted no bad MAC from node 5"
log "node 5 under key C: node $o refused $bad of its frames and shows: $(n "$o" ftstat | grep -E '^5 ')"
# The same for Prometheus (node_exporter's textfile collector reads the file).
n "$o" ftstat --prometheus --output "$FTD_TMP/ftdetect.prom" ||
	fail "ftstat --prometheus --output failed"
grep -qx 'ftdetect_node_bad_key{node="5"} 1' "$FTD_TMP/ftdetect.prom" ||
	fail "no ftdetect_node_bad_key for node 5: $(grep bad_key "$FTD_TMP/ftdetect.prom")"
grep -qx "ftdetect_node_frames_refused_total{node=\"5\",reason=\"badmac\"} [1-9][0-9]*" \
	"$FTD_TMP/ftdetect.prom" || fail "no refused frames of node 5 in the metrics"
grep -q "^ftdetect_info{cluster=\"42\",node=\"$o\",key_id=\"$ID_B\"} 1\$" "$FTD_TMP/ftdetect.prom" ||
	fail "ftdetect_info does not name cluster 42, node $o, key B: $(grep ftdetect_info "$FTD_TMP/ftdetect.prom")"
[ "$(stat -c %a "$FTD_TMP/ftdetect.prom")" = 644 ] && ! ls "$FTD_TMP"/ftdetect.prom.* 2> /dev/null ||
	fail "the metrics file is not 0644 or a temporary file was left"
log "ftstat --prometheus: $(grep -c '^ftdetect_' "$FTD_TMP/ftdetect.prom") samples, node 5 flagged bad_key"
n 5 ftctl apply "$r3" > /dev/null
wait_until 30 all_alive || { n 1 ftstat; fail "node 5 is not alive again under key B"; }
# An accepted frame ends the spell: no bad key shown any more.
wait_until 10 eval '! bad_key_at "$o"' || fail "node $o still shows node 5 under a bad key"
log "ok"
