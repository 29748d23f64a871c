// SPDX-License-Identifier: GPL-2.0
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/version.h>
#include "stab.h"
#include "event.h"

/*
 * Capacities of the tables created from now on. The defaults, 4096 nodes and
 * 64k registrations (512 nodes of 128 ranks, with room for ended ones), take
 * 3.4 MiB per mapped instance, and only instances someone maps pay it. Past
 * them nothing is lost silently (FTD_STATUS_F_*_FULL); a larger site sets
 * them at module load (modprobe ftdetect status_ranks=524288).
 */
static_assert(FTD_STAB_MAX_NODES == 1048576 && FTD_STAB_MAX_RANKS == 4194304 &&
	      FTD_STATUS_DEFAULT_NODES == 4096 && FTD_STATUS_DEFAULT_RANKS == 65536,
	      "the parameter descriptions quote the limits and defaults");
static_assert(sizeof(struct ftd_status_hdr) == 128 && sizeof(struct ftd_status_node) == 32 &&
	      sizeof(struct ftd_status_rank) == 48, "status table layout changed");
static unsigned int status_nodes = FTD_STATUS_DEFAULT_NODES;
module_param(status_nodes, uint, 0644);
MODULE_PARM_DESC(status_nodes, "nodes a status table holds, 1..1048576 (default 4096)");
static unsigned int status_ranks = FTD_STATUS_DEFAULT_RANKS;
module_param(status_ranks, uint, 0644);
MODULE_PARM_DESC(status_ranks, "registrations a status table holds, 1..4194304 (default 65536)");

/*
 * Whatever a table holds is charged to the memory cgroup of the process
 * that first maps it, and fails with ENOMEM past that cgroup's limit
 * rather than OOM-kill the process that asked (__GFP_RETRY_MAYFAIL) or
 * print a warning any user could provoke (__GFP_NOWARN).
 */
#define STATUS_GFP (GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)

struct ftd_status {
	struct ftd_stab t;
	void *area;		/* the pages below, mapped: what user space maps */
	struct page **pages;
	unsigned int npages;	/* allocated so far */
	size_t size;
	void *private;		/* the writer's recycling queue */
};

void ftd_status_free(struct ftd_status *st)
{
	unsigned int i;

	if (!st)
		return;
	if (st->area)
		vunmap(st->area);
	for (i = 0; i < st->npages; i++)
		__free_page(st->pages[i]);
	kvfree(st->pages);
	kvfree(st->private);
	kfree(st);
}

/*
 * The table's pages, zeroed and charged (STATUS_GFP: an instance's owner
 * may be an unprivileged user in a user namespace of its own; trust.md,
 * "Resources are bounded"), mapped with VM_USERMAP so that
 * remap_vmalloc_range() hands them to user space. vmalloc_user() would
 * charge nobody, and 6.1 exports no variant of it that takes GFP flags.
 */
static void *status_area(struct ftd_status *st)
{
	unsigned int n = st->size >> PAGE_SHIFT;

	st->pages = kvcalloc(n, sizeof(*st->pages), STATUS_GFP);
	if (!st->pages)
		return NULL;
	for (; st->npages < n; st->npages++) {
		st->pages[st->npages] = alloc_page(STATUS_GFP | __GFP_ZERO);
		if (!st->pages[st->npages])
			return NULL;
	}
	return vmap(st->pages, n, VM_MAP | VM_USERMAP, PAGE_KERNEL);
}

static struct ftd_status *status_alloc(void)
{
	u32 nodes = clamp_t(u32, READ_ONCE(status_nodes), 1, FTD_STAB_MAX_NODES);
	u32 ranks = clamp_t(u32, READ_ONCE(status_ranks), 1, FTD_STAB_MAX_RANKS);
	size_t size = ftd_stab_size(nodes, ranks, PAGE_SIZE);
	struct ftd_status *st = kzalloc(sizeof(*st), STATUS_GFP);

	if (!st)
		return NULL;
	st->size = size;
	st->area = status_area(st);
	if (st->area)
		st->private = kvzalloc(array_size(ranks, sizeof(u32) + sizeof(u8)), STATUS_GFP);
	if (!st->private) {
		ftd_status_free(st);
		return NULL;
	}
	ftd_stab_init(&st->t, st->area, size, nodes, ranks, st->private,
		      (u8 *)st->private + array_size(ranks, sizeof(u32)));
	return st;
}

/* Open a write section on fn's table; NULL if it has none. */
static struct ftd_stab *write_begin(struct ftd_net *fn)
{
	lockdep_assert_held(&fn->readers_lock);
	if (!fn->status)
		return NULL;
	ftd_stab_begin(&fn->status->t);
	return &fn->status->t;
}

struct ftd_status *ftd_status_detach(struct ftd_net *fn)
{
	struct ftd_status *st = fn->status;

	lockdep_assert_held(&fn->readers_lock);
	fn->status = NULL;
	return st;
}

void ftd_status_event(struct ftd_net *fn, const struct ftd_event *ev,
		      const struct ftd_stab_ref *ref)
{
	struct ftd_stab *t;

	/*
	 * Of a node deleted meanwhile (told by a CPU that found it before):
	 * its entry went with it. readers_lock orders this check with the
	 * delete's ftd_status_node_del, which follows its xa_erase.
	 */
	if (ev->node != FTD_NODE_NONE && ev->node != READ_ONCE(fn->cfg.node) &&
	    !xa_load(&fn->peers, ev->node))
		return;
	t = write_begin(fn);
	if (!t)
		return;
	ftd_stab_event(t, ev, ref);
	ftd_stab_end(t);
}

/* Copy peer's state; readers_lock and peer->lock held. */
static void set_node(struct ftd_net *fn, struct ftd_stab *t, struct ftd_peer *peer, bool forget)
{
	lockdep_assert_held(&peer->lock);
	if (peer->deleted)
		return;	/* its entry went with it (ftd_status_node_del) */
	ftd_stab_node_set(t, peer->id, peer->state, peer->incarnation, peer->rails_down,
			  peer->nrails, forget);
	/* After a fence, our incarnation changed with it. */
	if (peer->self)
		ftd_stab_set_local(t, peer->id, READ_ONCE(fn->incarnation),
				   READ_ONCE(fn->cfg.cluster), READ_ONCE(fn->up));
}

void ftd_status_node(struct ftd_net *fn, struct ftd_peer *peer, bool forget)
{
	struct ftd_stab *t;

	spin_lock_bh(&fn->readers_lock);
	t = write_begin(fn);
	if (t) {
		set_node(fn, t, peer, forget);
		ftd_stab_end(t);
	}
	spin_unlock_bh(&fn->readers_lock);
}

void ftd_status_node_del(struct ftd_net *fn, u32 id)
{
	struct ftd_stab *t;

	lockdep_assert_held(&fn->lock);
	spin_lock_bh(&fn->readers_lock);
	t = write_begin(fn);
	if (t) {
		ftd_stab_node_del(t, id);
		ftd_stab_end(t);
	}
	spin_unlock_bh(&fn->readers_lock);
}

static void set_config(struct ftd_net *fn, struct ftd_stab *t)
{
	lockdep_assert_held(&fn->lock);
	ftd_stab_set_local(t, fn->cfg.node, fn->incarnation, fn->cfg.cluster, fn->up);
}

void ftd_status_config(struct ftd_net *fn)
{
	struct ftd_stab *t;

	spin_lock_bh(&fn->readers_lock);
	t = write_begin(fn);
	if (t) {
		set_config(fn, t);
		ftd_stab_end(t);
	}
	spin_unlock_bh(&fn->readers_lock);
}

void ftd_status_rank_reg(struct ftd_net *fn, u32 node, u32 inc, u32 job, u32 rank,
			 const struct ftd_stab_ref *ref)
{
	struct ftd_stab *t;

	spin_lock_bh(&fn->readers_lock);
	t = write_begin(fn);
	if (t) {
		ftd_stab_rank_reg(t, node, inc, job, rank, ref);
		ftd_stab_end(t);
	}
	spin_unlock_bh(&fn->readers_lock);
}

/* The registrations of local ranks still open; readers_lock held. */
static void fill_local(struct ftd_net *fn, struct ftd_stab *t)
{
	struct ftd_stab_ref ref = { .local = true };
	struct ftd_reader *r;

	list_for_each_entry(r, &fn->readers, entry) {
		/* Published by ftd_proc_register() after job, rank and regid. */
		if (!smp_load_acquire(&r->registered))
			continue;
		ref.regid = r->regid;
		ref.uid = r->uid;
		ftd_stab_rank_reg(t, fn->cfg.node, fn->incarnation, r->job, r->rank, &ref);
	}
}

/* A node and what it knows of its ranks; readers_lock and peer->lock held. */
static void fill_peer(struct ftd_net *fn, struct ftd_stab *t, struct ftd_peer *peer)
{
	struct ftd_stab_ref ref = { .local = peer->self };
	const struct ftd_rank_entry *e;
	u32 i;

	set_node(fn, t, peer, false);
	for (i = 0; peer->ranks && i < peer->ranks->n; i++) {
		e = &peer->ranks->e[i];
		ref.regid = e->regid;
		ref.uid = e->uid;
		if (e->ended)
			ftd_stab_rank_ended(t, peer->id, peer->incarnation, e->job, e->rank, &ref,
					    e->ended);
		else
			ftd_stab_rank_reg(t, peer->id, peer->incarnation, e->job, e->rank, &ref);
	}
}

/*
 * The instance's table, made and filled if it has none. The table is
 * published first, so that the events numbered meanwhile apply to it; each
 * node is then copied under its own lock, which every change to the node
 * holds: the copy is never older than an event already applied.
 */
static struct ftd_status *status_get(struct ftd_net *fn)
{
	struct ftd_status *st;
	struct ftd_peer *peer;
	unsigned long id;

	mutex_lock(&fn->lock);
	spin_lock_bh(&fn->readers_lock);
	st = fn->status;
	spin_unlock_bh(&fn->readers_lock);
	if (st)
		goto out;
	st = status_alloc();
	if (!st) {
		st = ERR_PTR(-ENOMEM);
		goto out;
	}

	spin_lock_bh(&fn->readers_lock);
	fn->status = st;
	ftd_stab_begin(&st->t);
	set_config(fn, &st->t);
	ftd_stab_set_event_seq(&st->t, fn->event_seq);
	fill_local(fn, &st->t);
	ftd_stab_end(&st->t);
	spin_unlock_bh(&fn->readers_lock);

	xa_for_each(&fn->peers, id, peer) {
		spin_lock_bh(&peer->lock);
		spin_lock_bh(&fn->readers_lock);
		ftd_stab_begin(&st->t);
		fill_peer(fn, &st->t, peer);
		ftd_stab_end(&st->t);
		spin_unlock_bh(&fn->readers_lock);
		spin_unlock_bh(&peer->lock);
	}
out:
	mutex_unlock(&fn->lock);
	return st;
}

int ftd_status_mmap(struct ftd_net *fn, struct vm_area_struct *vma)
{
	unsigned long len = vma->vm_end - vma->vm_start;
	struct ftd_status *st;

	/* Read-only, now and later: no write mapping, no mprotect to one. */
	if (vma->vm_flags & VM_WRITE)
		return -EPERM;
	if (vma->vm_pgoff)
		return -EINVAL;
	/* The caller's file keeps st: it is only freed with the last file. */
	st = status_get(fn);
	if (IS_ERR(st))
		return PTR_ERR(st);
	if (len > st->size)
		return -EINVAL;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	vm_flags_clear(vma, VM_MAYWRITE);
#else
	vma->vm_flags &= ~VM_MAYWRITE;
#endif
	/* Inserts the pages now (no fault handler), marks it DONTEXPAND. */
	return remap_vmalloc_range(vma, st->area, 0);
}
