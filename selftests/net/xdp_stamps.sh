#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# xdp_stamps.sh [FAMILY]: the XDP program on every heartbeat interface
# (xdp = auto: native on veth) and the TC egress program (tc = on):
#
#  - heartbeats flow and every peer rail's arrival time comes from XDP;
#  - the driver-to-module delay: samples grow, 0 < min <= mean <= max < 1 s,
#    the histogram adds up to the samples (the XDP stamp is earlier than the
#    module's receive time: the module takes it only then);
#  - the stamps, as captured after XDP, grow with the sequence per sender
#    and are not later than the capture;
#  - TC: frames leave with tx_ns rewritten at egress: never before the
#    module's build time, and an injected frame with tx_ns 0 arrives with the
#    sender's CLOCK_TAI in it (with the filter removed, with 0);
#  - checksums stay valid: the switch port to n1 sums CHECKSUM_PARTIAL
#    frames in full and n1 verifies every one, first with n2's frames
#    CHECKSUM_PARTIAL at its TC hook (the field must not move), then with
#    n2's checksum offload off (complete at TC: it must be updated); Udp
#    InCsumErrors stays 0; an IPv4 zero checksum stays zero.
#
#   n1 ──┐  s1r0: tx checksum off (frames to n1 are checksummed in software)
#   n2 ──┤ br0
#   n3 ──┘
source "$(dirname "$0")/../lib.sh"
ebpf_require

# What the programs do is tested here, not detection timing (cutoff_3_nodes_xdp
# is): a timeout of 1 s keeps the emulated guest's stalls from reading as
# silence. Attaching or detaching XDP rewrites kernel text (the XDP dispatcher,
# static keys), which stalls a TCG guest for ~100 ms; a busy host adds more.
TIMEOUT=1s

FAMILY=${1:-4}
KEY=000102030405060708090a0b0c0d0e0f
cluster_create 3
FTD_XDP=auto FTD_TC=on cluster_up "$FTD_TEST_PERIOD" "$TIMEOUT" "$FAMILY"
wait_until 30 all_alive || { n 1 ftstat; fail "cluster did not come up"; }
if [ "$FAMILY" = 6 ]; then addr=addr6; else addr=addr4; fi

for i in 1 2 3; do
	[ "$(xdp_mode "$i" "n${i}r0")" = native ] ||
		{ n "$i" ftctl xdp status; fail "node $i: XDP not in native mode on veth"; }
	n "$i" ftctl tc status -j | jq -e --arg d "n${i}r0" \
		'.interfaces[] | select(.ifname == $d and .attached and .ftdetect)' > /dev/null ||
		{ n "$i" ftctl tc status; fail "node $i: no TC egress program on n${i}r0"; }
done
log "XDP native and TC egress on every node"

# ---- arrival stamps and the driver-to-module delay
all_xdp() {
	rails_of 1 | jq -se 'length == 2 and all(.stamp == "xdp" and .driver_delay.samples > 0)' \
		> /dev/null
}
wait_until 10 all_xdp || { rails_of 1; fail "node 1: peer rails not stamped by XDP"; }
before=$(rails_of 1 | jq -sc 'map({(.id | tostring): .driver_delay.samples}) | add')
sleep 1
rails_of 1 > "$FTD_TMP/rails"
jq -e --argjson b "$before" '.driver_delay as $d |
	$d.samples > $b[.id | tostring] and $d.min_ns > 0 and $d.min_ns <= $d.mean_ns and
	$d.mean_ns <= $d.max_ns and $d.max_ns < 1000000000 and ($d.hist | add) == $d.samples' \
	"$FTD_TMP/rails" > /dev/null || { cat "$FTD_TMP/rails"; fail "driver delay statistics"; }
while read -r line; do
	log "driver-to-module delay, node 1 from node $(jq -r '"\(.id): samples \(.driver_delay.samples) min \(.driver_delay.min_ns) ns mean \(.driver_delay.mean_ns) ns max \(.driver_delay.max_ns) ns hist \(.driver_delay.hist | tostring)"' <<< "$line")"
done < "$FTD_TMP/rails"

# ---- the frames after XDP: untouched (the stamp travels in XDP metadata,
# which no sender can write; the in-packet rx_ns slot is never believed)
n 1 ftd-capture -i n1r0 -d in -n 20 -t 10 > "$FTD_TMP/cap" || fail "no frames captured on n1r0"
jq -se 'all(.rx_ns == 0 and .csum != "bad")' "$FTD_TMP/cap" > /dev/null ||
	{ cat "$FTD_TMP/cap"; fail "XDP modified the frames (rx_ns or checksum)"; }
jq -se 'all(.tx_ns > 0 and .tx_ns <= .tai_ns and .tai_ns - .tx_ns < 1000000000)' \
	"$FTD_TMP/cap" > /dev/null || { cat "$FTD_TMP/cap"; fail "tx_ns not a recent CLOCK_TAI"; }
log "20 frames: untouched by XDP (rx_ns 0, checksum not broken), stamped in metadata; tx_ns a TAI time"

# ---- transmit stamps at TC egress
[ "$(tc_counter 2 n2r0 stamped)" -gt 0 ] || fail "node 2: TC stamped nothing"
[ "$(tc_counter 2 n2r0 delay_samples)" -gt 0 ] || fail "node 2: no build times seen at TC"
[ "$(tc_counter 2 n2r0 delay_negative)" = 0 ] || fail "node 2: TC stamp earlier than the build time"
[ "$(tc_counter 2 n2r0 errors)" = 0 ] || fail "node 2: TC helper errors"
log "node 2: build-to-TC delay mean $(n 2 ftctl tc status -j | jq '.interfaces[0].delay_mean_ns') ns, max $(tc_counter 2 n2r0 delay_max_ns) ns"

# capture_injected [ftd-inject options]: send frames with tx_ns 0 from node 2
# (sender id 9, so that the capture tells them from heartbeats; a non-member
# id at a member's address: XDP passes them, the module counts them foreign)
# until node 1 captures one; print it.
capture_injected() {
	local out=$FTD_TMP/inj pid k
	n 1 ftd-capture -i n1r0 -d in -s 9 -n 1 -t 10 > "$out" 2> "$out.err" &
	pid=$!
	wait_until 10 grep -q ready "$out.err" || fail "ftd-capture did not start"
	for ((k = 0; k < 20; k++)); do
		n 2 ftd-inject -t "$($addr 0 1)" -k valid -c 42 -s 9 -K "$KEY" -n 1 -T 0 "$@"
		sleep 0.2
		[ -s "$out" ] && break
	done
	wait "$pid" || true
	head -n1 "$out"
}
f=$(capture_injected)
[ -n "$f" ] || fail "the injected frame was not captured"
jq -e '.tx_ns > 0 and .tx_ns <= .tai_ns and .tai_ns - .tx_ns < 1000000000' <<< "$f" > /dev/null ||
	fail "injected frame not stamped at TC: $f"
log "a frame sent with tx_ns 0 arrives with tx_ns $(jq .tx_ns <<< "$f") (TAI at the receiver $(jq .tai_ns <<< "$f"))"
n 2 ftctl tc detach "n2r0"
f=$(capture_injected)
jq -e '.tx_ns == 0' <<< "$f" > /dev/null || fail "TC detached, yet tx_ns was rewritten: $f"
n 2 ftctl tc attach "n2r0" > /dev/null
log "without the TC filter the same frame keeps tx_ns 0"

# ---- checksums, verified in full at n1
errors0=$(udp_csum_errors 1)
rx0=$(stat_counter 1 rx)
sw ethtool -K s1r0 tx off > /dev/null
check_csums() {	# WHAT
	n 1 ftd-capture -i n1r0 -d in -n 20 -t 10 > "$FTD_TMP/cs" || fail "$1: nothing captured"
	jq -se 'all(.csum == "ok")' "$FTD_TMP/cs" > /dev/null ||
		{ cat "$FTD_TMP/cs"; fail "$1: checksums not all valid"; }
	log "$1: 20 frames, all checksums verify"
}
check_csums "sender checksum offload on (CHECKSUM_PARTIAL at TC)"
n 2 ethtool -K n2r0 tx off > /dev/null
n 3 ethtool -K n3r0 tx off > /dev/null
check_csums "sender checksum offload off (complete checksum at TC)"
if [ "$FAMILY" = 4 ]; then
	f=$(capture_injected -Z)
	jq -e '.csum == "none"' <<< "$f" > /dev/null || fail "zero IPv4 checksum not kept: $f"
	log "an IPv4 frame without checksum is stamped and stays without"
fi
sleep 0.5
[ "$(udp_csum_errors 1)" = "$errors0" ] || fail "node 1: Udp InCsumErrors grew to $(udp_csum_errors 1)"
[ "$(stat_counter 1 rx)" -gt "$rx0" ] || fail "node 1: no frame accepted meanwhile"
all_alive || fail "a node is no longer alive"
rails_of 1 | jq -se 'all(.stamp == "xdp")' > /dev/null || fail "stamps no longer from XDP"
n 1 ftstat
n 1 ftstat -d
log "ok"
