#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# module_load.sh: the module unloads and reloads cleanly, also with a running
# instance in a namespace (its pernet exit stops timers and sockets), and
# refuses to unload while /dev/ftdetect is open.
source "$(dirname "$0")/../lib.sh"

KO=$FTD_KO
[ -f "$KO" ] || fail "$KO not built"
grep -q '^ftdetect ' /proc/modules || fail "module not loaded by the harness"
[ -c /dev/ftdetect ] || fail "/dev/ftdetect missing"
ftctl show > /dev/null || fail "genl family not reachable"

reload() {
	rmmod ftdetect || fail "rmmod failed"
	[ ! -e /dev/ftdetect ] || fail "/dev/ftdetect still present after rmmod"
	# (Not asking the genl family: the lookup would auto-load a DKMS copy.)
	[ ! -e /sys/module/ftdetect ] || fail "module still present after rmmod"
	insmod "$KO" || fail "insmod failed"
	[ -c /dev/ftdetect ] || fail "/dev/ftdetect missing after insmod"
}

for i in 1 2 3; do reload; done
log "3 unload/reload cycles of an idle module"

# A running 2-node cluster, then unload underneath it.
cluster_create 2
cluster_up "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT"
wait_until 30 all_alive || fail "cluster did not come up"
reload
log "unloaded with a running cluster"

# An open file pins the module.
exec {fd}< /dev/ftdetect
if rmmod ftdetect 2>/dev/null; then
	fail "module unloaded while /dev/ftdetect was open"
fi
exec {fd}<&-
rmmod ftdetect || fail "rmmod after close failed"
insmod "$KO" || fail "final insmod failed"
log "open file pins the module"
log "ok"
