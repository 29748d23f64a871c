#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bounds.sh: what an unprivileged user can make the kernel hold is bounded.
#
#   1. user nobody, in a user and network namespace of its own, owns that
#      instance and may configure it (userns_config=Y), within the limits
#      for such instances: at most userns_max_nodes nodes and a period no
#      shorter than userns_min_period_us. Past them: a clear error that
#      names the module parameter, and nothing more is held.
#   2. userns_config=N: the same user cannot configure anything.
#   3. max_openers: one open of /dev/ftdetect more than allowed fails with
#      EMFILE; closing one makes room again.
#   4. RDMA rails (kernel queue pairs on the host's devices) only in the
#      initial network namespace: a user's namespace, and root's own other
#      namespaces, are refused with the reason, and nothing changes.
#   (The status table's memory cgroup: net/memcg.sh.)
#
# No traffic: the user's instance is never brought up on a real address.
source "$(dirname "$0")/../lib.sh"

P=$FTD_PARAMS
save_params userns_max_nodes userns_min_period_us userns_config max_openers

# as_user_ns CMD...: run CMD as nobody, in a new user namespace (mapped to
# root inside) with its own network namespace, as an unprivileged user on
# a cluster node would.
as_user_ns() {
	setpriv --reuid=65534 --regid=65534 --clear-groups -- unshare -Urn -- "$@"
}
as_user_ns true 2> /dev/null ||
	skip "unprivileged user namespaces are disabled on this kernel (unshare -Urn as nobody failed)"

# A config of N nodes (the local one first) with PERIOD, readable by nobody;
# EXTRA: one more [cluster] line.
user_config() { # FILE N PERIOD [EXTRA]
	local i
	{
		printf '[cluster]\nid = 7\nperiod = %s\ntimeout = 50ms\n' "$3"
		echo "key = 000102030405060708090a0b0c0d0e0f"
		[ -z "${4:-}" ] || echo "$4"
		printf '\n[nodes]\n'
		for ((i = 1; i <= $2; i++)); do
			echo "$i 198.51.100.$((i % 250 + 1))"
		done
	} > "$1"
	chown 65534:65534 "$1"
	chmod 600 "$1"
}

# --- 1. a user namespace's instance, within its limits (--force: its network
# namespace has no interface with node 1's address)
echo 8 > "$P/userns_max_nodes"
echo 1000 > "$P/userns_min_period_us"
echo Y > "$P/userns_config"
# The user's files: in a directory of its own it can reach.
chmod 711 "$FTD_TMP"
mkdir -m 755 "$FTD_TMP/user"
cfg=$FTD_TMP/user/user.conf

user_config "$cfg" 9 10ms
out=$(as_user_ns sh -c "ftctl apply --force --node 1 $cfg 2>&1; echo status=\$?; ftctl show -j" 2>&1) || true
log "9 nodes with userns_max_nodes=8: $(grep -m1 -i 'full\|error' <<< "$out" || echo '(no error)')"
grep -q 'userns_max_nodes' <<< "$out" ||
	fail "no error naming userns_max_nodes for a 9th node: $out"
grep -q 'status=0' <<< "$out" && fail "ftctl apply of 9 nodes succeeded in a user namespace"
held=$(sed -n '/^{/,$p' <<< "$out" | jq '.nodes | length' 2> /dev/null || echo "?")
[ "$held" != "?" ] && [ "$held" -le 8 ] || fail "the instance holds $held nodes (at most 8 allowed): $out"

user_config "$cfg" 3 500us
out=$(as_user_ns ftctl apply --force --node 1 "$cfg" 2>&1) && fail "a 500us period was accepted in a user namespace"
grep -q 'userns_min_period_us' <<< "$out" || fail "no error naming userns_min_period_us: $out"
log "period 500us with userns_min_period_us=1000: refused: $out"

user_config "$cfg" 8 1ms
out=$(as_user_ns sh -c "ftctl apply --force --node 1 $cfg && ftctl show -j" 2>&1) ||
	fail "8 nodes at 1 ms refused in a user namespace: $out"
[ "$(sed -n '/^{/,$p' <<< "$out" | jq '.nodes | length')" = 8 ] ||
	fail "the user's instance does not hold its 8 nodes: $out"
log "8 nodes at 1 ms: accepted"

# The initial namespace's instances are not bound by the userns limits.
user_config "$cfg" 9 500us
chown root:root "$cfg"
n_init=$(ip netns add "$FTD_NS_PREFIX-init" && ip netns exec "$FTD_NS_PREFIX-init" \
	sh -c "ftctl apply --force --node 1 $cfg > /dev/null && ftctl show -j" | jq '.nodes | length') ||
	fail "the initial user namespace could not configure 9 nodes at 500us"
[ "$n_init" = 9 ] || fail "the initial namespace's instance holds $n_init of 9 nodes"
log "the same file in the initial user namespace: 9 nodes at 500us"

# --- 2. configuration by user namespaces switched off
echo N > "$P/userns_config"
user_config "$cfg" 2 10ms
out=$(as_user_ns ftctl apply --force --node 1 "$cfg" 2>&1) && fail "userns_config=N, yet a user namespace configured its instance"
grep -q 'userns_config' <<< "$out" || fail "no error naming userns_config: $out"
log "userns_config=N: refused: $out"
echo Y > "$P/userns_config"

# --- 3. openers, counted per instance: a namespace of our own has none.
echo 4 > "$P/max_openers"
ip netns add "$FTD_NS_PREFIX-open"
ip netns exec "$FTD_NS_PREFIX-open" bash -c '
	exec 6< /dev/ftdetect 7< /dev/ftdetect 8< /dev/ftdetect 9< /dev/ftdetect || exit 3
	if exec 5< /dev/ftdetect; then echo "opened a 5th"; exit 1; fi
	exec 6<&-
	exec 5< /dev/ftdetect || { echo "no room after a close"; exit 1; }
' 2> "$FTD_TMP/open.err" > "$FTD_TMP/open.out" || fail "max_openers=4: $(cat "$FTD_TMP/open.out" "$FTD_TMP/open.err")"
grep -qi 'too many open files' "$FTD_TMP/open.err" || fail "the 5th open did not fail with EMFILE: $(cat "$FTD_TMP/open.err")"
log "max_openers=4: a 5th open fails with EMFILE, a close makes room"

# --- 4. RDMA rails outside the initial network namespace
user_config "$cfg" 2 10ms "rdma = 0"
out=$(as_user_ns sh -c "ftctl apply --force --node 1 $cfg; echo status=\$?; ftctl show -j" 2>&1) || true
grep -q 'status=0' <<< "$out" && fail "RDMA rails accepted in a user's network namespace: $out"
grep -q 'only in the initial network namespace' <<< "$out" ||
	fail "no reason given for refusing RDMA rails in a user namespace: $out"
held=$(sed -n '/^{/,$p' <<< "$out" | jq '.rdma_rails // [] | length' 2> /dev/null || echo "?")
[ "$held" = 0 ] || fail "the user's instance holds RDMA rails ($held) after the refusal: $out"
log "RDMA rails in a user namespace: refused: $(grep -m1 'initial network' <<< "$out")"
chown root:root "$cfg"
ip netns add "$FTD_NS_PREFIX-rdma"
out=$(ip netns exec "$FTD_NS_PREFIX-rdma" ftctl apply --force --node 1 "$cfg" 2>&1) &&
	fail "RDMA rails accepted in root's second network namespace: $out"
grep -q 'only in the initial network namespace' <<< "$out" ||
	fail "no reason given for refusing RDMA rails in a second network namespace: $out"
log "RDMA rails in another network namespace of root: refused: $out"
log "ok"
