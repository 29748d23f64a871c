#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mpi_example.sh FLAVOUR: the example program of libftdetect_mpi,
# userspace/mpi/examples/mpi_iterate.c, as a real MPI job (FLAVOUR: openmpi
# or mpich, Debian's; ulfm, the first MPI `make mpi` built with working
# ULFM; or another MPI it built, by its name) of 6 ranks on 5 nodes, loses
# a rank (kill -9) and then a whole node (cut off, and fenced by its own
# lease) while it computes, and carries on.
#
# Without ULFM (farm mode): rank 0's sum over every iteration is the one it
# would be without a failure, and the surviving workers end normally.
# With ULFM (ulfm mode: an MPI_Allreduce per iteration): each loss makes
# the survivors' collective fail, they shrink the communicator and redo
# the iteration; each survivor says it went on with 5 and then 4 ranks;
# then a rank is killed and another node cut off in the same instant, and
# the last two survivors go on with 2 ranks; their sums are right and
# MPI_Finalize returns. A second argument,
# revoke, launches Open MPI 5 with every process added at MPI_Init
# (mpi_add_procs_cutoff above the job's size), so that the library revokes
# the communicator as well (ftdetect_mpi(3), ULFM); the test checks which
# it did: revoked, or not, as decided.
#
#   node 1: ranks 0 5   node 2: rank 1   node 3: rank 2   node 4: rank 3
#   node 5: rank 4
#
# The launchers are told to let the job outlive a rank, as the example's
# comment says (Open MPI: orte_enable_recovery; MPICH: -disable-auto-cleanup).
# Without ULFM the survivors then leave without MPI_Finalize, which would
# wait for the dead or fail (ftdetect_mpi(3)): the job must end all the same;
# the launcher's exit status after the losses is logged, not checked.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../lib-mpi.sh"
test_start=$(now_ns)

FLAVOUR=$(mpi_resolve "${1:?usage: mpi_example.sh openmpi|mpich|ulfm|FLAVOUR}")
N=5 RANKS=6 KILLED=3 CUT=3 CUT_RANK=2 ITERS=300
# ULFM mode only: then rank 5 killed and node 2 (rank 1) cut off at once.
KILLED2=5 CUT2=2 CUT2_RANK=1
mpi_require "$FLAVOUR"
PROG=$FTD_ROOT/build/mpi/$FLAVOUR/mpi_iterate
[ -x "$PROG" ] || skip "$PROG not built (make all)"
MODE=farm
[ "$(mpi_config "$FLAVOUR" HAVE_ULFM)" = 1 ] && MODE=ulfm
log "$FLAVOUR: $(mpi_config "$FLAVOUR" DESCRIPTION), mode $MODE"

cluster_create "$N"
# A 1 s node timeout, as in mpi_glue.sh: six ranks polling on the VM's one
# emulated vCPU starve the observers now and then, and a node declared dead
# by mistake would be fenced and lose its ranks too (a right sum, but not
# the failures this test counts).
cluster_up "$FTD_TEST_PERIOD" "$(scaled 1000)ms"
wait_until 60 all_alive || not_up "cluster did not come up"
NODES=$(seq 1 "$N")

# The library's account ($FTD_TMP/glue.R) gives the pids and the callbacks.
mpi_glue_job "$FLAVOUR"
REVOKE=${2:-}
if [ "$REVOKE" = revoke ]; then
	[ "$(mpi_family "$FLAVOUR")" = prrte ] || skip "$FLAVOUR is not Open MPI 5: its library revokes by default"
	FTD_MPI_ARGS+=" --mca mpi_add_procs_cutoff 1024"
fi
out=$FTD_TMP/job.out
show_job() { show_files "$out" "$FTD_TMP"/glue.*; mpi_signals; }
FTD_ON_FAIL=show_job

start=$(now_ns)
mpi_start "$out" "$FLAVOUR" "$RANKS" $NODES -- "$PROG" --iters "$ITERS" --work 20
launcher=$FTD_MPI_PID
mpi_wait_output "$out" "^mpi_iterate: $RANKS ranks, $ITERS iterations, mode $MODE" 150
log "$FLAVOUR: mpi_iterate running, $(( ($(now_ns) - start) / 1000000 )) ms after the job's start"
# pid_of R: rank R's pid, from its first attach (ulfm mode attaches again after each shrink).
pid_of() { sed -n "s/^ftd_mpi attach: {\"pid\":\([0-9]*\),.*/\1/p" "$FTD_TMP/glue.$1" | head -n 1; }
if [ "$MODE" = ulfm ]; then
	# A write to a just-dead peer's connection raises SIGPIPE, which would
	# end a survivor without a word: a ULFM job's library ignores it
	# (ftdetect_mpi(3), FTD_MPI_SIGPIPE).
	all_ignore_sigpipe() {
		local r p
		for ((r = 0; r < RANKS; r++)); do
			p=$(pid_of "$r")
			[ -n "$p" ] && mpi_ignores "$p" 13 || return 1
		done
	}
	wait_until 30 all_ignore_sigpipe ||
		fail "not every rank ignores SIGPIPE: $(for ((r = 0; r < RANKS; r++)); do echo "rank $r: pid $(pid_of "$r") $(grep SigIgn "/proc/$(pid_of "$r")/status" 2>&1);"; done)"
	log "every rank ignores SIGPIPE"
fi
# callback_at R CAUSE X: rank R's library reported rank X with CAUSE.
callback_at() {
	grep -Eq "^ftd_mpi callback: .*\"cause\":\"$2\",\"ranks\":\[([0-9]+,)*$3(,[0-9]+)*\]" \
		"$FTD_TMP/glue.$1"
}
result_of() { grep -a "^mpi_iterate result: {\"rank\":$1," "$out" || true; }
# went_on R N: rank R (ulfm mode) shrank to N ranks and went on
went_on() { grep -aq "^mpi_iterate: rank $1: iteration [0-9]* failed (error class [0-9]*), going on with $2 ranks" "$out"; }
all_went_on() {
	local r n=$1
	shift
	for r in "$@"; do went_on "$r" "$n" || return 1; done
}

sleep 2
result_of 0 | grep -q . && fail "the job ended before the failures (too fast: raise ITERS)"
kill -9 "$(pid_of "$KILLED")"
wait_until 20 callback_at 0 PROC_DEAD "$KILLED" || fail "rank 0 was not told of rank $KILLED's death"
log "rank $KILLED killed: rank 0 told (PROC_DEAD)"
if [ "$MODE" = ulfm ]; then
	wait_until 60 all_went_on 5 0 1 2 4 5 || fail "not every survivor shrank to 5 ranks within 60 s of rank $KILLED's death"
	log "every survivor's iteration failed, and each went on with 5 ranks"
fi

sleep 1
cut_node "$CUT" > /dev/null
wait_until 20 callback_at 0 NODE_DEAD "$CUT_RANK" || fail "rank 0 was not told of node $CUT's death"
log "node $CUT cut off: rank 0 told that rank $CUT_RANK is lost (NODE_DEAD)"
sleep 1
sw ftd-link "s${CUT}r0" up > /dev/null
wait_until 30 pid_gone "$(pid_of "$CUT_RANK")" || fail "rank $CUT_RANK outlived its node's fencing"
log "node $CUT back: it had fenced itself, rank $CUT_RANK ended by the library"
result_of 0 | grep -q . && fail "the job ended before the node came back (too fast: raise ITERS)"

if [ "$MODE" = ulfm ]; then
	wait_until 60 all_went_on 4 0 1 4 5 || fail "not every survivor shrank to 4 ranks within 60 s of node $CUT's death"
	log "every survivor's iteration failed again, and each went on with 4 ranks"
	# Two deaths at once: a rank killed and another node cut off in the
	# same instant. The survivors may learn of them together or one after
	# the other; either way each ends with 2 ranks.
	result_of 0 | grep -q . && fail "the job ended before the double loss (too fast: raise ITERS)"
	kill -9 "$(pid_of "$KILLED2")"
	cut_node "$CUT2" > /dev/null
	wait_until 60 all_went_on 2 0 4 || fail "ranks 0 and 4 did not both go on with 2 ranks within 60 s of losing rank $KILLED2 and node $CUT2 at once"
	log "rank $KILLED2 killed and node $CUT2 cut off at once: ranks 0 and 4 each went on with 2 ranks"
	sleep 1
	sw ftd-link "s${CUT2}r0" up > /dev/null
	wait_until 30 pid_gone "$(pid_of "$CUT2_RANK")" || fail "rank $CUT2_RANK outlived its node's fencing"
	want=true
	[ "$(mpi_family "$FLAVOUR")" = prrte ] && [ "$REVOKE" != revoke ] && want=false
	for r in 0 4; do
		grep -q "^ftd_mpi attach: .*\"revoke\":$want," "$FTD_TMP/glue.$r" ||
			fail "rank $r: the library did not decide revoke=$want: $(grep '^ftd_mpi attach' "$FTD_TMP/glue.$r")"
	done
	log "the library's revoke: $want, as decided"
	for r in 0 4; do
		wait_until 240 eval "result_of $r | grep -q ." || fail "rank $r did not finish within 240 s"
		res=$(result_of "$r")
		[[ $res == *'"ok":true,"ranks_left":2,'* ]] || fail "rank $r: $res"
	done
	log "ranks 0 and 4: every sum right, 2 ranks left: $(result_of 0)"
	# MPI_Finalize returned: the survivors' processes end
	running() {
		local r
		for r in 0 4; do
			kill -0 "$(pid_of "$r")" 2> /dev/null && echo -n " $r"
		done
	}
	wait_until 60 eval '[ -z "$(running)" ]' ||
		fail "ranks still running 60 s after their results (in MPI_Finalize?):$(running)"
	log "the survivors finalized: MPI_Finalize returned at ranks 0 and 4"
	# The launcher is Open MPI's: PRRTE has no daemon heartbeat, and may
	# never learn that the fenced rank ended while its node was cut off.
	if wait_until 30 eval '! kill -0 $launcher 2>/dev/null'; then
		rc=0
		wait "$launcher" || rc=$?
		log "the $FLAVOUR launcher ended, exit status $rc"
	else
		log "the $FLAVOUR launcher had not ended 30 s after the survivors (its runtime's own view of the cut-off node); stopped by the cleanup"
	fi
	log "ok ($(( ($(now_ns) - test_start) / 1000000 )) ms)"
	exit 0
fi

wait_until 240 eval 'result_of 0 | grep -q .' || fail "rank 0 did not finish within 240 s"
res=$(result_of 0)
[[ $res == *'"ok":true'* && $res == *'"failed":2}' ]] ||
	fail "rank 0's result is not the failure-free sum with 2 ranks lost: $res"
log "rank 0: $res"
for r in 1 4 5; do
	wait_until 30 eval "result_of $r | grep -q ." || fail "worker $r did not finish"
	[[ $(result_of "$r") == *'"ok":true'* ]] || fail "worker $r: $(result_of "$r")"
done
log "workers 1, 4 and 5 finished normally; the lost work was redone (see 'goes to another rank': $(grep -c 'goes to another rank' "$out" || true) task(s))"
for r in 0 1 4 5; do
	wait_until 10 grep -q "^mpi_iterate: rank $r: ranks were lost: leaving without MPI_Finalize" "$out" ||
		fail "rank $r did not leave as the example does after a loss"
done
wait_until 60 eval '! kill -0 $launcher 2>/dev/null' || fail "the $FLAVOUR job did not end within 60 s of its results"
rc=0
wait "$launcher" || rc=$?
log "the survivors left without MPI_Finalize; the $FLAVOUR launcher ended, exit status $rc"
log "ok ($(( ($(now_ns) - test_start) / 1000000 )) ms)"
