/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The order of rail reports (IFACE_DEAD, IFACE_RESTORED) about one rail of
 * one node incarnation. Several observers report the same rail and their
 * reports cross in flight; applied as toggles, a stale DEAD and a fresh
 * RESTORED would chase each other around the overlay for ever. A report is
 * keyed by the heartbeat seq it was made at, DEAD after RESTORED at an equal
 * seq (heard seq s, then silence); only a key above the newest one held is
 * applied and forwarded, so keys only grow and every node settles on the
 * newest report.
 */
#ifndef FTD_PROTO_RAIL_H
#define FTD_PROTO_RAIL_H

#include "compat.h"

/* 0 is below every report: "none yet". */
static inline u64 ftd_rail_report_key(u64 seq, bool dead)
{
	return (seq << 1) | (dead ? 1 : 0);
}

#endif
