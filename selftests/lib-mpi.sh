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
# selftests/mpi/netns-rsh (an ssh stand-in: `ip netns exec`), and the ranks
# talk TCP over rail 0 (192.0.2.0/24). Rank r runs on node NODES[r mod n]
# (round robin, one rank per node per round). docs/testing.md, "MPI jobs".

FTD_MPI_RSH=$FTD_ROOT/selftests/mpi/netns-rsh
# The ranks' network: rail 0. Nothing else (lo, rail 1) carries MPI traffic.
FTD_MPI_NET=192.0.2.0/24
# Every netns-rsh call is logged here (which node, what command).
FTD_MPI_RSH_LOG=$FTD_TMP/mpi-rsh.log
export FTD_NS_PREFIX FTD_MPI_RSH_LOG

# mpi_prog FLAVOUR: the test program built for FLAVOUR (openmpi, mpich).
mpi_prog() { echo "$FTD_ROOT/build/selftests/mpi_ring.$1"; }

# mpi_launcher FLAVOUR: the launcher Debian installs for FLAVOUR.
mpi_launcher() {
	case $1 in
	openmpi) echo mpirun.openmpi ;;
	mpich) echo mpiexec.mpich ;;
	*) fail "unknown MPI flavour $1 (openmpi or mpich)" ;;
	esac
}

# mpi_missing FLAVOUR: why FLAVOUR cannot run here (nothing if it can).
mpi_missing() {
	local launcher
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
# left in the namespaces). FTD_MPI_ARGS adds launcher options.
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
	case $flavour in
	openmpi)
		local hosts=
		for i in "${nodes[@]}"; do
			hosts+=${hosts:+,}$(addr4 0 "$i"):$per
		done
		# OMPI_MCA_*: so that orted, started by netns-rsh with this
		# environment, gets the same settings as mpirun.
		n "${nodes[0]}" env \
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
			OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
			mpirun.openmpi --host "$hosts" --map-by node -np "$nranks" \
			${FTD_MPI_ARGS:-} "$@"
		;;
	mpich)
		# Debian's MPICH is ch4:ucx. UCX_TLS: TCP between the ranks (without
		# it UCX uses shared memory, since every namespace is one machine);
		# ucx-rail0 sets UCX_NET_DEVICES to the node's rail-0 interface.
		n "${nodes[0]}" env UCX_TLS=tcp,self \
			mpiexec.mpich -launcher ssh -launcher-exec "$FTD_MPI_RSH" \
			-hosts "$(mpi_hosts "${nodes[@]}")" -n "$nranks" \
			${FTD_MPI_ARGS:-} "$FTD_ROOT/selftests/mpi/ucx-rail0" "$@"
		;;
	*) fail "unknown MPI flavour $flavour (openmpi or mpich)" ;;
	esac
}
