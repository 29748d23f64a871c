#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# nl_fuzz.sh: random and malformed requests to the module's user interfaces
# (the "ftdetect" generic netlink family and /dev/ftdetect, ftd-nlfuzz) get
# clean errors and change nothing: node 1 is fuzzed as root (state-changing
# commands always carry an attribute validation must refuse) and as nobody
# (state-changing commands must get EPERM); afterwards the cluster is still
# all alive, node 1's configuration is what it was, node 1 emitted no event
# and still answers. State-changing commands are fuzzed for real only in
# namespaces of their own (one of the initial user namespace, one that
# nobody makes with a user namespace of its own), deleted afterwards (the
# module must tear their instances down cleanly); there, a request that
# fails must leave the configuration and the node table as they were, which
# fixed cases (ftd-nlfuzz -R) check too. Every run goes to its end and every
# check is made; the test fails at the end if any of them failed. The VM
# harness fails the run on any kernel warning; the fuzzer itself fails on a reply that takes over 5 s, and its
# watchdog on a call that hangs.
#
#   n1 ──┐         ftd-nlfuzz (root, then nobody) in n1's namespace
#   n2 ──┘ br0     n2 keeps watching n1
#
#   fuzz           a fresh namespace, no links: ftd-nlfuzz -a, then deleted
#   (unshare -Urn) nobody's own user and network namespaces: ftd-nlfuzz -a
#
# FTD_FUZZ_SECONDS (default 20) is the fuzzing time, split 30/25/25/20
# between the four runs; FTD_FUZZ_SEED replays a run (seeds SEED..SEED+3).
source "$(dirname "$0")/../lib.sh"

command -v setpriv > /dev/null || skip "no setpriv (util-linux)"
FUZZ=$FTD_ROOT/build/selftests/ftd-nlfuzz
[ -x "$FUZZ" ] || fail "$FUZZ not built (make selftests)"
secs=${FTD_FUZZ_SECONDS:-20}
seed=${FTD_FUZZ_SEED:-$(( (RANDOM << 15) | RANDOM ))}

cluster_create 2
cluster_up "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT"
wait_until 30 all_alive || fail "cluster did not come up"
watch_events 1
late0=$(stat_counter 1 ticks_late)
n 1 ftctl show -j > "$FTD_TMP/show.before"

failed=()
# fuzz NAME SECONDS SEED OPTIONS PREFIX...: run ftd-nlfuzz with OPTIONS under
# PREFIX (a namespace, a user), show its report, note a violation or a hang.
fuzz() {
	local name=$1 t=$2 s=$3 opts=$4 rc=0
	shift 4
	log "$name: ftd-nlfuzz -t $t -s $s $opts"
	# shellcheck disable=SC2086  # opts: words
	"$@" timeout -k 5 $((t + 60)) "$FUZZ" $opts -t "$t" -s "$s" > "$FTD_TMP/fuzz.$name" 2>&1 ||
		rc=$?
	sed 's/^/  /' "$FTD_TMP/fuzz.$name"
	case $rc in
	0) return 0 ;;
	124 | 137) log "$name: ftd-nlfuzz hung (killed after $((t + 60)) s)" ;;
	3) log "$name: a call into the module hung (see the HANG line)" ;;
	*) log "$name: ftd-nlfuzz found violations (exit status $rc); replay: FTD_FUZZ_SEED=$seed" ;;
	esac
	failed+=("$name")
}

t_root=$((secs * 30 / 100))
t_user=$((secs * 25 / 100))
t_admin=$((secs * 25 / 100))
t_userns=$((secs - t_root - t_user - t_admin))
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"; }

# 1. Root in node 1's namespace: reads and validation only.
fuzz root "$t_root" "$seed" "" n 1
# 2. Nobody there: no CAP_NET_ADMIN, so state changes get EPERM.
fuzz nobody "$t_user" "$((seed + 1))" "" \
	n 1 setpriv --reuid=65534 --regid=65534 --clear-groups --
# 3. State changes for real, in a namespace nothing else uses.
fns=$FTD_NS_PREFIX-fuzz
ip netns add "$fns"
fuzz admin "$t_admin" "$((seed + 2))" -a ip netns exec "$fns"
ip netns del "$fns"
# A new namespace still gets a fresh, unconfigured instance.
ip netns add "$fns"
ip netns exec "$fns" ftctl show -j | jq -e '.node == null and .up == false and
	(.nodes | length) == 0' > /dev/null || fail "a new namespace's instance is not fresh"
ip netns del "$fns"
# 4. The same as nobody, root of a user namespace of its own.
if as_nobody unshare -Urn true 2> /dev/null; then
	fuzz userns "$t_userns" "$((seed + 3))" -a as_nobody unshare -Urn --
else
	log "userns: skipped, nobody cannot create a user namespace here"
fi
# 5. Fixed cases: a SET_CONFIG that fails must change nothing.
ip netns add "$fns"
log "fixed cases: ftd-nlfuzz -R"
if ! ip netns exec "$fns" "$FUZZ" -R > "$FTD_TMP/fuzz.fixed" 2>&1; then
	failed+=(fixed)
fi
sed 's/^/  /' "$FTD_TMP/fuzz.fixed"
ip netns del "$fns"

# Nothing changed on node 1, nothing happened to the cluster.
sleep 0.5
all_alive || { n 1 ftstat; n 2 ftstat; fail "the cluster is no longer all alive"; }
n 1 ftctl show -j > "$FTD_TMP/show.after"
diff -u "$FTD_TMP/show.before" "$FTD_TMP/show.after" ||
	fail "node 1's configuration changed"
quiet_since "$FTD_TMP/dev.1" 1 "$late0" "fuzzing"
quiet_since "$FTD_TMP/nl.1" 1 "$late0" "fuzzing (netlink events)"
n 1 ftstat > /dev/null || fail "node 1 no longer answers ftstat"
[ "$(node_state 2 1)" = alive ] || fail "node 2 no longer sees node 1 alive"
[ ${#failed[@]} = 0 ] || fail "violations in: ${failed[*]} (seed $seed)"
log "ok (seed $seed)"
