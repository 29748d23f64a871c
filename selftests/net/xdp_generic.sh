#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# xdp_generic.sh: where the driver has no native XDP, `auto` falls back to
# generic mode cleanly. In 6.1 a bridge and a dummy device have no ndo_bpf.
# Node 3 carries its address on a bridge of its own (n3br, with n3r0 as its
# port): `xdp = auto` puts the program there in generic mode, heartbeats
# are stamped by it, and the mode shows in ftctl xdp status and ftstat.
# Native mode on such a device fails with a reason and changes nothing.
#
#   n1 ──┐
#   n2 ──┤ br0
#   n3 ──┘  n3r0 is a port of n3br, which holds 192.0.2.3 (XDP generic)
source "$(dirname "$0")/../lib.sh"
ebpf_require

# What the programs do is tested here, not detection timing (cutoff_3_nodes_xdp
# is): a timeout of 1 s keeps the emulated guest's stalls from reading as
# silence. Attaching or detaching XDP rewrites kernel text (the XDP dispatcher,
# static keys), which stalls a TCG guest for ~100 ms; a busy host adds more.
TIMEOUT=1s

cluster_create 3
n 3 ip link add n3br type bridge
n 3 ip addr flush dev n3r0
n 3 ip link set n3r0 master n3br
n 3 ip addr add "$(addr4 0 3)/24" dev n3br
n 3 ip addr add "$(addr6 0 3)/64" dev n3br nodad
n 3 ip link set n3br up
FTD_XDP=auto cluster_up "$FTD_TEST_PERIOD" "$TIMEOUT"
wait_until 30 all_alive || { n 3 ftstat; fail "cluster did not come up"; }

[ "$(xdp_mode 3 n3br)" = generic ] || { n 3 ftctl xdp status; fail "n3br: not in generic mode"; }
[ "$(xdp_mode 3 n3r0)" = off ] || fail "n3r0 (a port, not a heartbeat interface) has XDP"
[ "$(xdp_mode 1 n1r0)" = native ] || fail "n1r0: not native"
n 3 ftctl xdp status
n 3 ftstat | grep -q "^xdp: n3br generic" || { n 3 ftstat; fail "ftstat does not state generic mode"; }
stamped() { rails_of 3 | jq -se 'length == 2 and all(.stamp == "xdp" and .driver_delay.samples > 0)' > /dev/null; }
wait_until 10 stamped || { rails_of 3; fail "node 3: peers not stamped by generic XDP"; }
log "node 3: auto fell back to generic on the bridge; heartbeats stamped there"
n 3 ftstat -d

# Native where there is none: an error that says so, and nothing changes.
out=$(n 3 ftctl xdp attach n3br --mode native 2>&1) && fail "native mode on a bridge succeeded"
log "native on n3br: $out"
grep -qi "native" <<< "$out" || fail "the error does not name native mode"
[ "$(xdp_mode 3 n3br)" = generic ] || fail "the generic program did not stay after a failed native attach"

# A dummy device: native fails, auto attaches generic, detach cleans up.
n 3 ip link add d0 type dummy
n 3 ip link set d0 up
n 3 ftctl xdp attach d0 --mode native 2> "$FTD_TMP/err" && fail "native mode on dummy succeeded"
[ "$(xdp_mode 3 d0)" = off ] || fail "a failed native attach left a program on d0"
n 3 ftctl xdp attach d0 --mode auto | tee "$FTD_TMP/out"
grep -q "generic mode (native mode failed" "$FTD_TMP/out" || fail "auto did not say why not native"
[ "$(xdp_mode 3 d0)" = generic ] || fail "d0: not in generic mode"
n 3 ftctl xdp detach d0
[ "$(xdp_mode 3 d0)" = off ] || fail "d0: still attached"
[ "$(n 3 ftctl xdp status -j | jq '[.interfaces[] | select(.ifname == "d0")] | length')" = 0 ] ||
	fail "d0 still listed after detach"

sleep 0.5
all_alive || fail "a node is not alive at the end"
log "ok"
