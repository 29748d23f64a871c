#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# memory.sh: what a node table of N nodes costs the kernel, and how long
# `ftctl apply` takes to load it. For each number of rails of
# BENCH_MEM_RAILS (default 1 2) and each N of BENCH_MEM_NODES (default
# 1000 4000 16000 64000 100000), a fresh namespace holds one instance whose file
# lists N nodes (node 1 is the namespace's own addresses on a dummy
# interface; the others are addresses of 2001:db8::/64 and
# 2001:db8:1::/64 that no frame ever reaches: the dummy drops what is
# sent). Measured, as the guest sees it:
#
#   - slab and per-CPU memory (/proc/meminfo SUnreclaim, Percpu) after the
#     apply less before, per node (the kernel's other users of the same
#     caches make the small N noisy);
#   - what the module says it holds (`ftctl stats`: mem_nodes, mem_ranks,
#     route_caches): its node table without the indexes, and its route
#     caches, which are only for the nodes the timer sends to every tick;
#   - the wall time of the apply: one ADD_NODE per node;
#   - the same after `ftctl down` and the namespace's removal, to show it
#     is all given back.
#
# No node holds ranks here: a peer's rank table (FTD_RANKS_FIRST entries,
# doubled as it fills up to FTD_RANKS_PER_NODE) is allocated on its first
# registration. Output: a table, and
# build/bench/memory.json.
source "$(dirname "$0")/lib.sh"

NODES_LIST=${BENCH_MEM_NODES:-1000 4000 16000 64000 100000}
RAILS_LIST=${BENCH_MEM_RAILS:-1 2}
OUT=$BENCH_OUT/memory.json
NS=ftb-memory

# meminfo: "SUnreclaim Percpu" of the guest, in bytes.
meminfo() {
	awk '$1 == "SUnreclaim:" { s = $2 } $1 == "Percpu:" { p = $2 }
	     END { print s * 1024, p * 1024 }' /proc/meminfo
}

# settle: let deferred frees (RCU, per-CPU caches) land before a reading.
settle() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
	sleep 2
}

write_conf() { # FILE N RAILS
	local i
	{
		echo "[cluster]"
		echo "id = 43"
		echo "port = 7062"
		echo "period = 1s"
		echo "timeout = 10s"
		echo "key = 000102030405060708090a0b0c0d0e0f"
		echo
		echo "[nodes]"
		for ((i = 1; i <= $2; i++)); do
			# Two groups: a node past 65,535 does not fit in one.
			if [ "$3" = 1 ]; then
				printf '%d 2001:db8::%x:%x\n' "$i" $((i >> 16)) $((i & 0xffff))
			else
				printf '%d 2001:db8::%x:%x 2001:db8:1::%x:%x\n' "$i" $((i >> 16)) \
					$((i & 0xffff)) $((i >> 16)) $((i & 0xffff))
			fi
		done
	} > "$1"
	chmod 600 "$1"
}

: > "$FTD_TMP/results"
for R in $RAILS_LIST; do
for N in $NODES_LIST; do
	conf=$FTD_TMP/memory.$N.conf
	write_conf "$conf" "$N" "$R"
	ip netns add "$NS" || bench_fail "$OUT" memory "cannot make namespace $NS"
	ip -n "$NS" link add d0 type dummy
	ip netns exec "$NS" sysctl -qw net.ipv6.conf.all.accept_dad=0 net.ipv6.conf.default.accept_dad=0
	ip -n "$NS" addr add 2001:db8::1/64 dev d0 nodad
	ip -n "$NS" addr add 2001:db8:1::1/64 dev d0 nodad
	ip -n "$NS" link set d0 up
	settle
	read -r slab0 pcpu0 <<< "$(meminfo)"
	t0=$(now_ns)
	ip netns exec "$NS" ftctl apply --node 1 "$conf" > /dev/null 2> "$FTD_TMP/apply.err" ||
		bench_fail "$OUT" memory "ftctl apply of $N nodes failed: $(cat "$FTD_TMP/apply.err")"
	t1=$(now_ns)
	held=$(ip netns exec "$NS" ftctl show -j | jq '.nodes | length')
	[ "$held" = "$N" ] || bench_fail "$OUT" memory "the instance holds $held nodes, not $N"
	settle
	read -r slab1 pcpu1 <<< "$(meminfo)"
	reported=$(ip netns exec "$NS" ftctl stats -j | jq -c '{mem_nodes, mem_ranks, route_caches}')
	ip netns exec "$NS" ftctl down > /dev/null
	ip netns del "$NS"
	settle
	read -r slab2 pcpu2 <<< "$(meminfo)"
	jq -n --argjson n "$N" --argjson rails "$R" --argjson apply_ns $((t1 - t0)) \
		--argjson slab $((slab1 - slab0)) --argjson pcpu $((pcpu1 - pcpu0)) \
		--argjson slab_left $((slab2 - slab0)) --argjson pcpu_left $((pcpu2 - pcpu0)) \
		--argjson reported "$reported" \
		'{nodes: $n, rails: $rails, apply_ns: $apply_ns, apply_ns_per_node: ($apply_ns / $n | floor),
		  reported: $reported, reported_bytes_per_node: ($reported.mem_nodes / $n | floor),
		  slab_bytes: $slab, percpu_bytes: $pcpu,
		  bytes_per_node: (($slab + $pcpu) / $n | floor),
		  slab_bytes_per_node: ($slab / $n | floor), percpu_bytes_per_node: ($pcpu / $n | floor),
		  left_after_down_bytes: ($slab_left + $pcpu_left)}' >> "$FTD_TMP/results"
	echo "# $N nodes, $R rail(s): applied in $(( (t1 - t0) / 1000000 )) ms" >&2
done
done

jq -s --argjson env "$(bench_env)" --arg cpus "$(nproc)" '
	{benchmark: "memory", env: $env, measured: true, cpus: ($cpus | tonumber),
	 note: "kernel memory of an instance holding N nodes without ranks (SUnreclaim + Percpu deltas in the guest, so other kernel users add noise) and the wall time of ftctl apply loading them (one ADD_NODE each; TCG-emulated guest). reported: what the module says it holds (ftctl stats: its node table without the indexes, rank tables, route caches). Per-CPU memory no longer grows with the nodes: route caches (an entry per CPU each) are held only for the nodes the timer sends to every tick.",
	 runs: .}' "$FTD_TMP/results" > "$OUT"

echo "# node table memory and load time ($(bench_env | jq -r .virtualization), $(nproc) CPU)"
printf '%6s %8s %10s %12s %12s %12s %12s %14s %14s %7s\n' RAILS NODES APPLY_S US/NODE SLAB_B/NODE PCPU_B/NODE BYTES/NODE LEFT_AFTER_KB REPORTED_B/NODE ROUTES
jq -r '.runs[] | [.rails, .nodes, .apply_ns / 1e9, .apply_ns_per_node / 1e3, .slab_bytes_per_node,
	.percpu_bytes_per_node, .bytes_per_node, .left_after_down_bytes / 1024,
	.reported_bytes_per_node, .reported.route_caches] | @tsv' "$OUT" |
awk -F'\t' '{ printf "%6d %8d %10.1f %12.1f %12d %12d %12d %14d %14d %7d\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 }'
echo "# -> $OUT"
