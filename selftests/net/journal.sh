#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# journal.sh: ftstat -w --journal logs every event to the systemd journal,
# structured: what node 1 sees while node 2 leaves and rejoins and node 3
# is cut off is in the journal, each event once (the same seq numbers as
# ftstat -w -j beside it), with its fields (FTD_EVENT, FTD_NODE, ...), a
# priority by meaning and a text MESSAGE; journalctl finds a death by its
# fields. journald runs on its own here (no systemd as PID 1: it makes its
# sockets itself, volatile storage under /run/log/journal). The rate limit
# is tested on the host (test_journal).
#
#   n1 (ftstat -w -J, ftstat -w -j)   n2 (leaves, rejoins)   n3 (cut) ── br0
source "$(dirname "$0")/../lib.sh"

journald=/lib/systemd/systemd-journald
[ -x "$journald" ] && command -v journalctl > /dev/null ||
	skip "no systemd-journald or journalctl (package systemd)"
socket=/run/systemd/journal/socket
[ ! -e "$socket" ] || skip "a journald already runs here (it is not this test's to read)"
mkdir -p /run/systemd/journal /run/log/journal
bg "$journald"
wait_until 20 test -S "$socket" || fail "systemd-journald did not create $socket"
# Entries are read back by their fields: this test's alone.
jq_entries() { journalctl --no-pager -o json SYSLOG_IDENTIFIER=ftstat "$@" 2> /dev/null; }

cluster_create 3
cluster_up "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT"
wait_until 30 all_alive || fail "the cluster did not come up"

bg n 1 ftstat -w -J 2> "$FTD_TMP/journal.err"
bg n 1 ftstat -w -j > "$FTD_TMP/events"
sleep 0.5	# both subscribe before the first event

n 2 ftctl down
wait_until 10 grep -q '"event":"NODE_LEFT"' "$FTD_TMP/events" || fail "no NODE_LEFT"
n 2 ftctl apply "$FTD_CONF" > /dev/null
alive2() { jq -s -e 'any(.[]; .event == "NODE_ALIVE" and .node == 2)' "$FTD_TMP/events" > /dev/null; }
wait_until 10 alive2 || fail "no NODE_ALIVE of node 2 after it rejoined"
cut_node 3
wait_until $(scaled 10) grep -q '"event":"NODE_DEAD"' "$FTD_TMP/events" || fail "no NODE_DEAD of node 3"
sleep 1	# the last entries reach the journal

# A death, found by its fields, with what it means.
dead=$(jq_entries FTD_EVENT=NODE_DEAD FTD_NODE=3)
[ "$(jq -s length <<< "$dead")" = 1 ] || fail "journalctl FTD_EVENT=NODE_DEAD FTD_NODE=3: not one entry: $dead"
[ "$(jq -r .PRIORITY <<< "$dead")" = 4 ] || fail "NODE_DEAD is not priority warning (4): $dead"
jq -r .MESSAGE <<< "$dead" | grep -q '^NODE_DEAD node 3 incarnation [0-9]* origin [0-9]*$' ||
	fail "NODE_DEAD's MESSAGE: $(jq -r .MESSAGE <<< "$dead")"
[ "$(jq -r .FTD_ORIGIN <<< "$dead")" -ge 1 ] || fail "no FTD_ORIGIN: $dead"
left=$(jq_entries FTD_EVENT=NODE_LEFT FTD_NODE=2)
[ "$(jq -r .PRIORITY <<< "$left")" = 5 ] || fail "NODE_LEFT is not priority notice (5): $left"

# Every event ftstat -w -j saw is in the journal once, with the same fields.
want=$(jq -r '.seq' "$FTD_TMP/events" | sort -n | tr '\n' ' ')
got=$(jq_entries | jq -r '.FTD_SEQ // empty' | sort -n | tr '\n' ' ')
[ "$got" = "$want" ] || fail "the journal has events [$got], ftstat -w -j saw [$want]"
while read -r line; do
	seq=$(jq -r .seq <<< "$line")
	entry=$(jq_entries FTD_SEQ="$seq")
	for key in event node incarnation origin; do
		w=$(jq -r ".$key // empty" <<< "$line")
		g=$(jq -r ".FTD_${key^^} // empty" <<< "$entry")
		[ "$w" = "$g" ] || fail "event $seq: $key is '$w' in the JSON, '$g' in the journal"
	done
done < "$FTD_TMP/events"
[ ! -s "$FTD_TMP/journal.err" ] || fail "ftstat -J complained: $(cat "$FTD_TMP/journal.err")"
log "the journal has the $(wc -w <<< "$want") events ftstat -w -j saw: $(jq_entries | jq -r .MESSAGE | tr '\n' ';')"
log "ok"
