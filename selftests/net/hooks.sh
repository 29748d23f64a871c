#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hooks.sh: ftstat -w --exec runs an admin's program on each event, with
# the event as JSON on its stdin and as FTD_* variables, and never holds
# detection up: node 2 leaves and comes back while node 1's hook for the
# first event hangs; that hook is stopped at --exec-timeout (and says so),
# the later events still reach the hook and ftstat's own output at once.
#
#   n1 (ftstat -w -x HOOK)   n2 (leaves, rejoins)   n3 ── br0
source "$(dirname "$0")/../lib.sh"

cluster_create 3
cluster_up "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT"
wait_until 30 all_alive || fail "the cluster did not come up"

# The hook: stdin and environment into a file per event; the first event
# (NODE_LEFT) also hangs, as a program waiting on a dead service would.
cat > "$FTD_TMP/hook" <<HOOK
#!/bin/sh
cat > "$FTD_TMP/in.\$FTD_SEQ"
env | grep '^FTD_' | sort > "$FTD_TMP/env.\$FTD_SEQ"
[ "\$FTD_EVENT" != NODE_LEFT ] || exec sleep 600
HOOK
chmod +x "$FTD_TMP/hook"
# 5 s: the hanging hook writes its files first (four programs, each slow
# to start in an emulated guest) and must not be stopped before.
bg n 1 ftstat -w -j -e NODE_LEFT,NODE_ALIVE -x "$FTD_TMP/hook" -T "$(scaled 5)s" \
	> "$FTD_TMP/events" 2> "$FTD_TMP/hook.err"
sleep 0.5	# it subscribes before the first event

n 2 ftctl down
wait_until 10 grep -q '"event":"NODE_LEFT"' "$FTD_TMP/events" || fail "ftstat showed no NODE_LEFT"
left_seq=$(jq -r 'select(.event == "NODE_LEFT") | .seq' "$FTD_TMP/events" | head -n 1)
n 2 ftctl apply "$FTD_CONF" > /dev/null
# The hook of NODE_LEFT hangs: the next event is shown and handed over anyway.
wait_until 10 grep -q '"event":"NODE_ALIVE"' "$FTD_TMP/events" ||
	fail "no NODE_ALIVE while the first hook hangs: $(cat "$FTD_TMP/events")"
alive_seq=$(jq -r 'select(.event == "NODE_ALIVE" and .node == 2) | .seq' "$FTD_TMP/events" | head -n 1)

# What the hook got: the line ftstat -w -j shows, and the same as variables.
# hook_done SEQ: the hook for event SEQ wrote its environment (sort writes
# it whole, at its end) after its stdin.
hook_done() { grep -q '^FTD_SEQ=' "$FTD_TMP/env.$1" 2> /dev/null; }
for seq in "$left_seq" "$alive_seq"; do
	# Each hook writes its files itself, in its own time: NODE_LEFT's, the
	# first program run, was once still writing when NODE_ALIVE's was done.
	wait_until 10 hook_done "$seq" || fail "the hook for event $seq did not write its files"
	# The raw lines: jq would round the 19-digit times.
	want=$(grep -F "\"seq\":$seq," "$FTD_TMP/events")
	got=$(cat "$FTD_TMP/in.$seq")
	[ "$got" = "$want" ] || fail "the hook's stdin for event $seq: $got, not $want"
	grep -qx "FTD_SEQ=$seq" "$FTD_TMP/env.$seq" || fail "no FTD_SEQ=$seq: $(cat "$FTD_TMP/env.$seq")"
	grep -qx "FTD_NODE=2" "$FTD_TMP/env.$seq" || fail "no FTD_NODE=2: $(cat "$FTD_TMP/env.$seq")"
	grep -qxF "FTD_EVENT_JSON=$want" "$FTD_TMP/env.$seq" || fail "FTD_EVENT_JSON is not the event"
done
grep -qx "FTD_EVENT=NODE_LEFT" "$FTD_TMP/env.$left_seq" || fail "no FTD_EVENT=NODE_LEFT"
log "the hook got events $left_seq (NODE_LEFT) and $alive_seq (NODE_ALIVE): $(tr '\n' ' ' < "$FTD_TMP/env.$left_seq")"

# The hanging one is stopped at its timeout, and ftstat says so.
wait_until 20 grep -q "for event $left_seq (it ran past --exec-timeout)" "$FTD_TMP/hook.err" ||
	fail "the hanging hook was not stopped: $(cat "$FTD_TMP/hook.err")"
! pgrep -f "sleep 600" > /dev/null || fail "the hanging hook's program still runs"
log "stopped at --exec-timeout: $(cat "$FTD_TMP/hook.err")"
log "ok"
