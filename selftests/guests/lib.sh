#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Helpers for the tests that run in several guests at once
# (selftests/vm/guests): this guest is node $ME of a cluster of $GUESTS, in
# its initial network namespace, on its one NIC, which has an address for
# each of two rails (192.0.2.ME/24 and 198.51.100.ME/24); the others are
# the other guests on the same hub. selftests/lib.sh's helpers
# work with node $ME as the root node (`n $ME ...`). The guests meet
# through files in FTD_VM_GUESTS_DIR.
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

ME=${FTD_VM_GUEST:?run under selftests/vm/guests}
GUESTS=${FTD_VM_GUESTS:?run under selftests/vm/guests}
GUESTS_DIR=${FTD_VM_GUESTS_DIR:?run under selftests/vm/guests}
FTD_ROOT_NODE=$ME
FTD_NODES=$GUESTS
guest_addr() { # NODE [RAIL]: its address on RAIL (default 1)
	case ${2:-1} in 0) echo "192.0.2.$1" ;; 1) echo "198.51.100.$1" ;; esac
}

# The others are told when this guest stops early, so that they do not
# wait for it in vain.
guest_gone() {
	[ -e "$GUESTS_DIR/done.$ME" ] || : > "$GUESTS_DIR/gone.$ME"
}
at_exit guest_gone

# everyone_at NAME: every guest reached NAME, or one of them stopped.
everyone_at() {
	local i
	for ((i = 1; i <= GUESTS; i++)); do
		[ -e "$GUESTS_DIR/$1.$i" ] || [ -e "$GUESTS_DIR/gone.$i" ] || return 1
	done
}

# meet NAME [SECONDS]: say this guest reached NAME; wait for all the others.
meet() {
	local i
	: > "$GUESTS_DIR/$1.$ME"
	wait_until "${2:-180}" everyone_at "$1" || fail "not every guest reached '$1'"
	for ((i = 1; i <= GUESTS; i++)); do
		[ -e "$GUESTS_DIR/$1.$i" ] || fail "guest $i stopped before '$1'"
	done
}

# guest_done: this guest finished its part.
guest_done() { : > "$GUESTS_DIR/done.$ME"; }

# guest_nic: bring the NIC up with our addresses; NIC: its name. It is the
# interface with the MAC selftests/vm/guests gave this guest (a kernel may
# have others, e.g. dummy0).
guest_nic() {
	local dev mac
	mac=52:54:00:fd:00:$(printf %02x "$ME")
	modprobe -q virtio_net 2> /dev/null || true
	nic_of() { ip -br link | awk -v m="$mac" '$3 == m { print $1; exit }'; }
	has_nic() { [ -n "$(nic_of)" ]; }
	wait_until 20 has_nic || { ip -br link >&2; fail "no network device with MAC $mac (virtio_net?)"; }
	dev=$(nic_of)
	ip addr add "$(guest_addr "$ME" 0)/24" dev "$dev" || fail "cannot address $dev"
	ip addr add "$(guest_addr "$ME" 1)/24" dev "$dev" || fail "cannot address $dev"
	ip link set "$dev" up || fail "cannot bring $dev up"
	nic_up() { ip -br link show dev "$1" | grep -q ' UP '; }
	wait_until 20 nic_up "$dev" || fail "$dev does not come up"
	NIC=$dev
}

# guests_config FILE RAILS [CLUSTER LINE...]: the cluster of the guests;
# RAILS "1": one rail (198.51.100.0/24), "0 1": two.
guests_config() {
	local file=$1 rails=$2 i r line
	shift 2
	{
		echo "[cluster]"
		echo "id = 42"
		echo "port = 7061"
		echo "period = $FTD_TEST_PERIOD"
		echo "timeout = $FTD_TEST_TIMEOUT"
		echo "key = 000102030405060708090a0b0c0d0e0f"
		[ $# -eq 0 ] || printf '%s\n' "$@"
		echo
		echo "[nodes]"
		for ((i = 1; i <= GUESTS; i++)); do
			line=$i
			for r in $rails; do
				line+=" $(guest_addr "$i" "$r")"
			done
			echo "$line"
		done
	} > "$file"
	chmod 600 "$file"
}
