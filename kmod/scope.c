// SPDX-License-Identifier: GPL-2.0
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>
#include "scope.h"
#include "peer.h"
#include "span.h"
#include "proto/scope.h"
#include "proto/span.h"

struct ftd_scope_end *ftd_scope_from_user(const struct ftd_scope *arg, u32 self)
{
	struct ftd_scope_end *s;
	int err = ftd_scope_check(arg->count, arg->flags, arg->reserved);
	u32 i;

	if (err)
		return ERR_PTR(err);
	if (!arg->count)
		return NULL;
	s = kvmalloc(struct_size(s, nodes, arg->count), GFP_KERNEL_ACCOUNT);
	if (!s)
		return ERR_PTR(-ENOMEM);
	if (copy_from_user(s->nodes, u64_to_user_ptr(arg->nodes),
			   array_size(arg->count, sizeof(u32)))) {
		kvfree(s);
		return ERR_PTR(-EFAULT);
	}
	for (i = 0; i < arg->count; i++) {
		if (!ftd_scope_id_ok(s->nodes[i])) {
			kvfree(s);
			return ERR_PTR(-EINVAL);
		}
	}
	INIT_LIST_HEAD(&s->list);
	s->n = ftd_scope_normalize(s->nodes, arg->count, self);
	return s;
}

void ftd_scope_free(struct ftd_scope_end *s)
{
	kvfree(s);
}

void ftd_scope_tell(struct ftd_net *fn, struct ftd_scope_end *s, const struct ftd_notice *n)
{
	bool up;

	ftd_notice_encode(s->notice, n);
	/* Under the lock ftd_scope_stop() empties the list with, after up went false. */
	spin_lock_bh(&fn->scope_lock);
	up = READ_ONCE(fn->up);
	if (up)
		list_add_tail(&s->list, &fn->scope_ends);
	spin_unlock_bh(&fn->scope_lock);
	if (!up) {
		ftd_scope_free(s);
		return;
	}
	/* The first end arms it; the ones within FTD_SCOPE_BATCH_NS go with it. */
	queue_delayed_work(system_wq, &fn->scope_work, nsecs_to_jiffies(FTD_SCOPE_BATCH_NS));
}

/*
 * Ends walked together: one frame holds the ends a node is owed among
 * them, so a walk takes at most a frame's worth of ends.
 */
#define WALK_ENDS	FTD_WIRE_NOTICES_MAX

struct walk {
	struct ftd_scope_end *end[WALK_ENDS];
	const u32 *nodes[WALK_ENDS];
	u32 count[WALK_ENDS];
	u32 cursor[WALK_ENDS];
	u8 frame[WALK_ENDS * FTD_WIRE_NOTICE_LEN];
};

/* Each node of the n ends' scopes: its ends, in one frame. */
static void send_walk(struct ftd_net *fn, struct walk *wk, u32 n)
{
	struct ftd_scope_walk w = {
		.nodes = wk->nodes, .count = wk->count, .cursor = wk->cursor, .n = n,
	};
	struct ftd_peer *peer;
	u32 id = 0, i;
	u16 len;

	while (READ_ONCE(fn->up) && ftd_scope_next(&w, &id)) {
		for (i = 0, len = 0; i < n; i++) {
			if (ftd_scope_holds(&w, i, id)) {
				memcpy(wk->frame + len, wk->end[i]->notice, FTD_WIRE_NOTICE_LEN);
				len += FTD_WIRE_NOTICE_LEN;
			}
		}
		rcu_read_lock();
		/* Gone from the table: skipped; ourselves (configured since): our events told it. */
		peer = ftd_peer_find(fn, id);
		if (peer && id != READ_ONCE(fn->cfg.node))
			ftd_span_send_alone(fn, peer, wk->frame, len);
		rcu_read_unlock();
		cond_resched();
	}
}

/* The nodes a walk of n ends would send to (a dry run; the cursors start over). */
static u32 walk_nodes(struct walk *wk, u32 n)
{
	struct ftd_scope_walk w = {
		.nodes = wk->nodes, .count = wk->count, .cursor = wk->cursor, .n = n,
	};
	u32 id = 0, nodes = 0, i;

	while (ftd_scope_next(&w, &id)) {
		for (i = 0; i < n; i++)
			ftd_scope_holds(&w, i, id);
		nodes++;
	}
	memset(wk->cursor, 0, n * sizeof(*wk->cursor));
	return nodes;
}

/* The ends not sent yet go back to the front of the queue, for a later run. */
static void put_back(struct ftd_net *fn, struct list_head *ends)
{
	spin_lock_bh(&fn->scope_lock);
	list_splice(ends, &fn->scope_ends);
	spin_unlock_bh(&fn->scope_lock);
	queue_delayed_work(system_wq, &fn->scope_work, nsecs_to_jiffies(FTD_SCOPE_BATCH_NS));
}

/*
 * Send the walk of wk's n ends, the first ones of the list ends, and free
 * them; or, if its shares would not fit beside those waiting, put every
 * end of the list back and say so (false).
 */
static bool run_walk(struct ftd_net *fn, struct walk *wk, u32 n, struct list_head *ends)
{
	u32 waiting, i;

	spin_lock_bh(&fn->shares_lock);
	waiting = fn->n_shares;
	spin_unlock_bh(&fn->shares_lock);
	if (!ftd_scope_walk_fits(waiting, walk_nodes(wk, n), FTD_SHARES_WAITING_MAX)) {
		put_back(fn, ends);
		return false;
	}
	send_walk(fn, wk, n);
	for (i = 0; i < n; i++) {
		list_del(&wk->end[i]->list);
		ftd_scope_free(wk->end[i]);
	}
	return true;
}

static void scope_work(struct work_struct *work)
{
	struct ftd_net *fn = container_of(to_delayed_work(work), struct ftd_net, scope_work);
	struct ftd_scope_end *s, *tmp;
	LIST_HEAD(ends);
	struct walk *wk;
	u32 n = 0, sum = 0;

	spin_lock_bh(&fn->scope_lock);
	list_splice_init(&fn->scope_ends, &ends);
	spin_unlock_bh(&fn->scope_lock);
	wk = kmalloc(sizeof(*wk), GFP_KERNEL);
	if (!wk) {
		put_back(fn, &ends);	/* nothing lost: they wait for the next try */
		return;
	}
	/*
	 * A walk takes a frame's worth of ends whose scopes add up to no
	 * more shares than may wait (one end alone always fits: its scope is
	 * at most FTD_SCOPE_MAX), so that it can go once nothing waits.
	 */
	list_for_each_entry_safe(s, tmp, &ends, list) {
		if (n && (n == WALK_ENDS || sum + s->n > FTD_SHARES_WAITING_MAX)) {
			if (!run_walk(fn, wk, n, &ends))
				goto out;
			n = sum = 0;
		}
		wk->end[n] = s;
		wk->nodes[n] = s->nodes;
		wk->count[n] = s->n;
		wk->cursor[n++] = 0;
		sum += s->n;
	}
	if (n)
		run_walk(fn, wk, n, &ends);
out:
	kfree(wk);
}

void ftd_scope_init(struct ftd_net *fn)
{
	/* One end's walk must fit with nothing waiting (run_walk). */
	BUILD_BUG_ON(FTD_SCOPE_MAX > FTD_SHARES_WAITING_MAX);
	spin_lock_init(&fn->scope_lock);
	INIT_LIST_HEAD(&fn->scope_ends);
	INIT_DELAYED_WORK(&fn->scope_work, scope_work);
}

void ftd_scope_reset(struct ftd_net *fn)
{
	struct ftd_scope_end *s, *tmp;
	LIST_HEAD(gone);

	spin_lock_bh(&fn->scope_lock);
	list_splice_init(&fn->scope_ends, &gone);
	spin_unlock_bh(&fn->scope_lock);
	list_for_each_entry_safe(s, tmp, &gone, list)
		ftd_scope_free(s);
}

void ftd_scope_flush(struct ftd_net *fn)
{
	/* A walk that does not fit puts its ends back: they are dropped at the stop. */
	mod_delayed_work(system_wq, &fn->scope_work, 0);
	flush_delayed_work(&fn->scope_work);
}

void ftd_scope_stop(struct ftd_net *fn)
{
	WARN_ON(READ_ONCE(fn->up));
	cancel_delayed_work_sync(&fn->scope_work);
	ftd_scope_reset(fn);
}
