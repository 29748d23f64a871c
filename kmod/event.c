// SPDX-License-Identifier: GPL-2.0
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/ktime.h>
#include "event.h"
#include "genl.h"
#include "stab.h"
#include "bounds.h"

#define RING_MASK (FTD_EVENT_QUEUE_LEN - 1)
static_assert((FTD_EVENT_QUEUE_LEN & RING_MASK) == 0, "queue length must be a power of two");
static_assert(sizeof(struct ftd_event) == 64, "event record layout changed");

static u32 ring_used(const struct ftd_reader *r)
{
	return r->tail - r->head;
}

static void ring_put(struct ftd_reader *r, const struct ftd_event *ev)
{
	r->ring[r->tail++ & RING_MASK] = *ev;
}

static struct ftd_event overflow_record(struct ftd_reader *r)
{
	struct ftd_event ev = ftd_event_new(FTD_EV_OVERFLOW);

	ev.version = FTD_EVENT_VERSION;
	ev.size = sizeof(ev);
	ev.seq = r->lost_first_seq;
	ev.time_ns = ktime_get_real_ns();
	ev.mono_ns = ktime_get_ns();
	ev.count = r->lost;
	r->lost = 0;
	return ev;
}

/*
 * The queue keeps one slot in reserve for an OVERFLOW record. When only that
 * slot is left, new records are dropped and counted; the OVERFLOW record goes
 * into the stream as soon as there is room again, so the reader sees the gap
 * exactly where it happened, and every record it reads comes from the ring.
 */
static void reader_flush_lost(struct ftd_reader *r, u32 keep_free)
{
	struct ftd_event of;

	/* The last slot stays free: see ftd_reader_unread(). */
	if (!r->lost || ring_used(r) + 2 + keep_free > FTD_EVENT_QUEUE_LEN)
		return;
	of = overflow_record(r);
	ring_put(r, &of);
}

static void reader_push(struct ftd_reader *r, const struct ftd_event *ev)
{
	reader_flush_lost(r, 1);
	if (r->lost || ring_used(r) >= FTD_EVENT_QUEUE_LEN - 1) {
		if (!r->lost++)
			r->lost_first_seq = ev->seq;
	} else {
		ring_put(r, ev);
	}
	wake_up_interruptible(&r->wait);
}

static void emit(struct ftd_net *fn, struct ftd_event *ev, const struct ftd_stab_ref *ref)
{
	struct ftd_reader *r;

	ev->version = FTD_EVENT_VERSION;
	ev->size = sizeof(*ev);
	ev->time_ns = ktime_get_real_ns();
	ev->mono_ns = ktime_get_ns();

	/* Multicast under the lock too, so netlink listeners get seq in order. */
	spin_lock_bh(&fn->readers_lock);
	ev->seq = ++fn->event_seq;
	/* The status table first: no reader sees an event it does not reflect. */
	ftd_status_event(fn, ev, ref);
	list_for_each_entry(r, &fn->readers, entry)
		reader_push(r, ev);
	ftd_genl_event(fn, ev);
	spin_unlock_bh(&fn->readers_lock);

	atomic64_inc(&fn->stats.events);
	if (ev->type < ARRAY_SIZE(fn->stats.events_by_type))
		atomic64_inc(&fn->stats.events_by_type[ev->type]);
}

void ftd_event_emit(struct ftd_net *fn, struct ftd_event *ev)
{
	emit(fn, ev, NULL);
}

void ftd_event_emit_rank(struct ftd_net *fn, struct ftd_event *ev, u32 regid, bool local)
{
	struct ftd_stab_ref ref = { .regid = regid, .uid = ev->uid, .local = local };

	emit(fn, ev, &ref);
}

struct ftd_reader *ftd_reader_create(struct ftd_net *fn)
{
	/* An opener's queue is charged to the opener's memory cgroup. */
	struct ftd_reader *r = kzalloc(sizeof(*r), GFP_KERNEL_ACCOUNT);

	if (!r)
		return ERR_PTR(-ENOMEM);
	r->ring = kvcalloc(FTD_EVENT_QUEUE_LEN, sizeof(*r->ring), GFP_KERNEL_ACCOUNT);
	if (!r->ring) {
		kfree(r);
		return ERR_PTR(-ENOMEM);
	}
	r->fn = fn;
	init_waitqueue_head(&r->wait);
	mutex_init(&r->read_lock);
	mutex_init(&r->reg_lock);

	/* Every event costs O(openers) in softirq: their number is bounded. */
	spin_lock_bh(&fn->readers_lock);
	if (fn->n_readers >= ftd_max_openers()) {
		spin_unlock_bh(&fn->readers_lock);
		kvfree(r->ring);
		kfree(r);
		return ERR_PTR(-EMFILE);
	}
	fn->n_readers++;
	list_add_tail(&r->entry, &fn->readers);
	spin_unlock_bh(&fn->readers_lock);
	return r;
}

void ftd_reader_destroy(struct ftd_reader *r)
{
	struct ftd_net *fn = r->fn;
	struct ftd_status *st = NULL;

	spin_lock_bh(&fn->readers_lock);
	list_del(&r->entry);
	fn->n_readers--;
	/* Every mapping holds its file: with the last file, the last mapping is gone. */
	if (list_empty(&fn->readers))
		st = ftd_status_detach(fn);
	spin_unlock_bh(&fn->readers_lock);
	ftd_status_free(st);
	kvfree(r->ring);
	kfree(r);
}

bool ftd_reader_readable(struct ftd_reader *r)
{
	bool ret;

	spin_lock_bh(&r->fn->readers_lock);
	ret = ring_used(r);
	spin_unlock_bh(&r->fn->readers_lock);
	return ret;
}

bool ftd_reader_next(struct ftd_reader *r, struct ftd_event *ev)
{
	bool ret = true;

	lockdep_assert_held(&r->read_lock);
	spin_lock_bh(&r->fn->readers_lock);
	if (ring_used(r)) {
		*ev = r->ring[r->head++ & RING_MASK];
		reader_flush_lost(r, 0);
	} else {
		ret = false;
	}
	spin_unlock_bh(&r->fn->readers_lock);
	return ret;
}

void ftd_reader_unread(struct ftd_reader *r)
{
	lockdep_assert_held(&r->read_lock);
	spin_lock_bh(&r->fn->readers_lock);
	r->head--;
	spin_unlock_bh(&r->fn->readers_lock);
}
