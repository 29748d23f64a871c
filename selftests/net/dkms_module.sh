#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dkms_module.sh: the module that `dkms install` put under /lib/modules (the
# host's DKMS stage of `make test` does that before booting this VM) loads
# with modprobe, dependencies included, and works.
source "$(dirname "$0")/../lib.sh"

[ -z "${FTD_DEBUG_KERNEL:-}" ] ||
	skip "the debug kernel (make test-debug) has no DKMS install: DKMS builds against Debian's headers package"
path=$(modinfo -n ftdetect 2>/dev/null || true)
case $path in
*/updates/dkms/*) ;;
*) skip "no DKMS-installed ftdetect for $(uname -r) (run through make test, which installs it)" ;;
esac
# An admin's DKMS install, which make test leaves alone, is not this tree's.
[ "$(modinfo -F srcversion "$path")" = "$(modinfo -F srcversion "$FTD_KO")" ] ||
	skip "the DKMS-installed $path is not built from this tree (an install make test left alone)"
rmmod ftdetect
modprobe ftdetect || fail "modprobe of the DKMS module failed"
[ -c /dev/ftdetect ] || fail "/dev/ftdetect missing"
log "loaded $path ($(modinfo -F version ftdetect))"
cluster_create 2
cluster_up "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT"
wait_until 30 all_alive || fail "DKMS module: cluster did not come up"
rmmod ftdetect
insmod "$FTD_KO"
log "ok"
