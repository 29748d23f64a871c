#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mpi_noft.sh FLAVOUR: Open MPI 5 (FLAVOUR: ulfm, the first MPI `make mpi`
# built with working ULFM, or another Open MPI 5 it built) launched
# *without* --with-ft ulfm, the way most jobs are launched: the job has no
# ULFM, however the library was built. 4 ranks of selftests/mpi/mpi_watch,
# one per node, no MPI call after a barrier.
#
#   1. every rank's library says so at its attach: "ulfm":false and
#      "revoke":false, and FTD_MPI_DEBUG why (mpi_ft_enable is false);
#   2. node 4 is cut off: every survivor's callback reports rank 3
#      (NODE_DEAD) in about the node timeout, as with ULFM, and the
#      library's PMIx report is made; whether the runtime ends the job on
#      it is logged (Open MPI 5.0.9 does not: without ULFM the report is
#      dropped, and the callback is the application's only news);
#   3. a second job, rank 2 killed: the runtime sees the exit itself and
#      ends the whole job; how soon is logged, within the limit below.
# Nothing is ever revoked.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../lib-mpi.sh"
test_start=$(now_ns)

FLAVOUR=$(mpi_resolve "${1:?usage: mpi_noft.sh ulfm|FLAVOUR}")
N=4 RANKS=4 CUT=4 CUT_RANK=3 KILLED=2
PERIOD_MS=$(scaled 10) TIMEOUT_MS=$(scaled 1000)
mpi_require "$FLAVOUR"
[ "$(mpi_family "$FLAVOUR")" = prrte ] || skip "$FLAVOUR is not Open MPI 5: only Open MPI 5 turns ULFM on at launch (--with-ft ulfm)"
PROG=$FTD_ROOT/build/selftests/mpi_watch.$FLAVOUR
[ -x "$PROG" ] || skip "$PROG not built (make all)"

cluster_create "$N"
cluster_up "${PERIOD_MS}ms" "${TIMEOUT_MS}ms"
wait_until 60 all_alive || not_up "cluster did not come up"
NODES=$(seq 1 "$N")

mpi_glue_job "$FLAVOUR"
# mpi_glue_job's launch, less --with-ft ulfm
FTD_MPI_ARGS="--mca coll ^han -x FTD_MPI_JSON -x FTD_MPI_DEBUG"
export FTD_MPI_DEBUG=1
W=$FTD_TMP/watch
out=$FTD_TMP/job.out
show_job() { show_files "$out" "$W"/watch.* "$FTD_TMP"/glue.*; mpi_signals; }
FTD_ON_FAIL=show_job

# job_start: a job of RANKS mpi_watch ranks; its launcher in $launcher.
job_start() {
	rm -rf "$W" "$FTD_TMP"/glue.*
	mkdir "$W"
	mpi_start "$out" "$FLAVOUR" "$RANKS" $NODES -- "$PROG" --dir "$W" --limit 280
	launcher=$FTD_MPI_PID
	mpi_wait_output "$W/watch.0" "^ready size=$RANKS\$" 150
}
pid_of() { sed -n "s/^start rank=$1 pid=\([0-9]*\) .*/\1/p" "$W/watch.$1"; }
reported() { grep -Eq "^callback rank=$1 cause=$2 ranks=([0-9]+,)*$3(,[0-9]+)* " "$W/watch.$1"; }
all_reported() {
	local r
	for r in $3; do reported "$r" "$1" "$2" || return 1; done
}
launcher_gone() { ! kill -0 "$launcher" 2> /dev/null; }
LIMIT=$(scaled 30)	# seconds from the loss to the job's end

# --- 1. the library knows the job has no ULFM
job_start
for ((r = 0; r < RANKS; r++)); do
	grep -q '^ftd_mpi attach: .*"ulfm":false,"revoke":false,' "$FTD_TMP/glue.$r" ||
		fail "rank $r: the library did not see that the job has no ULFM: $(grep '^ftd_mpi attach' "$FTD_TMP/glue.$r")"
done
grep -aq "launched without --with-ft ulfm" "$out" ||
	fail "no rank's library said why there is no ULFM (FTD_MPI_DEBUG)"
log "every rank: \"ulfm\":false, \"revoke\":false, and why: $(grep -a -m1 -o 'Open MPI was launched without[^;]*' "$out")"

# --- 2. a node cut off: ftdetect's report, then the runtime ends the job
cut=$(now_ns)
cut_node "$CUT" > /dev/null
wait_until 20 all_reported NODE_DEAD "$CUT_RANK" "0 1 2" ||
	fail "not every survivor's callback reported rank $CUT_RANK (NODE_DEAD) within 20 s of node $CUT's cut"
log "node $CUT cut off: ranks 0-2 told of rank $CUT_RANK (NODE_DEAD) within $(( ($(now_ns) - cut) / 1000000 )) ms"
grep -aq "reported 1 failed process(es) to the runtime through PMIx" "$out" ||
	fail "no survivor's library reported rank $CUT_RANK through PMIx"
if wait_until 5 launcher_gone; then
	log "the runtime ended the job $(( ($(now_ns) - cut) / 1000000 )) ms after the cut"
else
	log "the runtime went on with the job 5 s after the survivors were told and the PMIx report made: without ULFM it does not act on it"
fi
for r in 0 1 2; do
	grep '^ftd_mpi callback: ' "$FTD_TMP/glue.$r" | grep -qv '"revoke":"unavailable"' &&
		fail "rank $r: a callback not saying \"revoke\":\"unavailable\": $(grep '^ftd_mpi callback: ' "$FTD_TMP/glue.$r")"
done
sw ftd-link "s${CUT}r0" up > /dev/null
wait_until 60 all_alive || fail "node $CUT did not rejoin"
# The job's end, if the runtime did not end it: the ranks detach and leave.
touch "$W/stop"
wait_until 60 launcher_gone || kill "$launcher" 2> /dev/null || true
wait "$launcher" 2> /dev/null || true

# --- 3. a rank killed: the runtime sees it itself
job_start
killed=$(now_ns)
kill -9 "$(pid_of "$KILLED")"
wait_until "$LIMIT" launcher_gone ||
	fail "the $FLAVOUR job without ULFM still ran $LIMIT s after rank $KILLED's kill"
rc=0
wait "$launcher" || rc=$?
log "rank $KILLED killed: the runtime ended the job $(( ($(now_ns) - killed) / 1000000 )) ms after, launcher exit status $rc"
log "ok ($(( ($(now_ns) - test_start) / 1000000 )) ms)"
