#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rdma_heartbeats.sh (three guests: selftests/vm/guests 3): heartbeats over
# RDMA datagrams (kmod/rdma_ud.h, docs/rdma.md) between nodes that each
# run in their own kernel, with a Soft-RoCE (rdma_rxe) device over each
# guest's NIC:
#   0. `rdma = 0` while no RDMA device is behind the rail: ftctl apply
#      fails, says why, and leaves the node down; a config naming an RDMA
#      device or port the node does not have (`rdma = 0@DEVICE/PORT`) is
#      refused by ftctl (libibverbs), naming what is there;
#   1. one rail, `rdma = 0`: each node shows its queue pair (ftstat -r), and
#      its predecessor's heartbeats arrive over RDMA (stamp "rdma"), more
#      and more. Node 3 then drops everything it sends (a cut, the same
#      instant for both others): both declare it, in about a timeout;
#   2. the same cluster with `rdma = none`, cut the same way: the detection
#      time (the silence at which each survivor delivered the death) with
#      UDP heartbeats, next to the RDMA one, in the same run;
#   3. two rails, rail 0 over RDMA (`rdma = 0`), rail 1 over UDP: node 3
#      sends no RoCE (UDP port 4791) while IP and ftdetect's own UDP port
#      still pass: rail 0 of node 3 is silent over RDMA, and nodes 1 and 2
#      deliver IFACE_DEAD node 3 rail 0 once, while node 3 stays alive
#      (rail 1): liveness is measured on the RDMA path. RoCE again:
#      IFACE_RESTORED at both, once.
# Between phases every node goes down before any comes up again with the
# next config: a node still sending RDMA heartbeats to one that already
# listens over UDP only would be silent to it, and declared. Rail 0 keeps
# its address (198.51.100.ME) throughout.
# SKIP without rdma_rxe or the rdma tool.
source "$(dirname "$0")/lib.sh"

[ "$GUESTS" = 3 ] || fail "run in three guests: selftests/vm/guests 3 $0"
command -v rdma > /dev/null || skip "no rdma tool (iproute2)"
modprobe rdma_rxe 2> /dev/null || skip "no rdma_rxe module in this kernel"
guest_nic
dev=$NIC
rxe=ftdrxe	# each guest its own kernel: the same name everywhere, as on a cluster
modprobe ib_uverbs 2> /dev/null || true	# libibverbs sees devices through it
# ftctl checks named devices through libibverbs, which needs the kernel's
# user verbs (the debug kernel has none): without them, rails by number.
named=1
[ -d /sys/class/infiniband_verbs ] || {
	named=0
	log "no user verbs in this kernel (ib_uverbs): the checks of named RDMA devices are left out"
}
at=""
[ "$named" = 0 ] || at="@$rxe"
CUT=3
SURVIVOR=$((3 - ME))	# for nodes 1 and 2: the other one

# --- 0. rdma = 0 without an RDMA device: refused, nothing changes
guests_config "$FTD_TMP/rdma.conf" 1 "rdma = 0$at${at:+/1}"
guests_config "$FTD_TMP/udp.conf" 1
guests_config "$FTD_TMP/two.conf" "1 0" "rdma = 0$at"
guests_config "$FTD_TMP/noport.conf" 1 "rdma = 0@$rxe/2"
guests_config "$FTD_TMP/nodev.conf" 1 "rdma = 0@mlx5_7/1"
guests_config "$FTD_TMP/bydev.conf" 1 "rdma = 0"
out=$(ftctl apply "$FTD_TMP/bydev.conf" 2>&1) && fail "up with rdma = 0 and no RDMA device: $out"
grep -q "no RDMA device behind our address on that rail" <<< "$out" ||
	fail "ftctl apply did not say why rdma = 0 cannot be: $out"
[ "$(ftctl show -j | jq -r .up)" = false ] || fail "node $ME is up after a failed apply"
log "rdma = 0 without an RDMA device: refused: $(grep -m1 'RDMA' <<< "$out")"

rdma link add "$rxe" type rxe netdev "$dev" || skip "cannot create a Soft-RoCE device over $dev"
at_exit "rdma link delete $rxe"
# Devices and ports named in the config, checked through libibverbs first.
refused() { # CONF WHAT: ftctl apply CONF fails, saying WHAT, and changes nothing
	local out
	out=$(ftctl apply "$FTD_TMP/$1" 2>&1) && fail "$1 applied: $out"
	grep -q "$2" <<< "$out" || fail "$1: ftctl did not say '$2': $out"
	[ "$(ftctl show -j | jq -r .up)" = false ] || fail "node $ME is up after $1 was refused"
	log "$1 refused: $out"
}
if [ "$named" = 1 ]; then
	refused noport.conf "rdma: rail 0 is to be on $rxe port 2, but $rxe has 1 port$"
	refused nodev.conf "rdma: rail 0 is to be on RDMA device mlx5_7, which this node does not have (it has: $rxe)"
fi
meet rxe
ftctl apply "$FTD_TMP/rdma.conf" > /dev/null || fail "ftctl apply with rdma = 0"
wait_until 60 all_alive "$ME" || not_up "not everyone alive over RDMA heartbeats"
watch_devices "$ME"
meet up

# --- 1. queue pairs; the predecessor's heartbeats came over RDMA
own() { ftstat -j | jq -c "[.nodes[] | select(.state == \"self\")][0].rails[$1]"; }
rail_of() { ftstat -j | jq -c ".nodes[] | select(.id == $1) | .rails[$2]"; }
[ "$(own 0 | jq -r .rdma.heartbeats)" = rdma ] || fail "heartbeats not over rdma: $(own 0)"
qpn=$(own 0 | jq -r .rdma.qpn)
(( qpn > 1 )) || fail "no queue pair: $(own 0)"
ftstat -r | grep -q "^rdma: rail 0 ($(guest_addr "$ME")) $rxe port 1 active, heartbeats over rdma, queue pair $qpn$" ||
	{ ftstat -r; fail "ftstat -r does not show the heartbeat queue pair"; }
pred=$(( (ME + GUESTS - 2) % GUESTS + 1 ))
[ "$(rail_of "$pred" 0 | jq -r .stamp)" = rdma ] ||
	{ ftstat -r; fail "node $pred's heartbeats did not come over RDMA: $(rail_of "$pred" 0)"; }
rx0=$(rail_of "$pred" 0 | jq .rx)
sleep "$(( $(scaled 200) ))e-3"
(( $(rail_of "$pred" 0 | jq .rx) > rx0 )) || fail "nothing more heard from node $pred"
log "node $ME: heartbeats over RDMA, queue pair $qpn; node $pred's arrive stamped at the completion"
meet checked

# first_after SINCE_NS EVENT KEY VALUE: time_ns of our first such event after SINCE_NS.
first_after() {
	event_query all "$FTD_TMP/dev.$ME" "$2" "$3" "$4" | awk -v s="$1" '$1 > s { print; exit }'
}
declared_since() { [ -n "$(first_after "$1" NODE_DEAD node "$CUT")" ]; }
# The cut is made by node 3 itself, on what it sends (its egress), so that
# both observers lose it at once: filters at each observer went in up to a
# second apart (each guest runs at its own pace), and the observer that
# still heard node 3 meanwhile reported its rail back.
# cut MATCH...: node 3 drops what it sends that MATCHes (u32).
cut() {
	tc qdisc add dev "$dev" clsact 2> /dev/null || true
	tc filter add dev "$dev" egress protocol ip u32 match ip src "$(guest_addr "$CUT")/32" \
		"$@" action drop || fail "tc filter"
}
heal() { tc filter del dev "$dev" egress || fail "cannot remove the filter"; }
# silence_sum: the sum and count of the silences at which this node
# delivered a NODE_DEAD (its own or told): "SUM_NS COUNT" (ftctl stats).
silence_sum() {
	ftctl stats -j | jq -r '"\(.declared.sum_ns + .told.sum_ns) \(.declared.count + .told.count)"'
}
# cut_off NAME: node 3 cut off (all it sends over IP dropped) until both
# others deliver its death; at each of them silence_ms: how long it had not
# heard node 3 then (the detection time, on its own clock). (Not in a
# command substitution: fail must end the test, not a subshell.)
cut_off() {
	local sum0 n0 sum n t0
	[ "$ME" = "$CUT" ] || read -r sum0 n0 < <(silence_sum)
	t0=$(now_ns)
	meet "cut-$1"
	[ "$ME" != "$CUT" ] || cut
	if [ "$ME" != "$CUT" ]; then
		wait_until 20 declared_since "$t0" || { ftstat >&2; fail "node $CUT cut off, not declared"; }
		read -r sum n < <(silence_sum)
		[ "$n" = $((n0 + 1)) ] || fail "$((n - n0)) silences counted for one NODE_DEAD"
		silence_ms=$(( (sum - sum0) / 1000000 ))
	fi
	meet "declared-$1"
	[ "$ME" != "$CUT" ] || heal
	meet "healed-$1"
	wait_until 60 all_alive "$ME" || not_up "not everyone alive again after the $1 cut"
	meet "alive-$1"
}

# --- 1. cut off, heartbeats over RDMA
cut_off rdma
rdma_ms=${silence_ms:-}

# switch_to CONF: every node down, then up with CONF, then every node alive.
switch_to() {
	ftctl down || fail "ftctl down"
	meet "down-$1"
	ftctl apply "$FTD_TMP/$1" > /dev/null || fail "ftctl apply $1"
	meet "up-$1"
	wait_until 60 all_alive "$ME" || not_up "not everyone alive with $1"
	meet "alive-$1"
}

# --- 2. the same over UDP
switch_to udp.conf
[ "$(own 0 | jq -r .rdma.heartbeats)" = udp ] || fail "heartbeats still over rdma after rdma = none"
[ "$(rail_of "$pred" 0 | jq -r .stamp)" != rdma ] || fail "node $pred's heartbeats still came over RDMA"
cut_off udp
[ "$ME" = "$CUT" ] ||
	log "node $CUT cut off: NODE_DEAD here after $rdma_ms ms of silence with RDMA heartbeats, $silence_ms ms with UDP ones (timeout $FTD_TEST_TIMEOUT)"

# --- 3. two rails, rail 0 over RDMA: node 3 sends no RoCE
switch_to two.conf
[ "$(own 0 | jq -r .rdma.heartbeats)" = rdma ] || fail "rail 0 heartbeats not over rdma: $(own 0)"
[ "$(own 1 | jq -r .rdma.heartbeats)" = udp ] || fail "rail 1 heartbeats not over udp: $(own 1)"
rail_events() { # EVENT: how many about node 3's rail 0
	jq -c --arg ev "$1" --argjson n "$CUT" 'select(.event == $ev and .node == $n and .rail == 0)' \
		"$FTD_TMP/dev.$ME" | wc -l
}
# answers_ip ADDR: ADDR's kernel answers over IP: a TCP connection to a
# port where nothing listens is refused at once (no ping on every system).
answers_ip() {
	local out
	out=$(timeout "$(scaled 3)" bash -c "exec 3<>/dev/tcp/$1/9" 2>&1) && return 0
	grep -q "Connection refused" <<< "$out"
}
told() { [ "$(rail_events "$1")" -ge 1 ]; }
# once EVENT: EVENT of node 3 rail 0 delivered here exactly once.
once() {
	sleep "$(( $(scaled 50) ))e-2"
	[ "$(rail_events "$1")" = 1 ] || {
		jq -c 'select(.rail != null)' "$FTD_TMP/dev.$ME" >&2
		fail "$1 of node $CUT rail 0 not once here"
	}
}
meet two-up
# (Node 3 is not told of its own rail: a notice about itself is not news.
# Its rail 1, 192.0.2.3, is another address of the same NIC: dropping RoCE
# from 198.51.100.3 leaves it.)
[ "$ME" != "$CUT" ] || cut match ip protocol 17 0xff match ip dport 4791 0xffff
if [ "$ME" != "$CUT" ]; then
	wait_until 20 told IFACE_DEAD || { ftstat -r >&2; fail "no IFACE_DEAD of node $CUT rail 0"; }
	answers_ip "$(guest_addr "$CUT")" || fail "node $CUT does not answer over IP on rail 0: not only RDMA was cut"
	once IFACE_DEAD
	all_alive "$ME" || fail "a lost RDMA path was taken for a node"
	log "node $CUT sends no RoCE, IP on rail 0 still answers: IFACE_DEAD node $CUT rail 0 here, once; node $CUT alive"
fi
meet iface-dead
[ "$ME" != "$CUT" ] || heal
if [ "$ME" != "$CUT" ]; then
	wait_until 20 told IFACE_RESTORED || { ftstat -r >&2; fail "no IFACE_RESTORED of node $CUT rail 0"; }
	once IFACE_RESTORED
	log "node $CUT sends RoCE again: IFACE_RESTORED here, once"
fi
meet restored
for i in 1 2 3; do
	[ "$i" = "$ME" ] || [ "$(count_events "$FTD_TMP/dev.$ME" NODE_DEAD "$i")" -le 2 ] ||
		fail "node $i declared more than the two cuts here"
done
[ "$ME" = "$CUT" ] || [ "$(count_events "$FTD_TMP/dev.$ME" NODE_DEAD "$SURVIVOR")" = 0 ] ||
	fail "node $SURVIVOR, never cut, was declared here"
meet end
guest_done
log "ok"
