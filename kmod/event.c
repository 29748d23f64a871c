// SPDX-License-Identifier: GPL-2.0
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/ktime.h>
#include "event.h"
#include "genl.h"
#include "stab.h"
#include "bounds.h"

#define LOG_MASK (FTD_EVENT_QUEUE_LEN - 1)
static_assert((FTD_EVENT_QUEUE_LEN & LOG_MASK) == 0, "queue length must be a power of two");
static_assert(sizeof(struct ftd_event) == 64, "event record layout changed");

/*
 * The instance keeps its last FTD_EVENT_QUEUE_LEN records in one log, at
 * seq & LOG_MASK, and a reader is only a position in it: an event costs
 * one copy whatever the number of readers (the bound an unprivileged
 * opener could otherwise raise in softirq: trust.md). A reader that falls
 * more than the log behind finds its next records overwritten: it reads
 * one OVERFLOW record for them (the gap where it happened), then goes on
 * from the oldest record the log still holds.
 */
static void events_wake(struct work_struct *work)
{
	struct ftd_net *fn = container_of(work, struct ftd_net, events_wake);

	wake_up_interruptible(&fn->events_wait);
}

void ftd_events_init(struct ftd_net *fn)
{
	init_waitqueue_head(&fn->events_wait);
	INIT_WORK(&fn->events_wake, events_wake);
}

void ftd_events_exit(struct ftd_net *fn)
{
	cancel_work_sync(&fn->events_wake);
}

/* The oldest record of the log a reader may still read. readers_lock held. */
static u64 log_oldest(const struct ftd_net *fn)
{
	u64 held = fn->event_seq >= FTD_EVENT_QUEUE_LEN ?
		   fn->event_seq - FTD_EVENT_QUEUE_LEN + 1 : 1;

	lockdep_assert_held(&fn->readers_lock);
	return max(held, fn->events_first);
}

static struct ftd_event overflow_record(u64 first_lost, u64 lost)
{
	struct ftd_event ev = ftd_event_new(FTD_EV_OVERFLOW);

	ev.version = FTD_EVENT_VERSION;
	ev.size = sizeof(ev);
	ev.seq = first_lost;
	ev.time_ns = ktime_get_real_ns();
	ev.mono_ns = ktime_get_ns();
	ev.count = lost > U32_MAX ? U32_MAX : (u32)lost;
	return ev;
}

static void emit(struct ftd_net *fn, struct ftd_event *ev, const struct ftd_stab_ref *ref)
{
	bool logged;

	ev->version = FTD_EVENT_VERSION;
	ev->size = sizeof(*ev);
	ev->time_ns = ktime_get_real_ns();
	ev->mono_ns = ktime_get_ns();

	/* Multicast under the lock too, so netlink listeners get seq in order. */
	spin_lock_bh(&fn->readers_lock);
	ev->seq = ++fn->event_seq;
	/* The status table first: no reader sees an event it does not reflect. */
	ftd_status_event(fn, ev, ref);
	logged = fn->events;
	if (logged)
		fn->events[ev->seq & LOG_MASK] = *ev;
	ftd_genl_event(fn, ev);
	spin_unlock_bh(&fn->readers_lock);
	/* Pairs with the barrier of a reader going to sleep (wq_has_sleeper). */
	if (logged && wq_has_sleeper(&fn->events_wait))
		queue_work(system_highpri_wq, &fn->events_wake);

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
	/*
	 * An opener, and the log the first one brings, are charged to their
	 * memory cgroup (the log stays the first opener's charge while
	 * others use it); past its limit, open fails with ENOMEM.
	 */
	struct ftd_reader *r = kzalloc(sizeof(*r), GFP_KERNEL_ACCOUNT);
	struct ftd_event *log = NULL;

	if (!r)
		return ERR_PTR(-ENOMEM);
	r->fn = fn;
	mutex_init(&r->read_lock);
	mutex_init(&r->reg_lock);

	spin_lock_bh(&fn->readers_lock);
	/* The first opener brings the log (the last one to leave frees it). */
	while (!fn->events && !log) {
		spin_unlock_bh(&fn->readers_lock);
		log = kvcalloc(FTD_EVENT_QUEUE_LEN, sizeof(*log),
			       GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN);
		if (!log) {
			kfree(r);
			return ERR_PTR(-ENOMEM);
		}
		spin_lock_bh(&fn->readers_lock);
	}
	/* Openers are bounded: each holds a file and may hold a registration. */
	if (fn->n_readers >= ftd_max_openers()) {
		spin_unlock_bh(&fn->readers_lock);
		kvfree(log);
		kfree(r);
		return ERR_PTR(-EMFILE);
	}
	if (!fn->events) {
		fn->events = log;
		fn->events_first = fn->event_seq + 1;
		log = NULL;
	}
	fn->n_readers++;
	list_add_tail(&r->entry, &fn->readers);
	r->next_seq = fn->event_seq + 1;	/* what comes from now on */
	spin_unlock_bh(&fn->readers_lock);
	kvfree(log);	/* another opener's came first */
	return r;
}

void ftd_reader_destroy(struct ftd_reader *r)
{
	struct ftd_net *fn = r->fn;
	struct ftd_status *st = NULL;
	struct ftd_event *log = NULL;

	spin_lock_bh(&fn->readers_lock);
	list_del(&r->entry);
	fn->n_readers--;
	/* Every mapping holds its file: with the last file, the last mapping is gone. */
	if (list_empty(&fn->readers)) {
		st = ftd_status_detach(fn);
		log = fn->events;
		fn->events = NULL;
	}
	spin_unlock_bh(&fn->readers_lock);
	ftd_status_free(st);
	kvfree(log);
	kfree(r);
}

bool ftd_reader_readable(struct ftd_reader *r)
{
	bool ret;

	spin_lock_bh(&r->fn->readers_lock);
	ret = r->next_seq <= r->fn->event_seq;
	spin_unlock_bh(&r->fn->readers_lock);
	return ret;
}

bool ftd_reader_next(struct ftd_reader *r, struct ftd_event *ev)
{
	struct ftd_net *fn = r->fn;
	bool ret = true;
	u64 oldest;

	lockdep_assert_held(&r->read_lock);
	spin_lock_bh(&fn->readers_lock);
	r->taken_seq = r->next_seq;
	oldest = log_oldest(fn);
	if (r->next_seq > fn->event_seq) {
		ret = false;
	} else if (r->next_seq < oldest) {
		*ev = overflow_record(r->next_seq, oldest - r->next_seq);
		r->next_seq = oldest;
	} else {
		*ev = fn->events[r->next_seq++ & LOG_MASK];
	}
	spin_unlock_bh(&fn->readers_lock);
	return ret;
}

/* A record overwritten meanwhile is read as part of an OVERFLOW instead. */
void ftd_reader_unread(struct ftd_reader *r)
{
	lockdep_assert_held(&r->read_lock);
	spin_lock_bh(&r->fn->readers_lock);
	r->next_seq = r->taken_seq;
	spin_unlock_bh(&r->fn->readers_lock);
}
