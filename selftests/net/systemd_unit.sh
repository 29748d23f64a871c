#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# systemd_unit.sh: ftdetect.service (systemd/ftdetect.service.in) run by a
# real systemd, PID 1 of a guest booted with FTD_VM_INIT=systemd (make
# test-systemd, stage vm-systemd of make test), as its peers see it. Node 1
# is the guest itself, its root namespace, configured only through the unit;
# nodes 2 and 3 are namespaces configured with ftctl apply.
#
#   root namespace: node 1 (ftdetect.service) --n1r0--+
#   n2: node 2 (ftctl apply) ----------------- n2r0--+-- br0 (sw)
#   n3: node 3 (ftctl apply) ----------------- n3r0--+
#
#  1. make install-tools install-systemd PREFIX=/usr (make install's parts
#     that matter here), for real: the guest's /usr and /etc are overlays,
#     discarded. The unit is where systemd looks, and loaded.
#  2. No /etc/ftdetect/cluster.conf: start skips the unit by its
#     condition, without failing, and loads nothing.
#  3. A file, no module installed: start fails, and the journal says why.
#  4. The module made known to modprobe, the unit enabled and started:
#     modprobe loads it, the peers see node 1 alive.
#  5. Stop: NODE_LEFT at both peers, never NODE_DEAD.
#  6. Start: NODE_ALIVE at a higher incarnation.
#  7. Reload of a new period and timeout: applied live, at the same
#     incarnation; the peers see no leave, death or restart.
#  8. Reload of a broken file fails and changes nothing; a start with it
#     fails with ftctl's error in the journal and in systemctl status.
#
# Not tested: the stop at shutdown (systemctl reboot/poweroff). The peers
# here are namespaces of the same guest and go down with it, so what they
# would see cannot be observed. Shutdown stops the unit through the same
# ExecStop as step 5, and before network-online.target (the unit is
# ordered after it), i.e. while the LEFT notice can still leave.
FTD_ROOT_NODE=1
source "$(dirname "$0")/../lib.sh"

[[ $(cat /proc/1/comm 2>/dev/null) == systemd && -d /run/systemd/system ]] ||
	skip "systemd is not PID 1 here (boot the guest with FTD_VM_INIT=systemd: make test-systemd)"
# It installs into /usr and /lib/modules and takes the root namespace.
grep -qw 'ftd\.run=[^ ]*' /proc/cmdline ||
	skip "not in the test VM (selftests/vm/run): this test installs into /usr"
[ ! -e /etc/ftdetect/cluster.conf ] || skip "/etc/ftdetect/cluster.conf exists: not a fresh guest"

CONF=/etc/ftdetect/cluster.conf
UNIT=ftdetect.service
t_start=$(date +%s%N)
# at: how far into the test we are (for the log).
at() { echo "at $(( ($(date +%s%N) - t_start) / 1000000 )) ms"; }

unit_prop() { systemctl show -p "$1" --value "$UNIT"; }
# journal_has TEXT: the unit's journal holds TEXT (journald may lag).
journal_has() { journalctl -q -u "$UNIT" --no-pager | grep -qF -- "$1"; }
# node1 FIELD: a field of node 1's configuration (ftctl show -j).
node1() { ftctl show -j | jq -r ".$1"; }
# peer_events: what the peers delivered about node 1 since the last
# events_archive, for the log.
peer_events() {
	local i out line
	for i in 2 3; do
		out=$(grep '"node":1[,}]' "$FTD_TMP/dev.$i" | jq -c '{event, node, incarnation}')
		while read -r line; do echo "#   node $i: $line"; done <<< "${out:-nothing}"
	done
}
# peers_saw_none EVENT...: no peer delivered any EVENT about node 1 since
# the last events_archive.
peers_saw_none() {
	local i ev
	for i in 2 3; do
		for ev in "$@"; do
			[ "$(count_events "$FTD_TMP/dev.$i" "$ev" 1)" = 0 ] ||
				{ peer_events; fail "node $i delivered $ev of node 1"; }
		done
	done
}
# peers_kept_incarnation INC: every event about node 1 since the last
# events_archive is about incarnation INC (a suspicion taken back, which a
# starved emulated guest may show, is; a restart is not).
peers_kept_incarnation() {
	local i
	for i in 2 3; do
		if jq -c --argjson inc "$1" 'select(.node == 1 and .incarnation != $inc)' \
			"$FTD_TMP/dev.$i" | grep -q .; then
			peer_events
			fail "node $i delivered an event of node 1 at another incarnation than $1"
		fi
	done
}

# The guest is thrown away, but its end checks that the module unloads.
# Then lib.sh's cleanup, which reads the test's status from $?; errexit off
# first, or that (exit) would end the trap before it.
unit_cleanup() {
	local rc=$?
	set +e
	systemctl stop "$UNIT" 2>/dev/null
	systemctl reset-failed "$UNIT" 2>/dev/null
	systemctl disable "$UNIT" 2>/dev/null
	rm -f "$CONF" /etc/ftdetect/cluster.key /etc/modprobe.d/ftdetect-test.conf
	(exit "$rc")
	cleanup
}
trap unit_cleanup EXIT
FTD_ON_FAIL="systemctl status --no-pager $UNIT"

# ---- 1. Installed as an admin does it. make writes the unit it generates
# (for this PREFIX) under build/: an overlay over build/, in a mount
# namespace of its own, keeps that from the host's tree.
mkdir -p "$FTD_TMP/build/upper" "$FTD_TMP/build/work"
# shellcheck disable=SC2016  # expanded by that sh
unshare -m sh -c 'mount -t overlay overlay -o "lowerdir=$1/build,upperdir=$2/upper,workdir=$2/work" "$1/build" &&
	make -s -C "$1" install-tools install-systemd PREFIX=/usr' _ "$FTD_ROOT" "$FTD_TMP/build" > "$FTD_TMP/install.log" 2>&1 ||
	{ cat "$FTD_TMP/install.log"; fail "make install-tools install-systemd PREFIX=/usr failed"; }
unit_file=$(unit_prop FragmentPath)
[[ -n $unit_file && $(unit_prop LoadState) == loaded ]] ||
	fail "systemd does not know $UNIT after make install (daemon-reload not run?)"
grep -qx 'ExecStart=/usr/sbin/ftctl apply /etc/ftdetect/cluster.conf' "$unit_file" ||
	fail "$unit_file does not run /usr/sbin/ftctl: $(grep ^ExecStart= "$unit_file")"
[[ -d /etc/ftdetect && -z $(ls -A /etc/ftdetect) ]] || fail "/etc/ftdetect missing or not empty"
log "1. make install-tools install-systemd PREFIX=/usr: $unit_file, loaded by systemd ($(at))"

# No module from elsewhere: the guest's /lib/modules is an overlay, so
# removing a DKMS build of the host's here leaves the host's alone.
if [ -e /sys/module/ftdetect ]; then
	rmmod ftdetect || fail "cannot unload the module loaded before the test"
fi
if other=$(modinfo -n ftdetect 2>/dev/null) && [ -e "$other" ]; then
	rm "$other" && log "removed from this guest: $other"
fi

# ---- 2. An unconfigured node starts nothing.
systemctl start "$UNIT" || fail "start without $CONF failed instead of being skipped"
[ "$(unit_prop ConditionResult)" = no ] || fail "the condition did not skip the unit"
[ "$(unit_prop ActiveState)" = inactive ] || fail "unit is $(unit_prop ActiveState), not inactive"
[ ! -e /sys/module/ftdetect ] || fail "the skipped unit loaded the module"
log "2. no $CONF: skipped by ConditionPathExists, $(unit_prop ActiveState), nothing loaded ($(at))"

# ---- 3. The file, with its key in a keyfile next to it, as docs suggest.
cluster_create 3
cluster_config "$FTD_TMP/cluster.conf" "$FTD_TEST_PERIOD" "$FTD_TEST_TIMEOUT" 4
(umask 077; sed -n 's/^key = //p' "$FTD_TMP/cluster.conf" > /etc/ftdetect/cluster.key)
sed 's/^key = .*/keyfile = cluster.key/' "$FTD_TMP/cluster.conf" > "$CONF"
chmod 600 "$CONF"

if systemctl start "$UNIT" 2> /dev/null; then fail "start succeeded with no module installed"; fi
wait_until 10 journal_has "ftdetect module not loaded (modprobe ftdetect)" ||
	{ journalctl -u "$UNIT" --no-pager; fail "the journal does not say the module is missing"; }
[ "$(unit_prop ActiveState)" = failed ] || fail "unit is $(unit_prop ActiveState), not failed"
log "3. no module installed: start fails; journal: $(journalctl -q -u "$UNIT" --no-pager -o cat | grep -m1 -e modprobe -e FATAL)"
systemctl reset-failed "$UNIT"

# ---- 4. The module under test made known to modprobe, the unit enabled
# and started. Not as DKMS does it (into updates/, then depmod): depmod
# reads every module of the kernel, which took 80 s under TCG; an install
# command in modprobe.d is what modprobe runs instead of its insmod.
echo "install ftdetect /sbin/modprobe -a $(modinfo -F depends "$FTD_KO" | tr ',' ' ') &&" \
	"/sbin/insmod $FTD_KO" > /etc/modprobe.d/ftdetect-test.conf
systemctl enable "$UNIT" 2> /dev/null
[ "$(systemctl is-enabled "$UNIT")" = enabled ] || fail "not enabled: $(systemctl is-enabled "$UNIT")"
[ -L /etc/systemd/system/multi-user.target.wants/$UNIT ] || fail "enable made no multi-user.target.wants link"

t=$(date +%s%N)
systemctl start "$UNIT" || fail "start failed"
log "4. enabled and started in $((($(date +%s%N) - t) / 1000000)) ms ($(at))"
[ "$(unit_prop ActiveState)" = active ] || fail "unit is $(unit_prop ActiveState), not active"
[ "$(cat /sys/module/ftdetect/srcversion)" = "$(modinfo -F srcversion "$FTD_KO")" ] ||
	fail "the module modprobe loaded is not the one under test"
[[ $(node1 up) == true && $(node1 node) == 1 ]] || fail "node 1 is not up: $(ftctl show)"
inc_a=$(node1 incarnation)

watch_events 2
watch_events 3
n 2 ftctl apply "$CONF" > /dev/null
n 3 ftctl apply "$CONF" > /dev/null
wait_until 30 all_alive || fail "the cluster did not come up"
for i in 2 3; do
	wait_until 10 has_event "$FTD_TMP/dev.$i" NODE_ALIVE 1 || fail "node $i: no NODE_ALIVE of node 1"
done
log "the peers see node 1 (incarnation $inc_a) alive:"
peer_events
events_archive 2 3

# ---- 5. Stop: a clean leave.
systemctl stop "$UNIT" || fail "stop failed"
[ "$(node1 up)" = false ] || fail "node 1 is still up after stop"
for i in 2 3; do
	wait_until 10 has_event "$FTD_TMP/dev.$i" NODE_LEFT 1 || fail "node $i: no NODE_LEFT of node 1"
done
# Five timeouts: a death would have been declared by now.
sleep $(( 5 * $(scaled 100) / 1000 + 1 ))
peers_saw_none NODE_DEAD
for i in 2 3; do
	[ "$(count_events "$FTD_TMP/dev.$i" NODE_LEFT 1)" = 1 ] || fail "node $i: NODE_LEFT not exactly once"
done
[[ $(node_state 2 1) == left && $(node_state 3 1) == left ]] || fail "the peers do not show node 1 left"
log "5. systemctl stop ($(at)):"
peer_events
events_archive 2 3

# ---- 6. Start again: back at a higher incarnation.
systemctl start "$UNIT" || fail "start after stop failed"
inc_b=$(node1 incarnation)
[ "$inc_b" -gt "$inc_a" ] || fail "incarnation did not grow ($inc_a -> $inc_b)"
for i in 2 3; do
	wait_until 10 has_event "$FTD_TMP/dev.$i" NODE_ALIVE 1 || fail "node $i: no NODE_ALIVE of node 1"
done
wait_until 10 all_alive || fail "node 1 is not alive everywhere again"
peers_saw_none NODE_DEAD
log "6. systemctl start, incarnation $inc_a -> $inc_b ($(at)):"
peer_events
events_archive 2 3

# ---- 7. Reload a changed file: live, no restart.
sed -i -e "s/^period = .*/period = $(scaled 20)ms/" -e "s/^timeout = .*/timeout = $(scaled 200)ms/" "$CONF"
systemctl reload "$UNIT" || fail "reload failed"
[[ $(node1 period_ns) == $(( $(scaled 20) * 1000000 )) &&
	$(node1 timeout_ns) == $(( $(scaled 200) * 1000000 )) ]] ||
	fail "reload did not apply the new period and timeout: $(ftctl show)"
[[ $(node1 incarnation) == "$inc_b" && $(node1 up) == true ]] ||
	fail "reload restarted node 1 (incarnation $inc_b -> $(node1 incarnation))"
# The site changes the file on every node.
n 2 ftctl apply "$CONF" > /dev/null
n 3 ftctl apply "$CONF" > /dev/null
sleep $(( 5 * $(scaled 200) / 1000 + 1 ))
peers_saw_none NODE_LEFT NODE_DEAD NODE_RESTORED
peers_kept_incarnation "$inc_b"
wait_until 5 all_alive || fail "not every node is alive after the reload"
log "7. systemctl reload ($(at)): period $(node1 period_ns) ns, timeout $(node1 timeout_ns) ns," \
	"incarnation $inc_b kept; the peers delivered about node 1:"
peer_events
events_archive 2 3

# ---- 8. A broken file: reload fails and changes nothing; start fails.
sed -i 's/^period = .*/period = banana/' "$CONF"
if systemctl reload "$UNIT" 2> /dev/null; then fail "reload of a broken file succeeded"; fi
[ "$(unit_prop ActiveState)" = active ] || fail "a failed reload left the unit $(unit_prop ActiveState)"
[[ $(node1 up) == true && $(node1 period_ns) == $(( $(scaled 20) * 1000000 )) ]] ||
	fail "a failed reload changed node 1: $(ftctl show)"
wait_until 10 journal_has "bad period 'banana'" || fail "the journal does not show ftctl's error"
sleep 1
peers_saw_none NODE_LEFT NODE_DEAD NODE_RESTORED
peers_kept_incarnation "$inc_b"
log "8. reload of a broken file fails, node 1 runs on unchanged ($(at))"

systemctl stop "$UNIT"
mark=$(journalctl -q -u "$UNIT" --no-pager | wc -l)
if systemctl start "$UNIT" 2> /dev/null; then fail "start with a broken file succeeded"; fi
[ "$(unit_prop ActiveState)" = failed ] || fail "unit is $(unit_prop ActiveState), not failed"
wait_until 10 sh -c "journalctl -q -u $UNIT --no-pager | tail -n +$((mark + 1)) | grep -qF \"bad period 'banana'\"" ||
	fail "the journal does not show ftctl's error for the failed start"
# (status 3: the unit is not active)
systemctl status --no-pager -n 5 "$UNIT" > "$FTD_TMP/status" 2>&1 || true
grep -qF "bad period 'banana'" "$FTD_TMP/status" || { cat "$FTD_TMP/status"; fail "systemctl status does not show ftctl's error"; }
peers_saw_none NODE_DEAD
log "   start with it fails; systemctl status shows:"
grep -F -e "Active:" -e "banana" "$FTD_TMP/status" | sed 's/^ */#     /'
log "ok ($(at))"
