#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# memcg.sh: the status table is charged to the memory cgroup of the
# process that first maps it (an instance's owner may be an unprivileged
# user in a user namespace of its own: trust.md, "Resources are bounded").
# A table of ~50 MB (status_ranks raised) shows in that cgroup's
# memory.current while the instance holds it; from a cgroup whose
# memory.max is below it, the mapping fails with ENOMEM and nothing stays
# charged; with the limit lifted, the same maps.
source "$(dirname "$0")/../lib.sh"

P=$FTD_PARAMS
CG=/sys/fs/cgroup/ftd-memcg
save_params status_ranks
grep -qw memory /sys/fs/cgroup/cgroup.controllers 2> /dev/null ||
	skip "no memory controller in /sys/fs/cgroup (cgroup v2; the kernel needs CONFIG_MEMCG)"
# The cgroups go once cleanup has ended the processes in them.
trap 'cleanup; rmdir "$CG"/small "$CG"/big "$CG" 2> /dev/null || true' EXIT

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
