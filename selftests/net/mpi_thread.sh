#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mpi_thread.sh FLAVOUR: FTD_MPI_THREAD=0 in the environment (ftdetect_mpi(3):
# "as FTD_MPI_NO_THREAD": no watcher thread, the application calls
# ftd_mpi_progress()) holds for the whole process, also when the process
# registers explicitly (ftd_mpi_register) before its first attach. Each
# rank of a 2-rank job on 2 nodes (selftests/mpi/mpi_watch --register 77)
# registers, then attaches; the library's attach line (FTD_MPI_JSON) must
# say "thread":false at every rank. So must the first attach's flag
# FTD_MPI_NO_THREAD (mpi_watch --no-thread) with FTD_MPI_THREAD=1. The
# control: FTD_MPI_THREAD=1 alone says "thread":true. (Until 6 December
# 2026 the explicit registration opened the process with a watcher, and
# the attach after it started one whatever the variable or the flag said.)
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../lib-mpi.sh"
test_start=$(now_ns)

FLAVOUR=$(mpi_resolve "${1:?usage: mpi_thread.sh openmpi|mpich|ulfm|FLAVOUR}")
N=2 RANKS=2 JOB=77
mpi_require "$FLAVOUR"
PROG=$FTD_ROOT/build/selftests/mpi_watch.$FLAVOUR
[ -x "$PROG" ] || skip "$PROG not built (make all)"

cluster_create "$N"
cluster_up "$(scaled 10)ms" "$(scaled 1000)ms"
wait_until 60 all_alive || not_up "cluster did not come up"

mpi_glue_job "$FLAVOUR"
# Open MPI's launchers pass on only the variables they are told of.
case $(mpi_family "$FLAVOUR") in
openmpi | prrte) FTD_MPI_ARGS+=" -x FTD_MPI_THREAD" ;;
esac

# job NAME THREAD [ARG...]: run the job with FTD_MPI_THREAD=THREAD (and
# mpi_watch's ARGs) until every rank has attached; each rank's "thread"
# from its attach line, one a line, in $FTD_TMP/thread.NAME.
job() {
	local name=$1 w=$FTD_TMP/watch.$1 out=$FTD_TMP/job.$1.out r
	shift
	mkdir "$w"
	rm -f "$FTD_TMP"/glue.*
	# shellcheck disable=SC2034 # lib.sh's cleanup runs it on a failure
	FTD_ON_FAIL="show_files $out $w/watch.* $FTD_TMP/glue.*"
	export FTD_MPI_THREAD=$1
	shift
	mpi_start "$out" "$FLAVOUR" "$RANKS" $(seq 1 "$N") -- \
		"$PROG" --dir "$w" --register "$JOB" --limit 120 "$@"
	mpi_wait_output "$w/watch.0" "^ready size=$RANKS\$" 150
	: > "$FTD_TMP/thread.$name"
	for ((r = 0; r < RANKS; r++)); do
		grep -q "^register rank=$r rc=0\$" "$w/watch.$r" ||
			fail "rank $r: ftd_mpi_register failed: $(cat "$w/watch.$r")"
		grep '^ftd_mpi attach: ' "$FTD_TMP/glue.$r" | grep -o '"thread":[a-z]*' \
			>> "$FTD_TMP/thread.$name" || fail "rank $r: no attach line from the library"
	done
	touch "$w/stop"
	wait_until 10 eval "! kill -0 $FTD_MPI_PID 2>/dev/null" || kill "$FTD_MPI_PID" 2> /dev/null || true
}

# expect NAME THREAD: every rank's attach line said "thread":THREAD.
expect() {
	[ "$(sort -u "$FTD_TMP/thread.$1")" = "\"thread\":$2" ] ||
		fail "$1: expected \"thread\":$2 at every rank, got: $(tr '\n' ' ' < "$FTD_TMP/thread.$1")"
}

job env 0
expect env false
log "FTD_MPI_THREAD=0, ftd_mpi_register before ftd_mpi_attach: no watcher at any of the $RANKS ranks"
job flag 1 --no-thread
expect flag false
log "FTD_MPI_NO_THREAD at the first attach, after ftd_mpi_register: no watcher either"
job control 1
expect control true
log "FTD_MPI_THREAD=1, the same job: a watcher at every rank"
log "ok ($(( ($(now_ns) - test_start) / 1000000 )) ms)"
