// SPDX-License-Identifier: GPL-2.0
#include <linux/percpu.h>
#include <linux/bottom_half.h>
#include <linux/rcupdate.h>
#include "outbox.h"
#include "hb_tx.h"
#include "span.h"

/*
 * Notices queued by the open pass, in order, whatever their peer: a pass
 * queues a few dozen (a tick's deaths to each finger), and one that queues
 * more sends what it has and goes on (a view to one peer: four full frames
 * at a time). About 6 KiB a CPU.
 */
#define OUTBOX_LEN	(4 * FTD_WIRE_NOTICES_MAX)

struct outbox_entry {
	struct ftd_net *fn;
	struct ftd_peer *peer;	/* NULL: for the shares of the arc before end (span.h) */
	u32 end;
	u8 notice[FTD_WIRE_NOTICE_LEN];
};

struct outbox {
	u32 depth;		/* passes open */
	u32 n;			/* entries queued */
	struct outbox_entry e[OUTBOX_LEN];
	u8 frame[FTD_WIRE_NOTICES_MAX * FTD_WIRE_NOTICE_LEN];
};

static struct outbox __percpu *outboxes;

int ftd_outbox_init(void)
{
	outboxes = alloc_percpu(struct outbox);
	return outboxes ? 0 : -ENOMEM;
}

void ftd_outbox_exit(void)
{
	free_percpu(outboxes);
}

void ftd_outbox_send(struct ftd_net *fn, struct ftd_peer *peer, const u8 *notices, u16 len)
{
	u8 rail;

	/* On every rail: one surviving fabric is enough to carry it. */
	for (rail = 0; rail < peer->nrails; rail++) {
		if (ftd_tx_frame(fn, peer, rail, FTD_FRAME_NOTICE, notices, len))
			continue;
		atomic64_inc(&fn->stats.notices_tx);
		atomic64_add(len / FTD_WIRE_NOTICE_LEN, &fn->stats.notice_items_tx);
	}
}

/*
 * Each peer's notices, and each arc's, in the order queued, as few frames
 * as they fit in. A send may queue more (it never opens a pass of its own
 * here, but stay safe): the loop takes whatever is queued until nothing is.
 */
static void flush(struct outbox *o)
{
	struct ftd_net *fn;
	struct ftd_peer *peer;
	u32 i, kept, end;
	u16 len;

	while (o->n) {
		fn = o->e[0].fn;
		peer = o->e[0].peer;
		end = o->e[0].end;
		len = 0;
		kept = 0;
		for (i = 0; i < o->n; i++) {
			if (o->e[i].fn == fn && o->e[i].peer == peer && o->e[i].end == end &&
			    len < sizeof(o->frame)) {
				memcpy(o->frame + len, o->e[i].notice, FTD_WIRE_NOTICE_LEN);
				len += FTD_WIRE_NOTICE_LEN;
			} else {
				if (kept != i)
					o->e[kept] = o->e[i];
				kept++;
			}
		}
		o->n = kept;
		if (peer)
			ftd_outbox_send(fn, peer, o->frame, len);
		else
			ftd_span_send(fn, end, o->frame, len);
	}
}

void ftd_outbox_begin(void)
{
	local_bh_disable();
	rcu_read_lock();
	this_cpu_ptr(outboxes)->depth++;
}

void ftd_outbox_end(void)
{
	struct outbox *o = this_cpu_ptr(outboxes);

	if (!WARN_ON_ONCE(!o->depth) && !--o->depth)
		flush(o);
	rcu_read_unlock();
	local_bh_enable();
}

static bool add(struct ftd_net *fn, struct ftd_peer *peer, u32 end, const u8 *notice)
{
	struct outbox *o;
	bool queued = false;

	/*
	 * A pass is only ever open with BHs off: none here, none open. A
	 * hard interrupt may have come in the middle of one: not its own.
	 */
	if (!in_softirq() || in_hardirq() || in_nmi())
		return false;
	o = this_cpu_ptr(outboxes);
	if (o->depth) {
		if (o->n == OUTBOX_LEN)
			flush(o);
		o->e[o->n].fn = fn;
		o->e[o->n].peer = peer;
		o->e[o->n].end = end;
		memcpy(o->e[o->n].notice, notice, FTD_WIRE_NOTICE_LEN);
		o->n++;
		queued = true;
	}
	return queued;
}

bool ftd_outbox_add(struct ftd_net *fn, struct ftd_peer *peer, const u8 *notice)
{
	return add(fn, peer, 0, notice);
}

bool ftd_outbox_share(struct ftd_net *fn, u32 end, const u8 *notice)
{
	return add(fn, NULL, end, notice);
}

void ftd_outbox_flush(void)
{
	struct outbox *o;

	local_bh_disable();
	rcu_read_lock();
	o = this_cpu_ptr(outboxes);
	if (o->depth)
		flush(o);
	rcu_read_unlock();
	local_bh_enable();
}
