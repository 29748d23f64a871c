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
#   4. The status table is charged to the memory cgroup of the process
#      that first maps it: a table of ~50 MB (status_ranks raised) shows in
#      that cgroup's memory.current while the instance holds it, and a
#      cgroup whose memory.max is below it gets ENOMEM, nothing held.
#
# No traffic: the user's instance is never brought up on a real address.
source "$(dirname "$0")/../lib.sh"

P=/sys/module/ftdetect/parameters
for p in userns_max_nodes userns_min_period_us userns_config max_openers status_ranks; do
	[ -w "$P/$p" ] || fail "module parameter $p missing or not writable"
done
saved=()
for p in userns_max_nodes userns_min_period_us userns_config max_openers status_ranks; do
	saved+=("$p=$(cat "$P/$p")")
done
CG=/sys/fs/cgroup/ftd-bounds
restore() {
	local kv
	for kv in "${saved[@]}"; do echo "${kv#*=}" > "$P/${kv%%=*}"; done
	cleanup
	rmdir "$CG"/small "$CG"/big "$CG" 2> /dev/null || true
}
trap restore EXIT

# as_user_ns CMD...: run CMD as nobody, in a new user namespace (mapped to
# root inside) with its own network namespace, as an unprivileged user on
# a cluster node would.
as_user_ns() {
	setpriv --reuid=65534 --regid=65534 --clear-groups -- unshare -Urn -- "$@"
}
as_user_ns true 2> /dev/null ||
	skip "unprivileged user namespaces are disabled on this kernel (unshare -Urn as nobody failed)"

# A config of N nodes (the local one first) with PERIOD, readable by nobody.
user_config() { # FILE N PERIOD
	local i
	{
		printf '[cluster]\nid = 7\nperiod = %s\ntimeout = 50ms\n' "$3"
		echo "key = 000102030405060708090a0b0c0d0e0f"
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

# --- 4. the status table is charged to the memory cgroup that maps it
# hold_map CG NS: in cgroup CG and namespace NS, map the table and hold it
# (ftd-hold: the mapping keeps the file, and the file the table); its
# stderr in $FTD_TMP/hold.NS. Returns once it holds it, or 1 if it failed.
hold_map() {
	local err=$FTD_TMP/hold.$2
	bg sh -c 'echo $$ > "$0/cgroup.procs" && exec ip netns exec "$1" ftd-hold map' \
		"$1" "$FTD_NS_PREFIX-$2" 2> "$err"
	wait_until 30 grep -q 'ready\|mmap' "$err" || fail "ftd-hold map in $1 said nothing"
	grep -q ready "$err"
}
grep -qw memory /sys/fs/cgroup/cgroup.controllers 2> /dev/null ||
	skip "no memory controller in /sys/fs/cgroup (cgroup v2): cannot check the table's accounting"
echo +memory > /sys/fs/cgroup/cgroup.subtree_control
mkdir -p "$CG"
echo +memory > "$CG/cgroup.subtree_control"
mkdir "$CG/big" "$CG/small"
echo 1048576 > "$P/status_ranks"	# 48 bytes a rank: a table of ~50 MB
ip netns add "$FTD_NS_PREFIX-cg1"
ip netns add "$FTD_NS_PREFIX-cg2"
before=$(cat "$CG/big/memory.current")
hold_map "$CG/big" cg1 || fail "a table of 1048576 ranks could not be mapped: $(cat "$FTD_TMP/hold.cg1")"
held=$(( $(cat "$CG/big/memory.current") - before ))
log "a table of 1048576 ranks, mapped from a cgroup: its memory.current rose by $((held >> 20)) MiB"
(( held >= 48 << 20 )) || fail "the table is not charged to the cgroup that mapped it: $held bytes"
echo $((16 << 20)) > "$CG/small/memory.max"
hold_map "$CG/small" cg2 && fail "a table of ~50 MB was mapped from a cgroup limited to 16 MiB"
grep -q 'mmap: Cannot allocate memory' "$FTD_TMP/hold.cg2" ||
	fail "mapping past memory.max did not fail with ENOMEM: $(cat "$FTD_TMP/hold.cg2")"
log "the same from a cgroup limited to 16 MiB: $(cat "$FTD_TMP/hold.cg2"); $(( $(cat "$CG/small/memory.current") >> 20 )) MiB held there after it"
(( $(cat "$CG/small/memory.current") < 8 << 20 )) || fail "the failed mapping left memory charged"
# Nothing was held: with the limit lifted, the same maps.
echo max > "$CG/small/memory.max"
hold_map "$CG/small" cg2 || fail "the table could not be mapped once the limit was lifted: $(cat "$FTD_TMP/hold.cg2")"
log "ok"
