#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Helpers for the in-VM shell selftests: a cluster of nodes, one network
# namespace per node, joined by one bridge per rail in a "switch" namespace.
#
#   node i, rail 0:  192.0.2.i/24     2001:db8::i/64      (veth n<i>r0 <-> s<i>r0 on br0)
#   node i, rail 1:  198.51.100.i/24  2001:db8:1::i/64    (veth n<i>r1 <-> s<i>r1 on br1)
#
# Tests source this file, call cluster_create, and get cleanup on exit.

set -eu
FTD_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The module under test: the tree's, or the one selftests/vm/run was told
# to load (FTD_VM_MODULE: make test-debug's, built for the debug kernel).
FTD_KO=${FTD_VM_MODULE:-$FTD_ROOT/kmod/ftdetect.ko}
export PATH="$FTD_ROOT/build/bin:$FTD_ROOT/build/selftests:$PATH"
readonly ksft_skip=4

# Unique per test run, so that a leftover from a crashed test never collides.
FTD_NS_PREFIX=${FTD_NS_PREFIX:-ftd$$}
FTD_TMP=$(mktemp -d /tmp/ftdtest.XXXXXX)
declare -a FTD_BG_PIDS=()

# Heartbeat timing of the cluster tests. The period is the design's default;
# the timeout is twice the design's example because a software-emulated (TCG)
# guest loses its vCPUs to the host for tens of milliseconds at a time, which
# a real node does not. Benchmarks, not these tests, measure tight settings.
#
# FTD_TEST_SCALE (an integer, 1 unless set; make test-debug sets 10) is how
# many times slower than Debian's kernel the guest's kernel runs: the debug
# kernel (KASAN, lockdep, kmemleak) under TCG spends that much more per
# frame, and at the usual 10 ms period a 9-node cluster keeps its only vCPU
# busy in softirq. Every cluster timing (period and timeout alike, so that
# their ratio, which the protocol's decisions depend on, stays the same)
# and every wait_until limit is multiplied by it. Tests that pick their own
# timing write it as $(scaled MS).
FTD_TEST_SCALE=${FTD_TEST_SCALE:-1}
[[ $FTD_TEST_SCALE =~ ^[1-9][0-9]*$ ]] || { echo "FTD_TEST_SCALE must be a positive integer" >&2; exit 1; }
scaled() { echo $(( $1 * FTD_TEST_SCALE )); }
FTD_TEST_PERIOD=${FTD_TEST_PERIOD:-$(scaled 10)ms}
FTD_TEST_TIMEOUT=${FTD_TEST_TIMEOUT:-$(scaled 100)ms}

# jq: gojq where installed (selftests/deps/install installs it). Both read
# the same filters here; gojq starts in a tenth of the time (jq 1.6 parses
# its builtins at every start: ~0.75 s a process in an emulated guest,
# which the suite pays thousands of times) and keeps integers exact (jq 1.6
# rounds nanosecond stamps to doubles).
if command -v gojq > /dev/null; then
	jq() { gojq "$@"; }
fi

# log MSG: a comment line, stamped with the time since the test began, so
# that a slow step shows in the log.
FTD_LOG_T0=${EPOCHREALTIME//[!0-9]/}
log() {
	local ds=$(( (${EPOCHREALTIME//[!0-9]/} - FTD_LOG_T0) / 100000 ))
	echo "# [$((ds / 10)).$((ds % 10)) s] $*"
}
fail() { echo "# FAIL: $*" >&2; exit 1; }	# stderr: seen even from $(...) or >/dev/null
skip() { echo "# SKIP: $*"; exit $ksft_skip; }

ns_of() { echo "$FTD_NS_PREFIX-n$1"; }
sw_ns() { echo "$FTD_NS_PREFIX-sw"; }
# FTD_ROOT_NODE: the node that is the test's own namespace (the VM's root,
# where a systemd unit configures it: net/systemd_unit.sh), not one of its
# own; none unless set.
FTD_ROOT_NODE=${FTD_ROOT_NODE:-}
# n I CMD...: run CMD in node I's namespace.
n() {
	local i=$1; shift
	if [ "$i" = "$FTD_ROOT_NODE" ]; then "$@"; else ip netns exec "$(ns_of "$i")" "$@"; fi
}
sw() { ip netns exec "$(sw_ns)" "$@"; }

# A test may set FTD_ON_FAIL to a command that shows what it collected
# (job output, logs), run when it fails, before its files are removed. A
# failed test also shows what the module logged while it ran (why a node
# fenced itself, say), the last lines of it. at_exit CMD: a command that
# puts back what the test changed outside its namespaces (set_backlog,
# save_params), run first, whatever the outcome, the last added first.
FTD_AT_EXIT=()
at_exit() { FTD_AT_EXIT+=("$1"); }
cleanup() {
	local rc=$? pid pids ns namespaces i
	for ((i = ${#FTD_AT_EXIT[@]} - 1; i >= 0; i--)); do
		${FTD_AT_EXIT[i]} || true
	done
	[ "$rc" = 0 ] || [ "$rc" = "$ksft_skip" ] || [ -z "${FTD_ON_FAIL:-}" ] ||
		$FTD_ON_FAIL 2>&1 | sed 's/^/#   /' >&2 || true
	[ "$rc" = 0 ] || [ "$rc" = "$ksft_skip" ] ||
		kernel_since "$FTD_KERNEL_MARK" 2>/dev/null | grep 'ftdetect: ' | tail -n 30 |
		sed 's/^/#   kernel: /' >&2 || true
	namespaces=$(ip netns list | awk '{print $1}' | grep "^$FTD_NS_PREFIX-" || true)
	# Whatever still runs in the test's namespaces (watchers started through
	# ip netns exec are not our children) would keep /dev/ftdetect open.
	for ns in $namespaces; do
		pids=$(ip netns pids "$ns")
		# shellcheck disable=SC2086  # a list of pids
		[ -z "$pids" ] || kill $pids 2>/dev/null || true
	done
	for pid in "${FTD_BG_PIDS[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	wait 2>/dev/null || true
	if [ -n "$namespaces" ]; then
		# shellcheck disable=SC2086  # a list of names
		ebpf_unpin $namespaces
		printf 'netns del %s\n' $namespaces | ip -force -batch - 2>/dev/null || true
	fi
	rm -rf "$FTD_TMP" /tmp/ompi-"$FTD_NS_PREFIX"-*	# netns-rsh's Open MPI session dirs
}
trap cleanup EXIT
# A test stopped by run-vm-suite's time limit still cleans up, so that its
# namespaces, watchers and files do not break the tests after it.
trap 'exit 143' TERM INT

# again_or_fail MSG: a timing window the test needs was missed, a step of
# the shell having run late on a busy emulated guest: the whole test runs
# again from a clean start (cleanup, then the script anew, its arguments
# kept), three tries in all; then it fails with MSG. For windows only: a
# wrong outcome inside the window is a failure at once.
FTD_SCRIPT_ARGS=("$@")
FTD_TRY=${FTD_TRY:-1}
again_or_fail() {
	(( FTD_TRY < 3 )) || fail "$* (try $FTD_TRY of 3)"
	log "$*: trying again from the start ($((FTD_TRY + 1)) of 3)"
	trap - EXIT
	true
	cleanup
	FTD_TRY=$((FTD_TRY + 1)) exec bash "$0" "${FTD_SCRIPT_ARGS[@]}"
}

# bg CMD...: run in the background, killed at exit.
bg() { "$@" & FTD_BG_PIDS+=($!); }

# now_ns: CLOCK_REALTIME in ns (to the us), as the events' time_ns; bash's
# own clock, not a date(1) process per call (~0.1 s each under TCG).
now_ns() { local t=${EPOCHREALTIME//[.,]/}; echo "${t}000"; }

# show_files FILE...: each FILE that exists, under a header (for FTD_ON_FAIL).
show_files() {
	local f
	for f in "$@"; do
		[ -e "$f" ] || continue
		echo "---- $f"
		cat "$f"
	done
}

# pid_gone PID: the process has exited; a zombie counts (a launcher may
# reap its ranks only at the end of the job).
pid_gone() { [ ! -e "/proc/$1" ] || [[ $(< "/proc/$1/stat") =~ ^[0-9]+\ \(.*\)\ Z\  ]]; }

# cut_node NODE [RAIL]: take NODE's switch port down; prints when (JSON from
# ftd-link, CLOCK_REALTIME stamps bracketing the change).
cut_node() { sw ftd-link "s${1}r${2:-0}" down; }

# deaf_to_notices NODE: every notice frame reaching NODE on rail 0 is
# dropped (a tc u32 filter: IPv4, UDP, the frame's magic "FTDT" at the UDP
# payload's offset 0 and its type FTD_FRAME_NOTICE = 2 at offset 5, counted
# from the IP header: 20 + 8 + ...); heartbeats pass, so it hears its
# predecessors and nobody times it out. hears_notices NODE undoes it.
deaf_to_notices() {
	n "$1" tc qdisc add dev "n${1}r0" clsact || fail "clsact on node $1"
	n "$1" tc filter add dev "n${1}r0" ingress protocol ip u32 match ip protocol 17 0xff \
		match u32 0x46544454 0xffffffff at 28 match u8 2 0xff at 33 action drop ||
		fail "tc filter on node $1"
}
hears_notices() { n "$1" tc qdisc del dev "n${1}r0" clsact || fail "filter off node $1"; }

# wait_until SECONDS CMD...: poll CMD until it succeeds; fail after SECONDS
# (times FTD_TEST_SCALE).
wait_until() {
	local limit=$(( $1 * FTD_TEST_SCALE )); shift
	local end=$(( EPOCHSECONDS + limit ))
	until "$@"; do
		[ "$EPOCHSECONDS" -lt "$end" ] || return 1
		sleep 0.05
	done
}

addr4() { # rail node
	case $1 in 0) echo "192.0.2.$2" ;; 1) echo "198.51.100.$2" ;; esac
}
addr6() { # rail node
	case $1 in 0) printf '2001:db8::%x' "$2" ;; 1) printf '2001:db8:1::%x' "$2" ;; esac
}

# cluster_create NODES [RAILS]: namespaces, bridges, veths and addresses.
# A few ip -batch runs, not a process per command: under TCG each process
# costs ~0.1 s, and 16 nodes took 20 s to build that way.
cluster_create() {
	local nodes=$1 rails=${2:-1} i r ns sw_ns root=() node sw batch=()
	FTD_NODES=$nodes
	FTD_RAILS=$rails
	sw_ns=$(sw_ns)
	root=("netns add $sw_ns")
	for ((i = 1; i <= nodes; i++)); do
		[ "$i" = "$FTD_ROOT_NODE" ] || root+=("netns add $(ns_of "$i")")
	done
	printf '%s\n' "${root[@]}" | ip -batch -
	sw="link set lo up"$'\n'
	for ((r = 0; r < rails; r++)); do
		sw+="link add br$r type bridge"$'\n'"link set br$r up"$'\n'
	done
	root=()
	for ((i = 1; i <= nodes; i++)); do
		ns=$(ns_of "$i")
		n "$i" sysctl -qw net.ipv6.conf.all.accept_dad=0 net.ipv6.conf.default.accept_dad=0
		node="link set lo up"$'\n'
		for ((r = 0; r < rails; r++)); do
			# The root node's veths go when the switch's namespace does.
			if [ "$i" = "$FTD_ROOT_NODE" ]; then
				root+=("link add n${i}r$r type veth peer s${i}r$r netns $sw_ns")
			else
				root+=("link add n${i}r$r netns $ns type veth peer s${i}r$r netns $sw_ns")
			fi
			sw+="link set s${i}r$r master br$r up"$'\n'
			node+="addr add $(addr4 "$r" "$i")/24 dev n${i}r$r"$'\n'
			node+="addr add $(addr6 "$r" "$i")/64 dev n${i}r$r nodad"$'\n'
			node+="link set n${i}r$r up"$'\n'
		done
		batch[$i]=$node
	done
	printf '%s\n' "${root[@]}" | ip -batch -
	for ((i = 1; i <= nodes; i++)); do
		if [ "$i" = "$FTD_ROOT_NODE" ]; then
			ip -batch - <<< "${batch[$i]}"
		else
			ip -n "$(ns_of "$i")" -batch - <<< "${batch[$i]}"
		fi
	done
	ip -n "$sw_ns" -batch - <<< "$sw"
	# A link just up drops what it is given until linkwatch (up to a second
	# later) activates its queue and says so in operstate: a node applied
	# meanwhile was not heard, and its peers declared each other dead at
	# start (cutoff_3_nodes, timeout 100 ms). Built one node at a time, the
	# links had long been up; now they are waited for.
	wait_until 10 links_up "$sw_ns" || fail "the switch's ports did not come up"
	for ((i = 1; i <= nodes; i++)); do
		[ "$i" = "$FTD_ROOT_NODE" ] && ns= || ns=$(ns_of "$i")
		wait_until 10 links_up "$ns" || fail "node $i's links did not come up"
	done
}

# links_up NETNS: every veth in NETNS (the root namespace if empty) is UP.
links_up() {
	local out
	out=$(ip ${1:+-n "$1"} -br link show type veth) || return 1
	[ -n "$out" ] && ! grep -qv ' UP ' <<< "$out"
}

# cluster_config FILE PERIOD TIMEOUT FAMILY(4|6): the config every node applies.
# FTD_XDP (off|auto|native|generic) and FTD_TC (on|off) add the eBPF keys.
cluster_config() {
	local file=$1 period=$2 timeout=$3 family=${4:-4} i r line
	{
		echo "[cluster]"
		echo "id = 42"
		echo "port = 7061"
		echo "period = $period"
		echo "timeout = $timeout"
		echo "key = 000102030405060708090a0b0c0d0e0f"
		# more [cluster] lines, e.g. "observers = 3"
		[ -z "${FTD_CLUSTER_EXTRA:-}" ] || printf '%s\n' "$FTD_CLUSTER_EXTRA"
		[ -z "${FTD_XDP:-}" ] || echo "xdp = $FTD_XDP"
		[ -z "${FTD_TC:-}" ] || echo "tc = $FTD_TC"
		echo
		echo "[nodes]"
		for ((i = 1; i <= FTD_NODES; i++)); do
			line="$i"
			for ((r = 0; r < FTD_RAILS; r++)); do
				if [ "$family" = 6 ]; then
					line+=" $(addr6 "$r" "$i")"
				else
					line+=" $(addr4 "$r" "$i")"
				fi
			done
			echo "$line"
		done
	} > "$file"
	chmod 600 "$file"	# it holds the key
}

# cluster_up PERIOD TIMEOUT [FAMILY]: configure every node from one file.
cluster_up() {
	local i
	FTD_CONF=$FTD_TMP/cluster.conf
	cluster_config "$FTD_CONF" "$1" "$2" "${3:-4}"
	for ((i = 1; i <= FTD_NODES; i++)); do
		n "$i" ftctl apply "$FTD_CONF" >/dev/null
	done
	if [ -n "${FTD_XDP:-}" ] && [ "$FTD_XDP" != off ]; then
		for ((i = 1; i <= FTD_NODES; i++)); do
			n "$i" ftctl xdp status -j | jq -e '[.interfaces[] |
				select(.attached and .ftdetect)] | length > 0' > /dev/null ||
				fail "xdp = $FTD_XDP: no XDP program attached on node $i"
		done
		log "xdp = $FTD_XDP: XDP in $(xdp_mode 1 n1r0) mode on n1r0"
	fi
}

# node_state OBSERVER NODE: the state OBSERVER's ftstat reports for NODE.
node_state() {
	n "$1" ftstat -j | jq -r --argjson id "$2" '.nodes[] | select(.id == $id) | .state'
}

# not_up FAILURE: fail with FAILURE after saying, node by node, whom it
# does not hold alive (for a cluster that did not come up).
not_up() {
	local i seen
	for i in $(seq 1 "$FTD_NODES"); do
		seen=$(n "$i" "${FTD_FTSTAT:-ftstat}" -j 2>&1 | jq -r '[.nodes[]? |
			select(.state != "alive" and .state != "self") | "\(.id):\(.state)"] | join(" ")' 2>&1)
		log "node $i does not hold alive: ${seen:-(everyone alive)}"
	done
	fail "$1"
}

# all_alive [NODE...]: every node (or those listed) sees every other node alive.
# FTD_FTSTAT: the ftstat to ask (default: the tree's, first in PATH).
all_alive() {
	local i nodes=("$@")
	[ ${#nodes[@]} -gt 0 ] || nodes=($(seq 1 "$FTD_NODES"))
	local out rest
	for i in "${nodes[@]}"; do
		# Matched in the shell: a jq per node and poll costs ~0.5 s here.
		out=$(n "$i" "${FTD_FTSTAT:-ftstat}" -j) || return 1
		[[ $out == *'"state":'* ]] || return 1
		rest=${out//'"state":"alive"'/}
		rest=${rest//'"state":"self"'/}
		[[ $rest != *'"state":'* ]] || return 1
	done
}

# alive_among NODE...: each NODE holds each other NODE alive (one ftstat each).
alive_among() {
	local i set
	set=$(printf '%s\n' "$@" | jq -sc .)
	for i in "$@"; do
		n "$i" ftstat -j | jq -e --argjson set "$set" '[.nodes[] | select(.id as $id |
			$set | index($id)) | select(.state != "alive" and .state != "self")] |
			length == 0' > /dev/null || return 1
	done
}

# watch_events NODE: record NODE's events from both interfaces, as JSON lines,
# in $FTD_TMP/dev.NODE (/dev/ftdetect) and $FTD_TMP/nl.NODE (netlink).
# Appended (>>): a test may empty a file (: > FILE) to look at what comes
# next, and the writer then goes on at its start, not at its old offset
# behind a hole of NUL bytes.
watch_events() {
	local i=$1
	bg n "$i" ftd-devwatch >> "$FTD_TMP/dev.$i" 2> "$FTD_TMP/dev.$i.err"
	bg n "$i" ftstat -w -j >> "$FTD_TMP/nl.$i" 2> "$FTD_TMP/nl.$i.err"
	wait_until 20 grep -q ready "$FTD_TMP/dev.$i.err" || fail "ftd-devwatch did not start on node $i"
	# ftstat prints nothing until an event: give it time to subscribe.
	sleep 0.3
}

# watch_devices NODE...: record events from /dev/ftdetect only (cheaper, for
# large clusters) in $FTD_TMP/dev.NODE.
watch_devices() {
	local i
	for i in "$@"; do
		bg n "$i" ftd-devwatch >> "$FTD_TMP/dev.$i" 2> "$FTD_TMP/dev.$i.err"
	done
	for i in "$@"; do
		wait_until 30 says_ready "$FTD_TMP/dev.$i.err" || fail "ftd-devwatch did not start on node $i"
	done
}

# says_ready FILE: a line of FILE says "ready" (builtins only: a process
# per node and poll costs ~0.1 s under TCG).
says_ready() {
	local line
	while IFS= read -r line; do
		[[ $line != *ready* ]] || return 0
	done < "$1"
	return 1
}

# kernel_mark: the kernel log's length now; kernel_since MARK: the lines
# logged after it (what one step of a test made the module say).
kernel_mark() { dmesg | wc -l; }
kernel_since() { dmesg | tail -n +$(($1 + 1)); }
FTD_KERNEL_MARK=$(kernel_mark 2>/dev/null)	# the test's own part of the log (cleanup)

# events_archive NODE...: move what their event files hold to all.NODE, so
# that the checks of one step count that step's events only.
events_archive() {
	local i
	for i in "$@"; do
		cat "$FTD_TMP/dev.$i" >> "$FTD_TMP/all.$i"
		: > "$FTD_TMP/dev.$i"
	done
}

# switch_second_bridge: br1 on the switch, empty, for switch_move to cut
# nodes off onto.
switch_second_bridge() {
	sw ip link add br1 type bridge && sw ip link set br1 up ||
		fail "cannot add the switch's second bridge"
}

# switch_move BRIDGE NODE...: those nodes' rail-0 ports onto BRIDGE of the
# switch, in one batch (the ports stay up: no rail goes down). With a
# second bridge, moving ports onto it cuts the cluster in two; moving them
# back to br0 heals it.
switch_move() {
	local br=$1 i; shift
	for i in "$@"; do echo "link set s${i}r0 master $br"; done | sw ip -batch - ||
		fail "cannot move nodes $* to $br"
}

# cut_settled TIMEOUT_MS "MAJOR..." "MINOR...": a cut has been decided.
# Over five timeouts and a second, no node of MINOR (fenced into a
# minority) declares anyone or is fenced again; every node of MAJOR has
# delivered each death of MINOR exactly once, was never fenced and is not
# in a minority.
cut_settled() {
	local timeout_ms=$1 major=$2 minor=$3 i j
	events_archive $minor
	sleep $((5 * timeout_ms / 1000 + 1))
	for i in $minor; do
		grep -q 'NODE_DEAD\|FENCED' "$FTD_TMP/dev.$i" &&
			{ cat "$FTD_TMP/dev.$i"; fail "node $i, in a minority, declared or was fenced again"; }
	done
	for i in $major; do
		for j in $minor; do
			[ "$(count_events "$FTD_TMP/dev.$i" NODE_DEAD "$j")" = 1 ] ||
				{ grep -v NODE_SUSPECT "$FTD_TMP/dev.$i"; dmesg | grep ftdetect | tail -20
				  fail "node $i: NODE_DEAD $j $(count_events "$FTD_TMP/dev.$i" NODE_DEAD "$j") times, not exactly once"; }
		done
		[ "$(event_query count "$FTD_TMP/dev.$i" FENCED node "$i")" = 0 ] ||
			fail "node $i, in the majority, was fenced"
		[ "$(stat_counter "$i" minority)" = 0 ] || fail "node $i, in the majority, says it is in a minority"
	done
}

# event_query WHAT FILE EVENT KEY VALUE [KEY VALUE...]: of the EVENT records
# in FILE whose numeric field KEY is VALUE (each pair), print their time_ns
# (WHAT = times), the first one's (first) or how many there are (count). The records are the compact
# JSON lines of our own writers (ftd-devwatch, ftstat -w -j), so one awk
# reads them: in an emulated guest every process costs ~0.15 s (a jq ~0.5 s)
# and the cluster tests make hundreds of queries. A line still being
# written matches nothing.
event_query() {
	local what=$1 file=$2 ev=$3 kvs=
	shift 3
	while [ $# -ge 2 ]; do
		kvs+="\"$1\":$2 "
		shift 2
	done
	awk -v what="$what" -v ev="\"event\":\"$ev\"" -v kvs="$kvs" '
		BEGIN { nkv = split(kvs, kv, " ") }
		index($0, ev) {
			for (k = 1; k <= nkv; k++) {
				i = index($0, kv[k])
				if (!i)
					next
				c = substr($0, i + length(kv[k]), 1)
				if (c != "," && c != "}")
					next	# "node":1 inside "node":12
			}
			n++
			if (what == "count" || !match($0, /"time_ns":[0-9]+/))
				next
			print substr($0, RSTART + 10, RLENGTH - 10)
			if (what == "first")
				exit
		}
		END { if (what == "count") print n + 0 }' "$file" 2>/dev/null || { [ "$what" != count ] || echo 0; }
}

# count_events FILE EVENT NODE [KEY VALUE...]: how many EVENT records about
# NODE in FILE (and with each KEY at VALUE: incarnation, job, rank...).
count_events() { event_query count "$1" "$2" node "$3" "${@:4}"; }

# first_event_time FILE EVENT NODE: time_ns of the first such record.
first_event_time() { event_query first "$1" "$2" node "$3"; }

has_event() { [ "$(count_events "$@")" -ge 1 ]; }

# all_hold_dead VICTIM NODE...: every NODE's device log (watch_events) has
# NODE_DEAD VICTIM.
all_hold_dead() {
	local victim=$1 i
	shift
	for i in "$@"; do
		has_event "$FTD_TMP/dev.$i" NODE_DEAD "$victim" || return 1
	done
}

# suspected_rejoiners SINCE_NS WINDOW_MS OBSERVERS -- REJOINERS: after a
# heal at SINCE_NS, log each OBSERVER that suspected a REJOINER within
# WINDOW_MS of learning it back (its first NODE_RESTORED or NODE_ALIVE of
# it since), and fail (status 1) if any did. A node learned alive by
# hearsay or by one PROBE exchange is timed from then on, and may not know
# yet that it should send to us: its observers remind it (kmod/proto/
# detect.h), so a suspicion then is the mechanism failing, which a busy
# observer turns into a false death. Later suspicions are a loaded
# machine's, as anywhere else in the suite.
suspected_rejoiners() {
	local since=$1 window_ms=$2 i j s rc=0 observers=() rejoiners=()
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do observers+=("$1"); shift; done
	shift
	rejoiners=("$@")
	for i in "${observers[@]}"; do
		for j in "${rejoiners[@]}"; do
			s=$(awk -v since="$since" -v w="$((window_ms * 1000000))" -v node="\"node\":$j," '
				!index($0, node) || !match($0, /"time_ns":[0-9]+/) { next }
				{ t = substr($0, RSTART + 10, RLENGTH - 10) + 0 }
				t <= since { next }
				/"event":"NODE_(RESTORED|ALIVE)"/ && !back { back = t; next }
				/"event":"NODE_SUSPECT"/ && back && t - back < w { n++ }
				END { print n + 0 }' "$FTD_TMP/dev.$i")
			[ "$s" = 0 ] || { log "node $i suspected rejoined node $j $s time(s) within $window_ms ms of learning it back"; rc=1; }
		done
	done
	return $rc
}

# backlog_drops: received frames this machine's receive backlogs dropped so
# far (netdev_max_backlog; /proc/net/softnet_stat's second column, hex, one
# line per CPU), what the module's overload rule watches (proto/overload.h).
backlog_drops() {
	local s=0 x
	while read -r _ x _; do s=$((s + 16#$x)); done < /proc/net/softnet_stat
	echo "$s"
}

# set_backlog N: this machine's receive backlog (netdev_max_backlog, per
# CPU) set to N; the value before the first call is put back at exit, or
# earlier by restore_backlog.
set_backlog() {
	if [ -z "${FTD_BACKLOG_WAS:-}" ]; then
		FTD_BACKLOG_WAS=$(sysctl -n net.core.netdev_max_backlog)
		at_exit restore_backlog
	fi
	sysctl -qw net.core.netdev_max_backlog="$1"
}
restore_backlog() {
	[ -z "${FTD_BACKLOG_WAS:-}" ] || sysctl -qw net.core.netdev_max_backlog="$FTD_BACKLOG_WAS"
}

# backlog_per_node N: give this machine's receive backlog room for N nodes'
# frames, as N machines would each have their own (set_backlog). The
# namespaces of a test share one machine's backlogs: a burst to every node
# at once (a notice of a rack's deaths) overflows there, and the frames
# dropped are lost to their nodes as on a wire. Never lowers it.
backlog_per_node() {
	local want=$((1000 * $1))
	((want > $(sysctl -n net.core.netdev_max_backlog))) || return 0
	set_backlog "$want"
}

# save_params NAME...: the module's parameters NAME... (each must exist and
# be writable), put back as they are now at exit.
FTD_PARAMS=/sys/module/ftdetect/parameters
FTD_SAVED_PARAMS=()
save_params() {
	local p
	for p in "$@"; do
		[ -w "$FTD_PARAMS/$p" ] || fail "module parameter $p missing or not writable"
		FTD_SAVED_PARAMS+=("$p=$(cat "$FTD_PARAMS/$p")")
	done
	at_exit restore_params
}
restore_params() {
	local kv
	for kv in "${FTD_SAVED_PARAMS[@]}"; do echo "${kv#*=}" > "$FTD_PARAMS/${kv%%=*}"; done
}

# false_death_evidence OBSERVER SUBJECT: what a test that saw OBSERVER
# declare a live SUBJECT dead prints before it fails: OBSERVER's events
# (no suspicions), both nodes' tick and receive counters (fail adds the
# module's kernel log).
false_death_evidence() {
	local i
	grep -v NODE_SUSPECT "$FTD_TMP/dev.$1" | tail -30
	for i in "$1" "$2"; do
		echo "node $i: $(n "$i" ftctl stats -j | jq -c '{ticks, ticks_late, tick_late_max_ns, ticks_rx_behind, ticks_rx_dropped, ticks_rx_stuck, rx, tx, rx_stale, fenced}')"
	done
}

# rank_death_once NODES RANK NODE KILLED_NS: after a kill -9 of RANK on
# NODE at KILLED_NS, each of nodes 1..NODES delivered PROC_DEAD of RANK
# exactly once (in $FTD_TMP/dev.N), and none declared NODE dead. NODE
# reports the rank when the kernel releases its file, late in the exit
# (under TCG tens to hundreds of ms: the kernel's time, not ftdetect's); the
# others learn it from NODE's notice. That no timeout is involved is
# asserted by what did not happen (NODE never declared), not by a
# wall-clock bound a busy emulated host can break (benchmarks measure it).
# Logs both delays.
rank_death_once() {
	local nodes=$1 rank=$2 node=$3 killed=$4 i t latest=0 released=0
	for ((i = 1; i <= nodes; i++)); do
		[ "$(event_query count "$FTD_TMP/dev.$i" PROC_DEAD rank "$rank")" = 1 ] ||
			fail "node $i: PROC_DEAD not exactly once"
		t=$(event_query first "$FTD_TMP/dev.$i" PROC_DEAD rank "$rank")
		[ "$t" -gt "$latest" ] && latest=$t
		[ "$i" = "$node" ] && released=$t
	done
	log "kill -9 of rank $rank on node $node: PROC_DEAD at all $nodes nodes, the last $(( (latest - killed) / 1000 )) us after the kill"
	log "the rank's file released $(( (released - killed) / 1000 )) us after the kill; the other nodes informed within $(( (latest - released) / 1000 )) us of that (node timeout ${FTD_TEST_TIMEOUT})"
	for ((i = 1; i <= nodes; i++)); do
		has_event "$FTD_TMP/dev.$i" NODE_DEAD "$node" &&
			{ false_death_evidence "$i" "$node"
			  fail "node $i declared node $node dead: the rank's death came through a node timeout"; }
	done
	return 0
}

# ---------------------------------------------------------------- eBPF
# The XDP and TC programs (ebpf/, docs/ebpf.md), driven through ftctl.

# ebpf_require: skip unless the kernel can run the programs: a bpf file
# system, BPF syscall, clsact and cls_bpf, and bpf_ktime_get_tai_ns (6.1).
ebpf_require() {
	local config=/boot/config-$(uname -r) opt ver
	[ "$(stat -f -c %T /sys/fs/bpf 2>/dev/null)" = bpf_fs ] ||
		skip "no bpf file system at /sys/fs/bpf"
	if [ -r "$config" ]; then
		for opt in CONFIG_BPF_SYSCALL CONFIG_NET_CLS_BPF CONFIG_NET_SCH_INGRESS; do
			grep -Eq "^$opt=(y|m)" "$config" || skip "kernel without $opt"
		done
	fi
	ver=$(uname -r)
	ver=${ver%%-*}
	[ "$(printf '%s\n6.1\n' "$ver" | sort -V | head -n1)" = 6.1 ] ||
		skip "kernel $ver has no bpf_ktime_get_tai_ns (6.1)"
}

# ebpf_unpin NETNS...: remove the pins the namespaces' programs left in
# bpffs (they outlive a namespace; ftdetect pins under net-<netns inode>).
ebpf_unpin() {
	local ino pins=()
	for ino in $(cd /run/netns 2>/dev/null && stat -L -c %i "$@" 2>/dev/null); do
		pins+=("/sys/fs/bpf/ftdetect/net-$ino")
	done
	[ ${#pins[@]} = 0 ] || rm -rf "${pins[@]}" 2>/dev/null || true
}

# xdp_mode NODE DEV: native, generic, ... or off (ftctl xdp status).
xdp_mode() {
	n "$1" ftctl xdp status -j |
		jq -r --arg dev "$2" '(.interfaces[] | select(.ifname == $dev and .attached) |
			.mode) // "off"'
}

# xdp_counter NODE DEV NAME: an XDP counter (stamped, drop_magic, ...).
xdp_counter() {
	n "$1" ftctl xdp status -j |
		jq -r --arg dev "$2" --arg c "$3" '(.interfaces[] | select(.ifname == $dev) |
			.counters[$c]) // 0'
}

# tc_counter NODE DEV NAME: a TC egress counter (stamped, delay_negative, ...).
tc_counter() {
	n "$1" ftctl tc status -j |
		jq -r --arg dev "$2" --arg c "$3" '(.interfaces[] | select(.ifname == $dev) |
			.counters[$c]) // 0'
}

# stat_counter NODE NAME: a module counter (ftctl stats: rx, rx_malformed, ...).
stat_counter() { n "$1" ftctl stats -j | jq -r ".$2"; }

# notice_frames NODE...: "SENT RECEIVED ITEMS_RECEIVED", the notice frames
# sent and received and the notices those received carried (a frame
# carries several: the uapi's "Batches"), summed over NODEs (ftctl stats:
# notices_tx, notices_rx, notice_items_rx), one ftctl and jq per node.
notice_frames() {
	local i tx=0 rx=0 items=0 t r m
	for i in "$@"; do
		read -r t r m < <(n "$i" ftctl stats -j |
			jq -r '"\(.notices_tx) \(.notices_rx) \(.notice_items_rx // .notices_rx)"')
		tx=$((tx + t)) rx=$((rx + r)) items=$((items + m))
	done
	echo "$tx $rx $items"
}

# notice_cost "SENT RECEIVED ITEMS" DEATHS NODE...: log what DEATHS deaths
# cost in notice frames at NODEs since notice_frames printed the first
# argument (the frames per failure of docs/detection.md; a number, not a
# check), and how many notices a received frame carried.
notice_cost() {
	local tx0 rx0 items0 tx rx items deaths=$2 nodes
	read -r tx0 rx0 items0 <<< "$1"
	shift 2
	nodes=$#
	read -r tx rx items < <(notice_frames "$@")
	log "notice frames for $deaths death(s) at $nodes nodes: $((tx - tx0)) sent, $((rx - rx0)) received carrying $((items - items0)) notices; per death and node $(awk -v s=$((tx - tx0)) -v r=$((rx - rx0)) -v d="$deaths" -v n="$nodes" 'BEGIN { printf "%.1f sent, %.1f received", s / d / n, r / d / n }')"
}

# udp_csum_errors NODE: Udp InCsumErrors of NODE (IPv4 and IPv6 summed).
udp_csum_errors() {
	n "$1" cat /proc/net/snmp /proc/net/snmp6 | awk '
		$1 == "Udp:" && !h { for (i = 2; i <= NF; i++) if ($i == "InCsumErrors") c = i; h = 1; next }
		$1 == "Udp:" && h { v += $c }
		$1 == "Udp6InCsumErrors" { v += $2 }
		END { print v + 0 }'
}

# rails_of OBSERVER: one JSON object per peer rail, with "id" added.
rails_of() {
	n "$1" ftstat -j | jq -c '.nodes[] | select(.state != "self") | .id as $id |
		.rails[] | . + {id: $id}'
}

# late_baseline NODE...: remember each NODE's late ticks now, for
# quiet_since to tell a suspected node whose own timer ran late.
declare -A FTD_LATE0
late_baseline() { local i; for i in "$@"; do FTD_LATE0[$i]=$(stat_counter "$i" ticks_late); done; }

# senders_ran_late FILE: every node suspected in FILE had its own timer run
# late since late_baseline (its heartbeats really were late: a true
# suspicion, refuted by its answer).
senders_ran_late() {
	local s
	for s in $(jq -r 'select(.event == "NODE_SUSPECT") | .node' "$1" | sort -un); do
		[ -n "${FTD_LATE0[$s]:-}" ] && [ "$(stat_counter "$s" ticks_late)" -gt "${FTD_LATE0[$s]}" ] ||
			return 1
	done
}

# quiet_since FILE NODE LATE0 WHAT: fail unless the events NODE recorded in
# FILE (watch_events) changed no state. A suspicion taken back (NODE_SUSPECT,
# then NODE_ALIVE) is accepted when NODE's own timer ran late meanwhile (its
# ticks_late moved past LATE0): a starved observer may suspect by design
# (docs/detection.md), and an emulated guest on a busy host starves; or
# when the suspected nodes' timers ran late (late_baseline): their
# heartbeats were late, and their answers took the suspicion back.
quiet_since() {
	local file=$1 node=$2 late0=$3 what=$4 late s
	[ -s "$file" ] || return 0
	if jq -se 'all(.event == "NODE_SUSPECT" or .event == "NODE_ALIVE") and
		(map(select(.event == "NODE_SUSPECT")) | length) ==
		(map(select(.event == "NODE_ALIVE")) | length)' "$file" > /dev/null; then
		late=$(stat_counter "$node" ticks_late)
		if [ "$late" -gt "$late0" ]; then
			log "$what: $(grep -c SUSPECT "$file") suspicion(s) taken back while node $node's timer ran late ($late0 -> $late late ticks)"
			return 0
		fi
		if senders_ran_late "$file"; then
			log "$what: $(grep -c SUSPECT "$file") suspicion(s) taken back, of nodes whose own timers ran late"
			return 0
		fi
	fi
	cat "$file"
	n "$node" ftctl stats
	for s in $(jq -r '.node' "$file" | sort -un); do
		[ "$s" = "$node" ] || echo "node $s: $(n "$s" ftctl stats -j | jq -c '{ticks, ticks_late, tick_late_max_ns, ticks_rx_behind, ticks_rx_dropped, ticks_rx_stuck}')"
	done
	fail "$what caused an event"
}
