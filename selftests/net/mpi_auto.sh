#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mpi_auto.sh FLAVOUR: an MPI program that knows nothing of ftdetect
# (selftests/mpi/mpi_unaware.c: no header, no library of it), run with the
# glue preloaded and FTD_MPI_AUTO=1 (ftdetect_mpi(3)), 4 ranks on 4 nodes
# (FLAVOUR: openmpi or mpich, Debian's; ulfm, the first MPI `make mpi`
# built with working ULFM; or another MPI it built).
#
#   n1 n2 n3 n4 ── br0     rank r on node r + 1; rank 3 is the victim,
#                          every other rank waits in MPI_Recv from it
#
#   1. Every rank attached MPI_COMM_WORLD at MPI_Init, every member monitored (the
#      library's JSON account): nothing in the program asked for it.
#   2. openmpi, mpich (no ULFM): rank 3 killed with kill -9: every
#      survivor's library reported it (PROC_DEAD), once, within half the
#      node timeout. What the MPI then does (end the job) is its own.
#      ULFM: node 4 cut off: every survivor's MPI_Recv returned
#      MPIX_ERR_PROC_FAILED within two node timeouts of the cut (plus Open
#      MPI's reaction, 5 s here), because the library reported rank 3
#      through PMIx. Open MPI 5 alone does not return there within 60 s
#      (docs/benchmarks.md, ulfm). The survivors then shrink
#      MPI_COMM_WORLD, pass a barrier on it and finalize, and no survivor
#      is ever reported. (Until 2 December 2026 they exited without
#      MPI_Finalize after the barrier: a survivor still in it then lost a
#      peer that had failed, for ULFM as for ftdetect, and never printed;
#      that had been read as a hang in MPIX_Comm_shrink, 4 of 12 runs.)
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../lib-mpi.sh"

FLAVOUR=$(mpi_resolve "${1:?usage: mpi_auto.sh openmpi|mpich|ulfm|FLAVOUR}")
N=4 RANKS=4 VICTIM=3
PERIOD_MS=$(scaled 10) TIMEOUT_MS=$(scaled 1000)
mpi_require "$FLAVOUR"
ULFM=$(mpi_config "$FLAVOUR" HAVE_ULFM)
PROG=$FTD_ROOT/build/selftests/mpi_unaware.$FLAVOUR
GLUE=$FTD_ROOT/build/mpi/$FLAVOUR/libftdetect_mpi_$FLAVOUR.so.1
[ -x "$PROG" ] || skip "$PROG not built (make all)"
[ -e "$GLUE" ] || skip "$GLUE not built (make all)"

cluster_create "$N"
cluster_up "${PERIOD_MS}ms" "${TIMEOUT_MS}ms"
wait_until 60 all_alive || not_up "cluster did not come up"
watch_devices $(seq 1 "$N")
NODES=$(seq 1 "$N")

mpi_glue_job "$FLAVOUR"
out=$FTD_TMP/job.out
show_job() { show_files "$out" "$FTD_TMP"/glue.*; mpi_signals; }
FTD_ON_FAIL=show_job
# The preload and the switch reach the ranks only: env runs as each rank.
mpi_start "$out" "$FLAVOUR" "$RANKS" $NODES -- \
	env LD_PRELOAD="$GLUE" FTD_MPI_AUTO=1 FTD_MPI_JSON="$FTD_TMP/glue.%r" "$PROG" victim
for ((r = 0; r < RANKS; r++)); do
	mpi_wait_output "$out" "^ready rank=$r " 150
done

# json R WHAT: rank R's library's WHAT records, one JSON object a line.
json() { sed -n "s/^ftd_mpi $2: //p" "$FTD_TMP/glue.$1" 2> /dev/null; }
for ((r = 0; r < RANKS; r++)); do
	json "$r" attach | jq -e --argjson n "$RANKS" 'select(.comm == "MPI_COMM_WORLD" and .monitored == $n)' > /dev/null ||
		fail "rank $r: MPI_COMM_WORLD not attached and monitored: $(json "$r" attach)"
done
log "$FLAVOUR: every rank of a program that never calls ftdetect attached MPI_COMM_WORLD at MPI_Init (FTD_MPI_AUTO)"

SURVIVORS=$(seq 0 $((VICTIM - 1)))
# reports R CAUSE: rank R's library's callback records of rank $VICTIM for CAUSE.
reports() { json "$1" callback | jq -c --arg c "$2" --argjson v "$VICTIM" 'select(.cause == $c and .ranks == [$v])'; }
all_report() { local r; for r in $SURVIVORS; do [ -n "$(reports "$r" "$1")" ] || return 1; done; }

if [ "$ULFM" != 1 ]; then
	pid=$(sed -n "s/^ready rank=$VICTIM pid=\([0-9]*\)$/\1/p" "$out")
	[ -n "$pid" ] || fail "no pid of rank $VICTIM"
	killed=$(now_ns)
	kill -9 "$pid"
	wait_until 20 all_report PROC_DEAD || fail "not every survivor's library reported rank $VICTIM within 20 s"
	detail=
	for r in $SURVIVORS; do
		[ "$(reports "$r" PROC_DEAD | wc -l)" = 1 ] || fail "rank $r: rank $VICTIM reported $(reports "$r" PROC_DEAD | wc -l) times"
		delay=$(( ($(reports "$r" PROC_DEAD | jq .call_time_ns) - killed) / 1000 ))
		[ "$delay" -gt 0 ] && [ "$delay" -lt $((TIMEOUT_MS * 500)) ] ||
			fail "rank $r: rank $VICTIM reported $delay us after the kill, not within half the node timeout"
		detail+="${detail:+, }rank $r $delay us"
	done
	log "kill -9 of rank $VICTIM: every survivor's library reported it (PROC_DEAD) once: $detail"
	log ok
	exit 0
fi

cut=$(cut_node "$((VICTIM + 1))")
cut_ns=$(jq '.before_ns' <<< "$cut")
# grep -a: PRRTE's "N more processes have sent help message" starts with a NUL.
returned() { local r; for r in $SURVIVORS; do grep -aq "^returned rank=$r " "$out" || return 1; done; }
wait_until 30 returned || fail "not every survivor's MPI_Recv returned within 30 s of the cut"
detail=
for r in $SURVIVORS; do
	line=$(grep -a "^returned rank=$r " "$out")
	[[ $line == *" class=MPIX_ERR_PROC_FAILED "* ]] || fail "rank $r: $line"
	[[ $line =~ time_ns=([0-9]+) ]]
	delay=$(( (BASH_REMATCH[1] - cut_ns) / 1000000 ))
	[ "$delay" -lt $((2 * TIMEOUT_MS + $(scaled 5000))) ] ||
		fail "rank $r: MPI_Recv returned $delay ms after the cut, not within two node timeouts and 5 s"
	[ -n "$(reports "$r" NODE_DEAD)" ] || fail "rank $r: its library did not report rank $VICTIM (NODE_DEAD): $(json "$r" callback)"
	detail+="${detail:+, }rank $r $delay ms"
done
log "node $((VICTIM + 1)) cut off: every survivor's MPI_Recv returned MPIX_ERR_PROC_FAILED: $detail after the cut (node timeout $TIMEOUT_MS ms)"
# Recovery: every survivor shrinks MPI_COMM_WORLD to the survivors, passes
# a barrier on it and finalizes.
shrunk() { local r; for r in $SURVIVORS; do grep -aq "^shrunk rank=$r " "$out" || return 1; done; }
wait_until 30 shrunk ||
	fail "not every survivor came back from MPIX_Comm_shrink and a barrier on the new communicator within 30 s"
for r in $SURVIVORS; do
	line=$(grep -a "^shrunk rank=$r " "$out")
	[ "$line" = "shrunk rank=$r size=$VICTIM step=barrier class=MPI_SUCCESS" ] ||
		fail "rank $r did not recover: $line (expected size=$VICTIM, shrink and barrier successful)"
done
finalized() { local r; for r in $SURVIVORS; do grep -aq "^finalized rank=$r$" "$out" || return 1; done; }
wait_until 30 finalized || fail "not every survivor's MPI_Finalize returned within 30 s"
# Accuracy: a survivor's library reported no survivor, and each reported
# the victim once.
for r in $SURVIVORS; do
	others=$(json "$r" callback | jq -c --argjson v "$VICTIM" 'select(.ranks != [$v])')
	[ -z "$others" ] || fail "rank $r's library reported a survivor: $others"
	[ "$(json "$r" callback | wc -l)" = 1 ] || fail "rank $r's library reported rank $VICTIM more than once: $(json "$r" callback)"
done
log "the survivors shrank MPI_COMM_WORLD to $VICTIM ranks, passed a barrier on it and finalized; no survivor was reported"
log ok
