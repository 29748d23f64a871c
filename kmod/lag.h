/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The receive path's lag: how long frames waited between their arrival
 * stamp (the driver's or the core's, stamp.h) and the module.
 *
 * A tick that fires on time does not prove that the receive path keeps
 * up: the receive softirq has a budget (netdev_budget, two jiffies), and a
 * swamped CPU hands the rest of its backlog to ksoftirqd while the
 * heartbeat timer still fires on time; frames of live peers then wait,
 * and their senders look silent. Ticks at which a frame handled since the
 * tick before had waited more than a period are counted (ticks_rx_behind),
 * and that wait stretches the deadlines this node judges by
 * (proto/health.h, our own receive path's lag). They are not treated as
 * starved: a starved tick starts and grows no walk past a silent run, and
 * with that rule a rack of four in the emulated VM was declared 924 ms
 * after the cut, over two timeouts (docs/detection.md).
 */
#ifndef FTD_LAG_H
#define FTD_LAG_H

#include <linux/netdevice.h>
#include "net.h"

/* A frame waited lag_ns before the module saw it. Softirq, any CPU. */
static inline void ftd_lag_note(struct ftd_net *fn, u64 lag_ns)
{
	s64 old = atomic64_read(&fn->rx_lag_ns);

	while ((s64)lag_ns > old && !atomic64_try_cmpxchg(&fn->rx_lag_ns, &old, lag_ns))
		;
}

/*
 * The timer, once a tick at now: the longest wait since the tick before,
 * counted when over a period, and remembered as our lag.
 */
static inline void ftd_lag_tick(struct ftd_net *fn, u64 now, u64 period_ns, u64 timeout_ns)
{
	s64 lag = atomic64_xchg(&fn->rx_lag_ns, 0);

	if (lag <= (s64)period_ns)
		return;
	atomic64_inc(&fn->stats.ticks_rx_behind);
	ftd_health_note_lag(&fn->rx_health, lag, period_ns, timeout_ns, now);
}

/* What ftd_rx_stuck() saw of one CPU at its last look (the timer's own). */
struct ftd_rx_cpu {
	u32 gen;	/* the look it belongs to; another: no look before */
	u32 processed;	/* its count of frames processed then */
	u32 waiting;	/* frames in its backlog then */
	u64 since_ns;	/* some of them have waited since */
};

/*
 * Frames wait in another CPU's backlog and that CPU has not processed as
 * many frames as waited there at the look before, for a while (max(period,
 * 1 ms), from the first look that saw them waiting): the backlog is a
 * queue, so the frames that waited then still wait. Its vCPU was taken
 * away by the host, or its ksoftirqd starves, while our timer runs on
 * time elsewhere; a starved CPU may still handle a few frames now and
 * then (an interrupt's end runs the softirqs anyway while a tasklet is
 * pending, for one), which is no drain (selftests/net/rx_stuck.sh: with
 * "no frame processed" as the rule, such a trickle let the lease end at
 * one tick, in 2 runs of 9). Any of them may be a member's heartbeat, so
 * a silence measured now is not yet evidence (proto/overload.h: it holds
 * verdicts and the lease, for a while). Our own CPU is left out: it runs
 * this tick, what waits on it is handled right after, and if it was taken
 * away our tick is late (starved).
 * Progress is the CPU's count of frames processed (softnet_stat's first
 * column): a CPU busy with other NAPI devices while its backlog waits
 * may look as if it drained; frames in a driver's own ring (a NAPI device,
 * a veth with XDP, an RDMA completion queue) are not seen at all.
 *
 * Each look reads every online CPU's counters (without their locks), so
 * the timer looks only while a verdict may be near (ftd_detect_tick:
 * while it suspects someone or hears nobody); gen numbers the looks, and
 * a look after a pause starts afresh. The timer only.
 */
static inline bool ftd_rx_stuck(struct ftd_rx_cpu __percpu *seen, u32 gen, u64 now,
				 u64 min_wait_ns)
{
	int self = smp_processor_id();
	bool stuck = false;
	int cpu;

	for_each_online_cpu(cpu) {
		struct softnet_data *sd = &per_cpu(softnet_data, cpu);
		struct ftd_rx_cpu *c = per_cpu_ptr(seen, cpu);
		u32 done = data_race(sd->processed);
		u32 waiting = skb_queue_len_lockless(&sd->input_pkt_queue) +
			      data_race(skb_queue_len(&sd->process_queue));

		/* Empty, drained what waited before, just began to wait, or not looked at before. */
		if (!waiting || c->gen + 1 != gen || done - c->processed >= c->waiting || !c->waiting)
			c->since_ns = now;
		else if (cpu != self && now - c->since_ns >= min_wait_ns)
			stuck = true;
		c->gen = gen;
		c->processed = done;
		c->waiting = waiting;
	}
	return stuck;
}

/*
 * Received frames this machine dropped before any protocol saw them: the
 * per-CPU backlogs' drops (netdev_max_backlog), summed over the CPUs, as
 * /proc/net/softnet_stat shows them (proto/overload.h). Any context.
 */
static inline u64 ftd_rx_dropped(void)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct softnet_data *sd = &per_cpu(softnet_data, cpu);

		/* An unsigned int until the kernel made it an atomic_t (6.9 or so). */
		BUILD_BUG_ON(sizeof(sd->dropped) != sizeof(unsigned int));
		sum += _Generic(sd->dropped,
				atomic_t: (unsigned int)atomic_read((atomic_t *)&sd->dropped),
				default: READ_ONCE(*(unsigned int *)&sd->dropped));
	}
	return sum;
}

#endif
