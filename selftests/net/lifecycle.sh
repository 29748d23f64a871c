#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lifecycle.sh: the module's life under load, the ways a cluster node sees
# it (the kernel log is judged by the harness afterwards: any WARNING, BUG,
# and on the debug kernel KASAN, lockdep or a kmemleak report, fails it).
#
#   1. a file opened in node 3's namespace, held by a process that left it;
#      the namespace is deleted: its instance lives on with the file, and
#      goes (torn down while up) when the file is closed.
#   2. the other nodes (15, or FTD_LIFECYCLE_NODES - 1) heartbeat at 1 ms;
#      on three of them, one reader
#      blocked in read(2), one in poll(2), one holding only a mapping of the
#      status table: rmmod is refused (the files pin the module) and changes
#      nothing; once they are gone, rmmod succeeds under the running cluster.
#   3. namespaces deleted while their instance is up: 4 of them, or
#      FTD_LIFECYCLE_NETNS (each teardown takes seconds under TCG).
#   4. unload/load cycles, each with an instance up at 1 ms: 20, or
#      FTD_LIFECYCLE_CYCLES (more on the debug kernel or in a soak).
# The cluster comes up once: bringing 16 nodes up at 1 ms takes ~40 s here.
# On the debug kernel (make test-debug: FTD_LIFECYCLE_NODES=6) 16 nodes at
# 10 ms (scale 10) never all came up in 25 minutes: their softirq load,
# under KASAN on one emulated CPU, left user space almost no time.
#
#   n1 .. n16 ── br0
source "$(dirname "$0")/../lib.sh"

N=${FTD_LIFECYCLE_NODES:-16}
[[ $N =~ ^[0-9]+$ ]] && ((N >= 4)) || fail "FTD_LIFECYCLE_NODES must be 4 or more (node 3 and three holders)"
cluster_create "$N"
cluster_up "$(scaled 1)ms" "$(scaled 50)ms"
# instances_up [NODE...]: each (default: all) has its instance up.
instances_up() {
	local i nodes=("$@")
	[ ${#nodes[@]} -gt 0 ] || nodes=($(seq 1 "$N"))
	for i in "${nodes[@]}"; do
		[[ $(n "$i" ftctl show -j) == *'"up":true'* ]] || return 1
	done
}
# Up and sending is what matters here, not whether 16 nodes at 1 ms stay
# all alive on one emulated CPU.
wait_until 30 instances_up || fail "the $N instances did not come up"

# lap: $lap, the seconds since the last lap (each part's cost, for the
# suite's time budget). Not in $(...): the mark must move in this shell.
mark=$SECONDS
lap() { lap="$((SECONDS - mark)) s"; mark=$SECONDS; }

# --- 1. a namespace whose last reference is a file
ip netns exec "$(ns_of 3)" ftd-hold -o /proc/1/ns/net read 2> "$FTD_TMP/hold3.err" &
held=$!
wait_until 10 grep -q ready "$FTD_TMP/hold3.err" || fail "ftd-hold -o did not start"
ip netns del "$(ns_of 3)"
sleep 0.5
[ "$(node_state 1 3)" = alive ] || log "node 3 is $(node_state 1 3) at node 1 with its namespace unnamed"
kill "$held"
wait "$held" 2> /dev/null || true
gone() { case $(node_state 1 3) in dead|left) return 0;; esac; return 1; }
# The namespace goes when cleanup_net runs; on the debug kernel that took
# over 300 s (scale 10) behind 16 nodes' softirq load: a generous limit.
wait_until 60 gone || fail "node 3's instance did not go with its namespace (node 1 holds it $(node_state 1 3))"
lap
log "node 3's namespace deleted under a held file; closed: its instance went, node 1 holds it $(node_state 1 3) ($lap)"

# --- 2. rmmod under held files, on the nodes still up
others=($(seq 1 "$N" | grep -vx 3))
# Files on three of them, one of each kind each: any one file pins the
# module. (On every node, 45 processes took 90 s to start under TCG
# behind 15 nodes at 1 ms.)
holding=(1 2 "$N")
holders=()
for i in "${holding[@]}"; do
	for how in read poll map; do
		ip netns exec "$(ns_of "$i")" ftd-hold "$how" 2>> "$FTD_TMP/hold.err" &
		holders+=($!)
	done
done
all_ready() { [ "$(grep -c ready "$FTD_TMP/hold.err")" -ge ${#holders[@]} ]; }
wait_until 60 all_ready ||
	fail "the readers did not all start: $(cat "$FTD_TMP/hold.err")"
rmmod ftdetect 2> "$FTD_TMP/rmmod.err" && fail "rmmod succeeded with /dev/ftdetect held open and mapped"
[ -c /dev/ftdetect ] && instances_up "${others[@]}" || fail "a refused rmmod changed something"
log "rmmod with ${#others[@]} nodes at 1 ms, ${#holders[@]} files held on ${#holding[@]} of them (read, poll, mapped only): refused ($(cat "$FTD_TMP/rmmod.err"))"
kill "${holders[@]}"
wait "${holders[@]}" 2> /dev/null || true
t0=$(now_ns)
wait_until 10 rmmod ftdetect || fail "rmmod failed once the files were closed"
lap
log "then rmmod with the ${#others[@]} instances up and sending: $(( ($(now_ns) - t0) / 1000000 )) ms ($lap)"
insmod "$FTD_KO" || fail "insmod failed"

# --- 3. namespaces deleted while up
netns_rounds=${FTD_LIFECYCLE_NETNS:-4}
for ((k = 0; k < netns_rounds; k++)); do
	ns=$FTD_NS_PREFIX-gone$k
	ip netns add "$ns"
	# --force: the namespace has no interface with node 1's address.
	ip netns exec "$ns" ftctl apply --force --node 1 "$FTD_CONF" > /dev/null ||
		fail "ftctl apply in $ns failed"
	[[ $(ip netns exec "$ns" ftctl show -j) == *'"up":true'* ]] || fail "$ns: instance not up"
	ip netns del "$ns"
done
lap
log "$netns_rounds namespaces deleted with their instance up ($lap)"

# --- 4. unload/load cycles with an instance up
cycles=${FTD_LIFECYCLE_CYCLES:-20}
for ((k = 0; k < cycles; k++)); do
	rmmod ftdetect || fail "cycle $k: rmmod failed"
	insmod "$FTD_KO" || fail "cycle $k: insmod failed"
	n 1 ftctl apply "$FTD_CONF" > /dev/null || fail "cycle $k: ftctl apply failed"
done
lap
log "$cycles unload/load cycles, each with node 1 up at 1 ms ($lap)"
log "ok"
