#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lease_drops.sh: the lease holds while the machine drops received frames
# (kmod/proto/lease.h, proto/overload.h), and only then. Node 1 hears
# none of its peers for 2.5 timeouts (a tc filter on its port drops their
# frames; its own still reach them):
#   1. while the machine drops received frames: node 5 sends junk to an
#      address whose MAC the switch never learns (a static neighbour
#      entry), so each frame is flooded to the 4 members' ports in one go,
#      and with the receive backlog at 1 all but the first two copies are
#      dropped, on any number of CPUs. Node 1 does not fence itself (the
#      drops excuse up to 4 deadlines of silence; ticks_rx_dropped counts
#      the ticks that held), and nobody declares anybody dead;
#   2. the same silence without the flood: node 1 fences itself (FENCED,
#      origin itself) by its lease, which shows the silence of part 1 was
#      long enough to end the lease but for the drops.
#
#   n1 .. n4 ── br0 ── n5: not a member, a sender of junk to 192.0.2.99
#                          (nobody's; 02:00:00:00:00:99 in its neighbour
#                          table)
source "$(dirname "$0")/../lib.sh"

N=4
period_ms=$(scaled 10)
timeout_ms=$(scaled 200)
modprobe -q cls_flower 2>/dev/null || skip "cls_flower not available (tc flower filters)"
modprobe -q act_gact 2>/dev/null || skip "act_gact not available (tc drop action)"
cluster_create $((N + 1))
FTD_NODES=$N cluster_up "${period_ms}ms" "${timeout_ms}ms"
FTD_NODES=$N
wait_until 60 all_alive || not_up "the $N nodes did not all become alive"
watch_devices $(seq 1 "$N")
n 1 tc qdisc add dev n1r0 clsact || fail "tc qdisc on node 1"

# deaf SECONDS: node 1 hears none of its peers for SECONDS (one filter, so
# that all go silent at once), then again.
deaf() {
	n 1 tc filter add dev n1r0 ingress pref 1 protocol ip flower src_ip 192.0.2.0/24 \
		action drop || fail "tc filter on node 1"
	sleep "$1"
	n 1 tc filter del dev n1r0 ingress pref 1 || fail "tc filter del on node 1"
}
fenced_1() { grep -c '"event":"FENCED"' "$FTD_TMP/dev.1" || true; }
silence=$(awk -v t="$timeout_ms" 'BEGIN { printf "%.3f", 2.5 * t / 1000 }')

# --- 1. deaf while the machine drops
n $((N + 1)) ip neigh replace "$(addr4 0 99)" lladdr 02:00:00:00:00:99 dev "n$((N + 1))r0" ||
	fail "neighbour entry on node $((N + 1))"
set_backlog 1
dropped0=$(backlog_drops)
held0=$(stat_counter 1 ticks_rx_dropped)
# A frame a quarter timeout: drops in every timeout, few heartbeats among
# them (a flood back to back drops them all, and 4 deadlines pass).
gap=$(awk -v t="$timeout_ms" 'BEGIN { printf "%.3f", t / 4000 }')
# A timeout before the silence (drops under way), one after it.
flood=$(awk -v t="$timeout_ms" 'BEGIN { printf "%.3f", 4.5 * t / 1000 }')
n $((N + 1)) timeout "$flood" bash -c \
	"while :; do ftd-inject -t $(addr4 0 99) -k badmac -c 42 -s 9 -n 1; sleep $gap; done" \
	> /dev/null 2>&1 &
sender=$!
sleep "$(awk -v t="$timeout_ms" 'BEGIN { printf "%.3f", t / 1000 }')"
deaf "$silence"
wait "$sender" || true	# timeout(1) ends it with status 124
restore_backlog
dropped=$(( $(backlog_drops) - dropped0 ))
held=$(( $(stat_counter 1 ticks_rx_dropped) - held0 ))
log "node 1 deaf for 2.5 timeouts (${silence} s) under a flood: this machine dropped $dropped received frames, node 1 held $held ticks (ticks_rx_dropped)"
[ "$dropped" -gt 0 ] || fail "the flood made this machine ($(nproc) CPUs) drop no frames: nothing tested"
sleep "$(awk -v t="$timeout_ms" 'BEGIN { printf "%.3f", 2 * t / 1000 }')"
wait_until 30 all_alive || { n 1 ftstat; fail "not all alive after the flood"; }
[ "$(fenced_1)" = 0 ] || { cat "$FTD_TMP/dev.1" >&2
	fail "node 1 fenced itself after 2.5 timeouts of silence while the machine dropped frames"; }
for ((i = 1; i <= N; i++)); do
	c=$(grep -c '"event":"NODE_DEAD"' "$FTD_TMP/dev.$i" || true)
	[ "$c" = 0 ] || { grep NODE_DEAD "$FTD_TMP/dev.$i" >&2; fail "node $i delivered NODE_DEAD $c times"; }
done
[ "$held" -gt 0 ] || fail "frames were dropped, but node 1 never held its judging (ticks_rx_dropped)"
log "node 1 did not fence itself; no NODE_DEAD anywhere"

# --- 2. the same silence, no flood: the lease ends
dropped0=$(backlog_drops)
deaf "$silence"
wait_until 10 eval '[ "$(fenced_1)" -ge 1 ]' ||
	fail "node 1 heard nobody for 2.5 timeouts, the machine dropping $(( $(backlog_drops) - dropped0 )) frames meanwhile, and did not fence itself: part 1 proved nothing"
dropped=$(( $(backlog_drops) - dropped0 ))
[ "$(event_query first "$FTD_TMP/dev.1" FENCED origin 1)" != "" ] ||
	fail "node 1's FENCED is not its own (origin 1)"
log "without the flood ($dropped frames dropped meanwhile), the same silence fenced node 1 by its lease"
log "ok"
