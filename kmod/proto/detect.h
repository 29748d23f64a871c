/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The suspicion state machine of one observed node, as a pure function of
 * what happened: heard from it, or silent for some time. The caller owns the
 * clock and the locking; the same rules drive the module and the simulator.
 *
 *   UNKNOWN --heard--> ALIVE --silence >= timeout/2--> SUSPECT
 *   SUSPECT --heard--> ALIVE
 *   ALIVE, SUSPECT --silence >= timeout--> DEAD
 *   DEAD: terminal for this incarnation (fail-stop: a dead node never comes
 *         back as the same incarnation)
 *
 * A node never heard stays UNKNOWN: it has not joined, so it cannot fail.
 * Nor does it hold a place in the ring (proto/ring.h): only nodes heard at
 * their current incarnation (ALIVE, SUSPECT) and the local node do. A node
 * listed but powered off thus takes no observer slot, gets no heartbeats,
 * and cannot make its neighbours look cut off; it is asked now and then
 * (a PROBE, proto/fresh.h) and joins the ring when it answers.
 *
 * An observer that was itself starved (its tick came late) may still have
 * the node's frames waiting in its receive queues: silence it measured then
 * is no evidence, so a starved observer suspects but does not declare.
 */
#ifndef FTD_PROTO_DETECT_H
#define FTD_PROTO_DETECT_H

#include "compat.h"
#include <linux/ftdetect.h>

static inline u64 ftd_detect_suspect_after(u64 timeout_ns)
{
	return timeout_ns / 2;
}

/*
 * How often a suspect (or a node past a silent run) is asked: a PROBE.
 * About a quarter timeout, but on the ticks: the largest multiple of the
 * period not above it (one period at least), less a quarter period for a
 * tick that fires a little early. At 10 ms / 50 ms a quarter timeout
 * (12.5 ms) asked only at every second tick, 20 ms apart, so a node
 * suspected at half the timeout was asked once before it was declared;
 * now it is asked at every tick of the second half, twice.
 */
static inline u64 ftd_detect_ask_every(u64 period_ns, u64 timeout_ns)
{
	u64 quarter = timeout_ns / 4;

	if (quarter <= period_ns)
		return period_ns - period_ns / 4;
	return quarter - quarter % period_ns - period_ns / 4;
}

/* Does a node in this state hold its place in the ring? */
static inline bool ftd_detect_in_ring(enum ftd_node_state st)
{
	return st == FTD_NODE_ALIVE || st == FTD_NODE_SUSPECT || st == FTD_NODE_SELF;
}

/*
 * A new incarnation of a node held in this state ends the one we held, and
 * what is left of it is told (proto/ranks.h: its ranks): alive or suspect,
 * it restarted within the timeout and nobody declared it; dead, the
 * declarer (on another CPU) may not have told all its ranks yet. The death
 * itself is told once (dissem.c, first_telling).
 */
static inline bool ftd_detect_restart_ends(enum ftd_node_state st)
{
	return st == FTD_NODE_ALIVE || st == FTD_NODE_SUSPECT || st == FTD_NODE_DEAD;
}

/*
 * The timing of a running instance changed: does silence measured so far
 * stop counting? When the period or the timeout got shorter: a node that
 * heartbeat every old period was not late by the new timeout, and its
 * next heartbeat comes up to an old period after the change (lowering
 * 2 s / 10 s to 50 ms / 1 s on 4 live nodes fenced one: reconfig_faster).
 */
static inline bool ftd_detect_timing_shortened(u64 old_period, u64 old_timeout, u64 period,
					       u64 timeout)
{
	return period < old_period || timeout < old_timeout;
}

/*
 * Silence measured from since (0: nothing heard, nothing to measure), but
 * not from before the timing was last shortened (timing_since; 0: never).
 */
static inline u64 ftd_detect_silence_from(u64 since, u64 timing_since)
{
	return since && timing_since > since ? timing_since : since;
}

/*
 * Does an observer remind a node it times of itself (one heartbeat back,
 * each period) after silence_ns without hearing it? Views can disagree on
 * who observes whom: a node back from a fenced minority forgot its view
 * and heartbeats only to the members it has heard again, while its
 * observers learned it alive from others, or from one PROBE exchange whose
 * answer it lost. Unreminded, an observer times a node that sends it
 * nothing, and only a suspicion's PROBE, too late on a busy node, stops a
 * false death (the island test). Two periods: a node heard every period
 * is never reminded; a dead one costs its k observers a frame a period
 * until declared (or while held suspect without being judged). The
 * reminders are a stream paused and resumed: each resume is a new epoch
 * (ftd_seq_resumes(), proto/seq.h), never lateness at the receiver.
 */
static inline bool ftd_detect_reminds(enum ftd_node_state st, u64 silence_ns, u64 period_ns)
{
	return (st == FTD_NODE_ALIVE || st == FTD_NODE_SUSPECT) && silence_ns >= 2 * period_ns;
}

/*
 * Is a watched node's silence, which ran from since_ns past its deadline,
 * evidence yet? Only once we heard someone (any valid frame, from any
 * member) that arrived after the deadline had passed: then our receive
 * path has caught up with the moment the silence ran out, and we are not
 * cut off. Until then the node is suspect, not dead. heard_ns: the
 * latest arrival of a valid frame from anyone (0: none). Observers of a
 * single node cannot use the rule (hearing nobody would never prove its
 * death), as for the isolation rule.
 *
 * Why: a node cut off from everyone whose predecessor's last heartbeats
 * before the cut were lost declared that predecessor as its silence ran
 * out, before "nobody for half a timeout" (the isolation rule) held (the
 * simulator, 490 of 1,000 nodes cut off at 20 % loss: in 33 of 62 runs);
 * and a receive path that lags makes every silence look longer than it
 * is, which frames handled late (arrived before the deadline) cannot
 * refute. The price: a death is declared at the first tick after a
 * frame from someone arrived past its deadline, up to a period later
 * than before when every frame is on time (the k - 1 other predecessors
 * heartbeat every period), more under loss; a node all of whose
 * predecessors died learns that from the answers to its reach PROBEs.
 */
static inline bool ftd_detect_silence_proven(u64 heard_ns, u64 since_ns, u64 deadline_ns)
{
	return heard_ns && heard_ns >= since_ns + deadline_ns;
}

/*
 * Hearing nobody at all from several observed nodes at once says more
 * about us (cut off) than about them: suspect, declare nobody. With a
 * single observed node the two cannot be told apart. The threshold
 * (alone_ns) is the suspicion delay, not the timeout: when we are cut
 * off, the last frames of our predecessors came within a period of each
 * other, so one of them reaches the timeout while "nothing from anyone"
 * has lasted barely less; a healthy observer hears someone every period.
 */
static inline bool ftd_detect_isolated(u32 observed, u64 heard_nobody_ns, u64 alone_ns)
{
	return observed >= 2 && heard_nobody_ns >= alone_ns;
}

enum ftd_isolation {
	FTD_ISOLATION_SAME,
	FTD_ISOLATION_BEGINS,	/* isolated nodes ask different members first */
	FTD_ISOLATION_ENDS,
	/*
	 * It lasted long enough for the group to declare us dead: our
	 * predecessors may have stopped sending to us for that reason, and
	 * we may hear someone before we hear that. Their silence is no
	 * evidence: they get a timeout from now, like nodes we just began
	 * to observe.
	 */
	FTD_ISOLATION_ENDS_LONG,
};

/* A tick at now_ns, isolated or not; *since_ns: since when (0: not). */
static inline enum ftd_isolation ftd_detect_isolation(u64 *since_ns, bool isolated, u64 now_ns,
						      u64 timeout_ns)
{
	bool long_one;

	if (isolated == !!*since_ns)
		return FTD_ISOLATION_SAME;
	if (isolated) {
		*since_ns = now_ns ? now_ns : 1;
		return FTD_ISOLATION_BEGINS;
	}
	long_one = now_ns > *since_ns &&
		   now_ns - *since_ns >= ftd_detect_suspect_after(timeout_ns);
	*since_ns = 0;
	return long_one ? FTD_ISOLATION_ENDS_LONG : FTD_ISOLATION_ENDS;
}

/* State after silence_ns without a valid frame, seen by a (starved) observer. */
enum ftd_node_state ftd_detect_on_silence(enum ftd_node_state st, u64 silence_ns,
					  u64 timeout_ns, bool starved);

/* State after a valid frame of the node's current incarnation. */
enum ftd_node_state ftd_detect_on_heard(enum ftd_node_state st);

/*
 * Who tells the group (an ALIVE broadcast) that a node arrived: a node
 * that hears its heartbeats, or a new incarnation
 * of a node it held alive, suspect or dead (a restart, a rejoin: the group
 * held the old one; ftd_detect_restart_ends), or
 * any node that has caught up with the group since it came up (its digest
 * has been settled once). Not a node that has just come up and begins to
 * hear, by a PROBE's answer, a node it never knew: at a start every node
 * probes each member it has not heard (the sweep, fresh.h), and knows no
 * one yet, so were every such answer told a start of N nodes would cost
 * each node N broadcasts of what the group knew. The new node learns the
 * others from the view it asks of a member (proto/digest.h) and from its
 * own probes (nodes that start together, none caught up, ask no view),
 * the others learn it from the nodes that hear its heartbeats. A node back from a minority, which forgot its view, does
 * tell what it hears again: its island peers learn the majority from it.
 */
static inline bool ftd_detect_tells_arrival(bool by_heartbeat, bool ended_one, bool caught_up)
{
	return by_heartbeat || ended_one || caught_up;
}

/* The event a transition emits, or 0 for none. */
enum ftd_event_type ftd_detect_event(enum ftd_node_state from, enum ftd_node_state to);

#endif
