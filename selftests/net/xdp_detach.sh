#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# xdp_detach.sh: taking the XDP program off, putting it back, switching its
# mode and turning it off by config all happen under running heartbeats
# without losing peer state: every peer stays alive (no event at all), rx
# keeps growing, and the stamp source follows: xdp -> skb -> xdp. Detaching
# removes the pins; the driver-delay samples stop growing while detached.
#
#   n1 ──┐  XDP on n1r0: detached, re-attached generic, then native, then off
#   n2 ──┤ br0
#   n3 ──┘
source "$(dirname "$0")/../lib.sh"
ebpf_require

# What the programs do is tested here, not detection timing (cutoff_3_nodes_xdp
# is): a timeout of 1 s keeps the emulated guest's stalls from reading as
# silence. Attaching or detaching XDP rewrites kernel text (the XDP dispatcher,
# static keys), which stalls a TCG guest for ~100 ms; a busy host adds more.
TIMEOUT=1s

cluster_create 3
FTD_XDP=auto cluster_up "$FTD_TEST_PERIOD" "$TIMEOUT"
wait_until 30 all_alive || fail "cluster did not come up"
watch_events 1
late0=$(stat_counter 1 ticks_late)

# stamps_are SOURCE: every peer rail of node 1 reports SOURCE.
stamps_are() { rails_of 1 | jq -se --arg s "$1" 'length == 2 and all(.stamp == $s)' > /dev/null; }
samples() { rails_of 1 | jq -s 'map(.driver_delay.samples // 0) | add'; }
rx() { n 1 ftstat -j | jq '[.nodes[].rx] | add'; }
pindir() { echo "/sys/fs/bpf/ftdetect/net-$(stat -L -c %i "/run/netns/$(ns_of 1)")"; }

wait_until 10 stamps_are xdp || { rails_of 1; fail "not stamped by XDP at first"; }
[ -e "$(pindir)/members" ] || fail "no member map pinned in $(pindir)"

# Off: back to the skb stamps of the core receive path.
rx0=$(rx)
n 1 ftctl xdp detach n1r0
[ "$(xdp_mode 1 n1r0)" = off ] || fail "still attached after detach"
[ ! -e "$(pindir)" ] || fail "pins left behind in $(pindir): $(ls -R "$(pindir)")"
wait_until 5 stamps_are skb || { rails_of 1; fail "stamps did not switch to skb"; }
s0=$(samples)
sleep 0.5
[ "$(samples)" = "$s0" ] || fail "driver-delay samples grew without XDP"
[ "$(rx)" -gt "$rx0" ] || fail "rx stopped growing"
all_alive || fail "a peer is not alive after the detach"
log "detached: stamps from skb, rx $rx0 -> $(rx), peers alive"

# Back, in generic mode, then native (replaced in place of the generic one).
n 1 ftctl xdp attach n1r0 --mode generic
[ "$(xdp_mode 1 n1r0)" = generic ] || fail "not in generic mode"
wait_until 5 stamps_are xdp || fail "stamps did not switch back to xdp (generic)"
wait_until 5 test "$(samples)" -gt "$s0" || fail "driver-delay samples do not grow (generic)"
n 1 ftctl xdp attach n1r0 --mode native
[ "$(xdp_mode 1 n1r0)" = native ] || fail "not in native mode"
s1=$(samples)
wait_until 5 test "$(samples)" -gt "$s1" || fail "driver-delay samples do not grow (native)"
# Re-attaching in the same mode replaces the program atomically.
n 1 ftctl xdp attach n1r0 --mode native > /dev/null
[ "$(xdp_mode 1 n1r0)" = native ] || fail "not in native mode after a re-attach"
stamps_are xdp || fail "stamps not from XDP after the re-attach"
log "re-attached: generic, native, native again; stamps from xdp"

# The config turns it off: apply detaches ftdetect's program.
FTD_XDP=off cluster_up "$FTD_TEST_PERIOD" "$TIMEOUT"
[ "$(xdp_mode 1 n1r0)" = off ] || fail "xdp = off did not detach"
wait_until 5 stamps_are skb || fail "stamps did not switch to skb after xdp = off"

sleep 0.5
all_alive || fail "a peer is not alive at the end"
quiet_since "$FTD_TMP/dev.1" 1 "$late0" "detach and attach"
n 1 ftstat
log "ok"
