#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cli.sh [FTDSIM]: ftdsim's command line (userspace/sim/main.c), TAP 13:
# --cut as a share of each N (rounded down, at least one node), and bad
# values refused with exit status 2, a message naming the option and
# nothing on standard output. Small clusters: a second or two in all.
set -u
SIM=${1:-build/bin/ftdsim}
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n $1"; shift; printf '#   %s\n' "$@"; }

echo "TAP version 13"
echo "1..5"

# failures SIM-ARGS...: "N:failures" of each run, space-separated.
failures() { "$SIM" -s partition --json "$@" | jq -r '"\(.nodes):\(.failures)"' | paste -sd ' '; }

got=$(failures -n 10,20 --cut 50%)
[ "$got" = "10:5 20:10" ] && ok "--cut 50% cuts half of each N" ||
	not_ok "--cut 50% cuts half of each N" "expected 10:5 20:10, got '$got'"

got=$(failures -n 7 --cut 33.3%)
[ "$got" = "7:2" ] && ok "--cut 33.3% of 7 rounds down to 2" ||
	not_ok "--cut 33.3% of 7 rounds down to 2" "got '$got'"

got=$(failures -n 10 --cut 1%)
[ "$got" = "10:1" ] && ok "--cut 1% of 10 cuts at least one node" ||
	not_ok "--cut 1% of 10 cuts at least one node" "got '$got'"

# refused VALUE PATTERN: --cut VALUE exits 2, says PATTERN, prints nothing on stdout.
bad=""
refused() {
	local out err rc
	err=$("$SIM" -n 10 -s partition --cut "$1" --json 2>&1 >/dev/null)
	rc=$?
	out=$("$SIM" -n 10 -s partition --cut "$1" --json 2>/dev/null)
	[ "$rc" = 2 ] && [ -z "$out" ] && [[ "$err" == *"--cut $1: "*"$2"* ]] ||
		bad+=" '$1' (exit $rc, stderr: $err, stdout: ${out:0:60})"
}
refused 0% "a share in (0%, 100%)"
refused 100% "a share in (0%, 100%)"
refused 50%% "a share in (0%, 100%)"
refused abc "an integer in 1..1000000"
refused 1.5 "an integer in 1..1000000"
refused -3 "an integer in 1..1000000"
[ -z "$bad" ] && ok "bad --cut values are refused, exit 2, nothing on stdout" ||
	not_ok "bad --cut values are refused, exit 2, nothing on stdout" "refused wrongly:$bad"

err=$("$SIM" -n 10 -s partition --cut 10 2>&1 >/dev/null)
rc=$?
[ "$rc" = 2 ] && [[ "$err" == *"must be 1..nodes-1 nodes"* ]] &&
	ok "a cut of every node is refused" ||
	not_ok "a cut of every node is refused" "exit $rc, stderr: $err"

exit $failed
