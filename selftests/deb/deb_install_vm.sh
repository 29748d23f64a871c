#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deb_install_vm.sh: the Debian packages of make deb (build/deb/*.deb)
# installed, run and purged in a guest booted with systemd as PID 1 (make
# test-deb-vm), as a site does it on a node. The guest's /usr, /etc and
# /var/lib are overlays, discarded with it: the host's packages never change.
#
#   root namespace: node 1 (the packaged unit) --n1r0--+-- br0 (sw)
#   n2: node 2 (the packaged ftctl apply) ------ n2r0--+
#
#  1. apt-get install of every package (the debug symbols aside): the
#     postinst of ftdetect-dkms has DKMS build and install ftdetect.ko for
#     the running kernel, the only one with headers here (below);
#     the unit is enabled and, with no /etc/ftdetect/cluster.conf, inactive.
#  2. /etc/ftdetect/cluster.conf written, the unit started: modprobe loads
#     the module DKMS built (its srcversion), node 2 applies the same file
#     with the packaged ftctl, and the packaged ftstat shows both alive at
#     both nodes.
#  3. apt-get purge of every package: the prerm stops the unit, so node 2
#     sees node 1 leave (NODE_LEFT, never NODE_DEAD), and nothing of the
#     packages is left (no package, DKMS entry, source, module file, unit,
#     enablement, program). What stays is the admin's own file,
#     /etc/ftdetect/cluster.conf, which no package owns (it holds the
#     cluster's key: dpkg leaves it, as Debian policy has it). The loaded
#     module stays too (DKMS never unloads one); selftests/vm/run checks at
#     the end that it unloads.
#
# Slow by nature: DKMS compiles the module inside the emulated guest, and
# its depmod reads every module of the kernel (~80 s under TCG, each time).
FTD_ROOT_NODE=1
source "$(dirname "$0")/../lib.sh"

[[ $(cat /proc/1/comm 2>/dev/null) == systemd && -d /run/systemd/system ]] ||
	skip "systemd is not PID 1 here (boot the guest with FTD_VM_INIT=systemd: make test-deb-vm)"
grep -qw 'ftd\.run=[^ ]*' /proc/cmdline ||
	skip "not in the test VM (selftests/vm/run): this test installs packages"

version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$FTD_ROOT/dkms.conf")
mapfile -t packages < <(sed -n 's/^Package: *//p' "$FTD_ROOT/debian/control")
debs=()
for p in "${packages[@]}"; do
	for f in "$FTD_ROOT/build/deb/${p}_${version}_"*.deb; do [[ -f $f ]] && debs+=("$f"); done
done
((${#debs[@]} == ${#packages[@]})) ||
	skip "not every package of debian/control is in build/deb at $version: make deb first (make test-deb-vm does)"
held=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' "${packages[@]}" 2>/dev/null | grep -v '^un' | head -n 1)
[[ -z $held ]] || skip "the host has $held installed: this test installs the packages itself"
other=$(dkms status -m ftdetect 2>/dev/null | head -n 1)
[[ -z $other && ! -e /usr/src/ftdetect-$version ]] ||
	skip "the host has an ftdetect in DKMS (${other:-/usr/src/ftdetect-$version}; make dkms-remove): the packages would find it"
[ ! -e /sys/module/ftdetect ] || skip "a module is loaded already (boot with FTD_VM_LOAD=0)"

CONF=/etc/ftdetect/cluster.conf
UNIT=ftdetect.service
rel=$(uname -r)
t_start=$(date +%s%N)
at() { echo "at $(( ($(date +%s%N) - t_start) / 1000 / 1000000 )) s"; }
unit_prop() { systemctl show -p "$1" --value "$UNIT"; }
FTD_ON_FAIL="systemctl status --no-pager $UNIT"

# apt keeps its lock and caches in /var/cache, which the guest has read-only.
apt_cache=$FTD_TMP/apt-cache
mkdir -p "$apt_cache/archives/partial"
apt() {
	DEBIAN_FRONTEND=noninteractive apt-get -o Dir::Cache="$apt_cache" -y "$@"
}

# A node has the headers of the kernel it runs. This guest sees every
# kernel of the host, and DKMS's postinst builds for the newest installed
# too (the 6.12 series make deps adds), which would double a build that is
# slow enough emulated: the others' headers are hidden here (/lib/modules
# is in the guest's overlay of /usr).
for b in /lib/modules/*/build; do
	[[ $b == /lib/modules/$rel/build ]] || rm -f "$b"
done
[[ -e /lib/modules/$rel/build/Makefile ]] || skip "no headers for the running kernel $rel"

# The guest runs the host's /usr, which on a build container has a
# policy-rc.d that forbids maintainer scripts to start or stop any service
# (exit 101): the prerm's stop would be refused and the unit left running.
# A node has none.
if [[ -e /usr/sbin/policy-rc.d ]]; then
	log "removed from this guest: /usr/sbin/policy-rc.d (it says: $(/usr/sbin/policy-rc.d x stop >/dev/null 2>&1; echo "exit $?"))"
	rm -f /usr/sbin/policy-rc.d
fi

# ---- 1. Installed as a site does it.
log "1. apt-get install ${debs[*]##*/} ($(at))"
apt install --no-install-recommends "${debs[@]}" > "$FTD_TMP/install.log" 2>&1 ||
	{ tail -n 60 "$FTD_TMP/install.log"; fail "apt-get install failed"; }
grep -E '^(Building (for|initial)|Running module version sanity|depmod|Installing to)' "$FTD_TMP/install.log" |
	sed 's/^/#   /' || true
dkms status -m ftdetect -v "$version" -k "$rel" 2>/dev/null | grep -q ': installed' ||
	{ dkms status; fail "DKMS did not install ftdetect $version for the running kernel $rel"; }
ko=$(modinfo -n -k "$rel" ftdetect 2>/dev/null) || fail "modprobe does not find ftdetect for $rel (depmod not run?)"
[[ $ko == /lib/modules/$rel/updates/dkms/ftdetect.ko* ]] || fail "modprobe would load $ko, not the one DKMS installed"
[[ $(modinfo -F vermagic "$ko") == "$rel "* ]] || fail "$ko: vermagic '$(modinfo -F vermagic "$ko")' is not $rel's"
[ "$(systemctl is-enabled "$UNIT")" = enabled ] || fail "$UNIT is $(systemctl is-enabled "$UNIT") after install, not enabled"
[ "$(unit_prop ActiveState)" = inactive ] || fail "$UNIT is $(unit_prop ActiveState) with no $CONF"
[ ! -e /sys/module/ftdetect ] || fail "the install loaded the module with no $CONF"
log "   installed: $(dkms status -m ftdetect 2>/dev/null | paste -sd';'); modprobe finds $ko;" \
	"$UNIT enabled, inactive ($(at))"

# ---- 2. Configured and started.
cluster_create 2
cluster_config "$FTD_TMP/cluster.conf" "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT" 4
install -m 600 "$FTD_TMP/cluster.conf" "$CONF"
systemctl start "$UNIT" || fail "systemctl start $UNIT failed"
[ "$(unit_prop ActiveState)" = active ] || fail "$UNIT is $(unit_prop ActiveState), not active"
[ "$(cat /sys/module/ftdetect/srcversion)" = "$(modinfo -F srcversion "$ko")" ] ||
	fail "the module loaded is not the one DKMS built ($ko)"
watch_events 2
n 2 /usr/sbin/ftctl apply "$CONF" > /dev/null || fail "node 2: the packaged ftctl apply failed"
# lib.sh's all_alive, with the packaged ftstat.
packaged_alive() { FTD_FTSTAT=/usr/bin/ftstat all_alive 1 2; }
wait_until 30 packaged_alive || { /usr/bin/ftstat; fail "the packaged ftstat does not show both nodes alive"; }
log "2. $UNIT started, module from DKMS loaded (srcversion $(cat /sys/module/ftdetect/srcversion));" \
	"the packaged ftstat at node 1 ($(at)):"
/usr/bin/ftstat | sed 's/^/#   /'

# ---- 3. Purged.
events_archive 2
log "3. apt-get purge ${packages[*]} ($(at))"
apt purge "${packages[@]}" > "$FTD_TMP/purge.log" 2>&1 ||
	{ tail -n 60 "$FTD_TMP/purge.log"; fail "apt-get purge failed"; }
wait_until 10 has_event "$FTD_TMP/dev.2" NODE_LEFT 1 || fail "node 2: no NODE_LEFT of node 1 after the purge"
# Five timeouts: a death would have been declared by now.
sleep $(( 5 * ${FTD_TEST_TIMEOUT%ms} / 1000 + 1 ))
[ "$(count_events "$FTD_TMP/dev.2" NODE_DEAD 1)" = 0 ] || fail "node 2 declared node 1 dead after the purge"
leftovers() {
	dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' "${packages[@]}" 2>/dev/null | grep -v '^un'
	dkms status -m ftdetect 2>/dev/null
	ls -d /usr/src/ftdetect-* /var/lib/dkms/ftdetect /lib/systemd/system/ftdetect.service \
		/etc/systemd/system/*/ftdetect.service /lib/modules/*/updates/dkms/ftdetect.ko* \
		/usr/sbin/ftctl /usr/bin/ftstat 2>/dev/null
	find /var/lib/systemd/deb-systemd-helper-enabled -name '*ftdetect*' 2>/dev/null
	grep -l ftdetect /lib/modules/*/modules.dep 2>/dev/null
	find /etc/ftdetect -mindepth 1 ! -path "$CONF" 2>/dev/null
	true
}
left=$(leftovers)
[[ -z $left ]] || { sed 's/^/# left: /' <<< "$left"; fail "the purge left files or state behind"; }
[ -f "$CONF" ] || fail "the purge removed the admin's $CONF"
rm -r /etc/ftdetect
[ "$(systemctl show -p LoadState --value "$UNIT")" = not-found ] ||
	fail "systemd still knows $UNIT after the purge ($(unit_prop LoadState))"
log "   node 2 saw node 1 leave (NODE_LEFT, no NODE_DEAD); nothing of the packages left," \
	"the admin's $CONF kept ($(at))"
