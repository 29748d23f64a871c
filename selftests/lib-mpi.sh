# SPDX-License-Identifier: GPL-2.0
#
# MPI jobs across the nodes (network namespaces) of a selftests/lib.sh
# cluster. Source it after lib.sh:
#
#   source "$(dirname "$0")/../lib.sh"
#   source "$(dirname "$0")/../lib-mpi.sh"
#   cluster_create 3
#   mpi_require openmpi                         # or: skip, with the reason
#   mpi_run openmpi 6 1 2 3 -- "$(mpi_prog openmpi)" -i 10
#
# The launcher (mpirun/mpiexec) runs in the namespace of the first node
# listed; it starts its daemons on the other nodes through
# selftests/mpi/netns-rsh (an ssh stand-in: `ip netns exec`), each process
# with its node's host name nI (selftests/mpi/node-host), and the ranks
# talk TCP over rail 0 (192.0.2.0/24). Rank r runs on node NODES[r mod n]
# (round robin, one rank per node per round). docs/testing.md, "MPI jobs".

FTD_MPI_RSH=$FTD_ROOT/selftests/mpi/netns-rsh
# Every MPI process runs with its node's host name, nI (node-host).
FTD_MPI_NODE_HOST=$FTD_ROOT/selftests/mpi/node-host
# The ranks' network: rail 0. Nothing else (lo, rail 1) carries MPI traffic.
FTD_MPI_NET=192.0.2.0/24
# Every netns-rsh call is logged here (which node, what command).
FTD_MPI_RSH_LOG=$FTD_TMP/mpi-rsh.log
export FTD_NS_PREFIX FTD_MPI_RSH_LOG

# A FLAVOUR is an MPI `make mpi` built the glue for (build/mpi/FLAVOUR/):
# Debian's openmpi and mpich, or another MPI it found (openmpi5, ...: see
# ftdetect_mpi(3), "Which MPIs"), or "ulfm": the first of them whose glue
# has ULFM (mpi_resolve).

# mpi_prog FLAVOUR: the test program built for FLAVOUR.
mpi_prog() { echo "$FTD_ROOT/build/selftests/mpi_ring.$1"; }

# mpi_config FLAVOUR NAME: FTD_MPI_NAME of FLAVOUR's build probe
# (build/mpi/FLAVOUR/ftd_mpi_config.h), quotes removed.
mpi_config() {
	local line file=$FTD_ROOT/build/mpi/$1/ftd_mpi_config.h
	[ -e "$file" ] || return 0
	while IFS= read -r line; do
		if [[ $line =~ ^\#define\ FTD_MPI_$2\ \"?([^\"]*)\"?$ ]]; then
			echo "${BASH_REMATCH[1]}"
			return
		fi
	done < "$file"
}

# mpi_family FLAVOUR: openmpi (its runtime ORTE, Open MPI < 5), prrte (Open
# MPI 5 and later), mpich, or nothing when unknown.
mpi_family() {
	case $1:$(mpi_config "$1" DESCRIPTION) in
	openmpi:*) echo openmpi ;;
	mpich:*) echo mpich ;;
	*:"Open MPI "*) if [ "$(mpi_config "$1" ORTE)" = 1 ]; then echo openmpi; else echo prrte; fi ;;
	*:MPICH*) echo mpich ;;
	esac
}

# mpi_launcher FLAVOUR: Debian's launcher for its MPIs, else the one beside
# the MPI's compiler wrapper.
mpi_launcher() {
	local bin
	case $1 in
	openmpi) echo mpirun.openmpi; return ;;
	mpich) echo mpiexec.mpich; return ;;
	esac
	bin=$(dirname "$(mpi_config "$1" WRAPPER)")
	case $(mpi_family "$1") in
	openmpi | prrte) echo "$bin/mpirun" ;;
	mpich) echo "$bin/mpiexec" ;;
	*) fail "no launcher known for MPI flavour $1 ($(mpi_config "$1" DESCRIPTION))" ;;
	esac
}

# mpi_resolve FLAVOUR: FLAVOUR, or for "ulfm" the first MPI built whose
# glue has ULFM; nothing if there is none.
mpi_resolve() {
	local d f
	if [ "$1" != ulfm ]; then
		echo "$1"
		return
	fi
	for d in "$FTD_ROOT"/build/mpi/*/; do
		f=$(basename "$d")
		if [ "$(mpi_config "$f" HAVE_ULFM)" = 1 ]; then
			echo "$f"
			return 0
		fi
	done
	return 0
}

# mpi_missing FLAVOUR: why FLAVOUR cannot run here (nothing if it can).
mpi_missing() {
	local launcher
	if [ -z "$1" ]; then
		echo "no MPI with working ULFM: make mpi found none (Debian 12's MPIs have none; an Open MPI 5 built with --with-ft=ulfm into /opt/NAME or given as MPICC=... is found, ftdetect_mpi(3))"
		return
	fi
	case $1 in
	openmpi | mpich) ;;
	*) [ -e "$FTD_ROOT/build/mpi/$1/ftd_mpi_config.h" ] ||
		{ echo "no MPI $1: make mpi did not build for it"; return; } ;;
	esac
	launcher=$(mpi_launcher "$1")
	command -v "$launcher" > /dev/null || { echo "$launcher not installed"; return; }
	[ -x "$(mpi_prog "$1")" ] || echo "$(mpi_prog "$1") not built (make all)"
}

# mpi_require FLAVOUR: skip the test unless FLAVOUR can run.
mpi_require() {
	local why
	why=$(mpi_missing "$1")
	[ -z "$why" ] || skip "$why"
}

# mpi_hosts NODES...: the rail-0 addresses of NODES, comma-separated.
mpi_hosts() {
	local i out=
	for i in "$@"; do
		out+=${out:+,}$(addr4 0 "$i")
	done
	echo "$out"
}

# mpi_run FLAVOUR NRANKS NODES... -- PROGRAM [ARG...]: run an MPI job of
# NRANKS ranks on NODES, from the first node's namespace, in the foreground;
# its output goes to stdout and stderr, its exit status is the launcher's.
# In the background: `mpi_run ... > FILE 2>&1 &` (cleanup kills what is
# left in the namespaces). FTD_MPI_ARGS adds launcher options. The launcher
# is stopped (SIGTERM, then SIGKILL 5 s later; exit status 124, or 137
# when it needed the SIGKILL) after FTD_MPI_TIMEOUT seconds, 120 times
# FTD_TEST_SCALE by default: a hung job fails its test, a job on a slow
# (debug) kernel is given the time the scale gives the rest.
mpi_run() {
	local flavour=$1 nranks=$2 nodes=() i per
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		nodes+=("$1")
		shift
	done
	[ $# -gt 1 ] || fail "usage: mpi_run FLAVOUR NRANKS NODES... -- PROGRAM [ARG...]"
	shift
	[ ${#nodes[@]} -gt 0 ] || fail "mpi_run: no nodes"
	per=$(( (nranks + ${#nodes[@]} - 1) / ${#nodes[@]} ))
	case $(mpi_family "$flavour") in
	openmpi)
		local hosts=
		for i in "${nodes[@]}"; do
			hosts+=${hosts:+,}$(addr4 0 "$i"):$per
		done
		# OMPI_MCA_*: so that orted, started by netns-rsh with this
		# environment, gets the same settings as mpirun. rtc ^hwloc: that
		# component maps the topology into shared memory at an address it
		# guesses free, and orted sometimes segfaults there in the VM
		# (hwloc_shmem_topology_write); it only serves binding, which is
		# off.
		n "${nodes[0]}" "$FTD_MPI_NODE_HOST" "n${nodes[0]}" env \
			OMPI_MCA_plm_rsh_agent="$FTD_MPI_RSH" \
			OMPI_MCA_btl=tcp,self \
			OMPI_MCA_btl_tcp_if_include="$FTD_MPI_NET" \
			OMPI_MCA_oob_tcp_if_include="$FTD_MPI_NET" \
			OMPI_MCA_oob_tcp_disable_ipv6_family=1 \
			OMPI_MCA_btl_tcp_disable_family=6 \
			OMPI_MCA_pml=ob1 \
			OMPI_MCA_orte_tmpdir_base=/tmp \
			OMPI_MCA_rmaps_base_oversubscribe=1 \
			OMPI_MCA_hwloc_base_binding_policy=none \
			OMPI_MCA_rtc=^hwloc \
			OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
			timeout -k 5 "${FTD_MPI_TIMEOUT:-$(scaled 120)}" "$(mpi_launcher "$flavour")" --host "$hosts" --map-by node -np "$nranks" \
			${FTD_MPI_ARGS:-} "$@"
		;;
	prrte)
		local hosts= bin
		bin=$(dirname "$(mpi_launcher "$flavour")")
		for i in "${nodes[@]}"; do
			hosts+=${hosts:+,}$(addr4 0 "$i"):$per
		done
		# PRRTE (Open MPI 5's runtime) starts its daemons (prted) through
		# netns-rsh, with this environment: its bin first on PATH, its
		# out-of-band and the ranks' TCP on rail 0. Each node has its
		# own host name (node-host), so PRRTE's session directories
		# (under /tmp, named by it) are each node's own.
		n "${nodes[0]}" "$FTD_MPI_NODE_HOST" "n${nodes[0]}" env \
			PATH="$bin:$PATH" \
			PRTE_MCA_plm_ssh_agent="$FTD_MPI_RSH" \
			PRTE_MCA_oob_tcp_if_include="$FTD_MPI_NET" \
			PRTE_MCA_oob_tcp_disable_ipv6_family=1 \
			PMIX_MCA_ptl_tcp_if_include="$FTD_MPI_NET" \
			OMPI_MCA_btl=tcp,self \
			OMPI_MCA_btl_tcp_if_include="$FTD_MPI_NET" \
			OMPI_MCA_btl_tcp_disable_family=6 \
			OMPI_MCA_pml=ob1 \
			OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
			timeout -k 5 "${FTD_MPI_TIMEOUT:-$(scaled 120)}" "$bin/mpirun" --host "$hosts" \
			--map-by node:OVERSUBSCRIBE --bind-to none -np "$nranks" \
			${FTD_MPI_ARGS:-} "$@"
		;;
	mpich)
		# Debian's MPICH is ch4:ucx. UCX_TLS: TCP between the ranks (without
		# it UCX uses shared memory, since every namespace is one machine);
		# ucx-rail0 sets UCX_NET_DEVICES to the node's rail-0 interface.
		# No PUT over TCP (rendezvous by active messages instead): an
		# endpoint with a PUT unacknowledged needs its peer's reply when it
		# is closed, and MPICH 4.0.2's MPI_Finalize may not give it (see
		# all_pairs() in selftests/mpi/mpi_ring.c).
		n "${nodes[0]}" "$FTD_MPI_NODE_HOST" "n${nodes[0]}" env UCX_TLS=tcp,self UCX_TCP_PUT_ENABLE=n \
			timeout -k 5 "${FTD_MPI_TIMEOUT:-$(scaled 120)}" "$(mpi_launcher "$flavour")" -launcher ssh -launcher-exec "$FTD_MPI_RSH" \
			-hosts "$(mpi_hosts "${nodes[@]}")" -n "$nranks" \
			${FTD_MPI_ARGS:-} "$FTD_ROOT/selftests/mpi/ucx-rail0" "$@"
		;;
	*) fail "unknown MPI flavour $flavour: $(mpi_config "$flavour" DESCRIPTION)" ;;
	esac
}

# mpi_glue_job FLAVOUR: settings for a job of libftdetect_mpi programs that
# must outlive a rank: the launcher options for it (ftdetect_mpi(3), NOTES)
# in FTD_MPI_ARGS, a time limit of 300 s times FTD_TEST_SCALE, and the library's own JSON account,
# one file per rank, in $FTD_TMP/glue.R (FTD_MPI_JSON; Open MPI is told to
# pass it on to the ranks). Open MPI 5 is launched as ftdetect_mpi(3),
# "Open MPI 5", says: without its hierarchical collectives (coll/han: after
# a failure they crashed or hung in this VM) and without the runtime's
# fence at the end of MPI_Finalize (once three ranks had died it never
# completed, with or without ftdetect's reports).
mpi_glue_job() {
	case $(mpi_family "$1") in
	openmpi) FTD_MPI_ARGS="--mca orte_enable_recovery 1 -x FTD_MPI_JSON" ;;
	prrte) FTD_MPI_ARGS="--with-ft ulfm --mca coll ^han --mca async_mpi_finalize 1 -x FTD_MPI_JSON" ;;
	mpich) FTD_MPI_ARGS="-disable-auto-cleanup" ;;
	*) fail "unknown MPI flavour $1: $(mpi_config "$1" DESCRIPTION)" ;;
	esac
	export FTD_MPI_ARGS FTD_MPI_TIMEOUT=$(scaled 300) FTD_MPI_JSON=$FTD_TMP/glue.%r
	mpi_trace_signals
}

# mpi_trace_signals: with FTD_TRACE_SIGNALS=1, from now on until the test
# ends the kernel records each deadly signal sent to any process (tracefs,
# signal:signal_generate: SIGABRT, SIGBUS, SIGKILL, SIGSEGV, SIGPIPE,
# SIGTERM), so that a rank that ends without a word, which a launcher in
# ULFM mode may not report, shows what ended it and who sent it
# (mpi_signals; the test's own kills are there too). Off by default:
# turning a tracepoint on or off patches kernel text, and in the emulated
# VM with two vCPUs that once locked the guest up (text_poke_bp waiting
# on the other vCPU).
FTD_TRACEFS=/sys/kernel/tracing
mpi_trace_signals() {
	local ev=$FTD_TRACEFS/events/signal/signal_generate
	[ "${FTD_TRACE_SIGNALS:-0}" = 1 ] && [ -w "$ev/filter" ] || return 0
	echo 0 > "$FTD_TRACEFS/tracing_on"
	: > "$FTD_TRACEFS/trace"
	echo 'sig == 6 || sig == 7 || sig == 9 || sig == 11 || sig == 13 || sig == 15' > "$ev/filter"
	echo 1 > "$ev/enable"
	echo 1 > "$FTD_TRACEFS/tracing_on"
	at_exit mpi_trace_signals_off
}
mpi_trace_signals_off() { echo 0 > "$FTD_TRACEFS/events/signal/signal_generate/enable"; }
# mpi_ignores PID SIG: process PID ignores signal SIG (/proc/PID/status).
mpi_ignores() {
	local mask
	mask=$(awk '/^SigIgn:/ { print $2 }' "/proc/$1/status" 2> /dev/null) || return 1
	[ -n "$mask" ] && (( (16#$mask >> ($2 - 1)) & 1 ))
}
# mpi_signals: the deadly signals recorded since mpi_trace_signals (sender
# comm-pid, then sig, target comm and pid; for FTD_ON_FAIL).
mpi_signals() {
	[ "${FTD_TRACE_SIGNALS:-0}" = 1 ] && [ -r "$FTD_TRACEFS/trace" ] || return 0
	echo "---- deadly signals sent (tracefs signal:signal_generate)"
	grep -v '^#' "$FTD_TRACEFS/trace" || true
}

# mpi_start FILE FLAVOUR NRANKS NODES... -- PROGRAM [ARG...]: mpi_run in the
# background, its output (stdout and stderr) in FILE; the launcher's pid in
# FTD_MPI_PID (for `wait "$FTD_MPI_PID"`, which gives its exit status).
mpi_start() {
	local file=$1
	shift
	mpi_run "$@" > "$file" 2>&1 &
	FTD_MPI_PID=$!
}

# mpi_wait_output FILE REGEX SECONDS: wait until a line of FILE matches
# REGEX (grep -E); fail, showing FILE, if it does not within SECONDS (times
# FTD_TEST_SCALE, as wait_until) or the launcher started by mpi_start ends
# first.
mpi_wait_output() {
	local file=$1 re=$2 end=$(( EPOCHSECONDS + $(scaled "$3") ))
	until grep -Eq -- "$re" "$file" 2> /dev/null; do
		if ! kill -0 "${FTD_MPI_PID:-0}" 2>/dev/null || [ "$EPOCHSECONDS" -ge "$end" ]; then
			grep -Eq -- "$re" "$file" 2> /dev/null && return 0
			cat "$file" >&2 || true
			fail "no line matching '$re' from the MPI job within $(scaled "$3") s"
		fi
		sleep 0.1
	done
}

# ---------------------------------------------------------------- placement
# Programs report where each rank runs with one line per rank, as mpi_ring
# does (rank 0 gathers and prints them):
#   mpi_ring: place rank=R size=N pid=P netns=INODE addr=192.0.2.I

# mpi_node_of_rank R NODES...: the node mpi_run puts rank R on.
mpi_node_of_rank() {
	local r=$1
	shift
	local nodes=("$@")
	echo "${nodes[r % ${#nodes[@]}]}"
}

# mpi_place FILE RANK KEY: the KEY=value of RANK's place line in FILE.
# One grep finds the line: a shell loop over a job's output (thousands of
# lap lines) cost 30 s per test in an emulated guest.
mpi_place() {
	local line
	line=$(grep -m1 "^mpi_ring: place rank=$2 " "$1") || return 0
	if [[ " ${line#mpi_ring: place } " =~ \ $3=([^ ]*)\  ]]; then
		echo "${BASH_REMATCH[1]}"
	fi
}

# mpi_check_placement FILE NRANKS NODES...: fail unless every rank reported
# the address and network namespace of its node. With FTD_MPI_LIVE=1 (the
# job still runs), also from outside: each rank's pid is in its node's
# namespace (/proc/PID/ns/net).
mpi_check_placement() {
	local file=$1 nranks=$2 r node pid ino want
	shift 2
	for ((r = 0; r < nranks; r++)); do
		node=$(mpi_node_of_rank "$r" "$@")
		want=$(stat -L -c %i "/run/netns/$(ns_of "$node")")
		[ "$(mpi_place "$file" "$r" addr)" = "$(addr4 0 "$node")" ] ||
			fail "rank $r: address '$(mpi_place "$file" "$r" addr)', expected node $node's $(addr4 0 "$node")"
		[ "$(mpi_place "$file" "$r" netns)" = "$want" ] ||
			fail "rank $r: netns '$(mpi_place "$file" "$r" netns)', expected node $node's $want"
		[ "${FTD_MPI_LIVE:-0}" = 1 ] || continue
		pid=$(mpi_place "$file" "$r" pid)
		ino=$(stat -L -c %i "/proc/$pid/ns/net") ||
			{ cat "$file" >&2; fail "rank $r (pid $pid) does not run"; }
		[ "$ino" = "$want" ] || fail "rank $r (pid $pid) runs in netns $ino, not node $node's $want"
	done
}
