// SPDX-License-Identifier: GPL-2.0
/*
 * Heartbeats over RDMA unreliable datagrams (rdma_ud.h, docs/rdma.md).
 *
 * Lifetimes, the WireGuard way: an endpoint and its paths are published
 * under RCU and read by senders under rcu_read_lock; everything that
 * creates or frees them runs in process context under ud->mutex (the
 * work, up and down, and the RDMA client's removal of a device, which
 * frees the endpoints on that device before the connection manager's own
 * removal runs). The connection manager's event handlers take no lock of
 * ours: they only complete a path, and rdma_destroy_id() waits for them.
 */
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>
#include <rdma/rdma_cm_ib.h>
#include "rdma_ud.h"
#include "hb_rx.h"

#define FTD_UD_RX_BUFS		128	/* receives posted per endpoint */
#define FTD_UD_TX_SLOTS		64	/* heartbeats in flight per endpoint */
#define FTD_UD_TX_LEN		FTD_WIRE_HDR_LEN	/* a heartbeat has no payload */
#define FTD_UD_GRH		40	/* a UD receive begins with room for a GRH */
#define FTD_UD_WANT_MAX		64	/* paths asked for between two runs of the work */
#define FTD_UD_RESOLVE_MS	1000	/* address and route resolution */

struct ftd_ud_ep;

/* A buffer of its own (kmalloc: mappable for DMA, apart from the rest). */
struct ftd_ud_buf {
	struct ib_cqe cqe;
	struct ftd_ud_ep *ep;
	u64 dma;
	u8 *data;
};

#define FTD_UD_RX_LEN		(FTD_UD_GRH + FTD_MAX_FRAME)
#define FTD_UD_PATH_IDLE_NS	(60ULL * NSEC_PER_SEC)	/* unused that long: freed */

/* Our way to one peer's queue pair on one rail. */
struct ftd_ud_path {
	u32 node;
	u32 incarnation;	/* the peer's, when resolution began */
	u32 back;		/* and how often its rail had come back up */
	union ftd_addr dst;
	u64 begun_ns;
	u64 used_ns;		/* last heartbeat sent on it; WRITE_ONCE */
	struct ftd_ud_ep *ep;
	struct rdma_cm_id *id;	/* NULL once destroyed */
	/* Set by the event handler before ready = 1 (release). */
	struct ib_ah *ah;
	u32 qpn, qkey;
	int ready;		/* 0: resolving, 1: ready, -1: failed */
	struct list_head retired;	/* in ep->retired, once replaced */
	/* Its successor while it resolves (ud->mutex): see path_renew(). */
	struct ftd_ud_path *next;
};

/* Our queue pair on one rail, and our paths from it. */
struct ftd_ud_ep {
	struct ftd_ud *ud;
	u8 rail;
	struct rdma_cm_id *listen;	/* bound to our address; the QP is made on it */
	struct ib_device *dev;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	u32 qpn, qkey;
	spinlock_t post_lock;		/* posts, tx_busy, dying; _bh */
	bool dying;
	unsigned long tx_busy[BITS_TO_LONGS(FTD_UD_TX_SLOTS)];
	atomic_t inflight;		/* sends posted, not completed */
	struct ftd_ud_buf *rx;		/* FTD_UD_RX_BUFS of FTD_UD_RX_LEN */
	struct ftd_ud_buf *tx;		/* FTD_UD_TX_SLOTS of FTD_UD_TX_LEN */
	struct xarray paths;		/* node id -> path; RCU readers, ud->mutex writers */
	struct list_head retired;	/* replaced paths: their AH waits for no send in flight */
};

struct ftd_ud_want {
	u32 node;
	u8 rail;
};

struct ftd_ud {
	struct ftd_net *fn;
	struct list_head entry;		/* in uds */
	struct mutex mutex;		/* ep[], paths: creation and freeing */
	struct ftd_ud_ep __rcu *ep[FTD_MAX_RAILS];
	u64 ep_tried_ns[FTD_MAX_RAILS];	/* written under mutex */
	spinlock_t want_lock;		/* _bh */
	u32 n_want;
	struct ftd_ud_want want[FTD_UD_WANT_MAX];
	u8 want_ep;			/* bit r: rail r has no endpoint */
	u8 drop_ep;			/* bit r: rail r's RDMA device goes */
	bool stopping;			/* under mutex */
	u64 gc_ns;			/* under mutex: idle paths last looked for */
	struct delayed_work work;
};

/* Every instance with RDMA rails, for the removal of a device. */
static LIST_HEAD(uds);
static DEFINE_MUTEX(uds_lock);

/* ------------------------------------------------------------ receiving */

static void post_recv(struct ftd_ud_ep *ep, struct ftd_ud_buf *b)
{
	struct ib_sge sge = {
		.addr = b->dma, .length = FTD_UD_RX_LEN, .lkey = ep->pd->local_dma_lkey,
	};
	struct ib_recv_wr wr = { .wr_cqe = &b->cqe, .sg_list = &sge, .num_sge = 1 };

	spin_lock_bh(&ep->post_lock);
	if (!ep->dying && ib_post_recv(ep->qp, &wr, NULL))
		pr_warn_ratelimited("rail %u: cannot post an RDMA receive\n", ep->rail);
	spin_unlock_bh(&ep->post_lock);
}

static void rx_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ftd_ud_buf *b = container_of(wc->wr_cqe, struct ftd_ud_buf, cqe);
	struct ftd_ud_ep *ep = b->ep;
	struct ftd_net *fn = ep->ud->fn;
	u64 now = ktime_get_ns();

	if (wc->status == IB_WC_WR_FLUSH_ERR)
		return;		/* the queue pair is going */
	if (wc->status == IB_WC_SUCCESS && wc->byte_len > FTD_UD_GRH) {
		ib_dma_sync_single_for_cpu(ep->dev, b->dma, FTD_UD_RX_LEN, DMA_FROM_DEVICE);
		/*
		 * The fabric gives no IP source (InfiniBand has none): the
		 * frame must name the rail it came on, and its MAC the sender.
		 */
		rcu_read_lock();
		ftd_hb_rx_frame(fn, b->data + FTD_UD_GRH, wc->byte_len - FTD_UD_GRH, NULL,
				ep->rail, (struct ftd_arrival){ .ns = now, .source = FTD_STAMP_RDMA },
				now);
		rcu_read_unlock();
		ib_dma_sync_single_for_device(ep->dev, b->dma, FTD_UD_RX_LEN, DMA_FROM_DEVICE);
	} else if (wc->status == IB_WC_SUCCESS) {
		atomic64_inc(&fn->stats.rx_malformed);
	}
	post_recv(ep, b);
}

/* -------------------------------------------------------------- sending */

static void tx_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ftd_ud_buf *b = container_of(wc->wr_cqe, struct ftd_ud_buf, cqe);
	struct ftd_ud_ep *ep = b->ep;

	if (wc->status != IB_WC_SUCCESS && wc->status != IB_WC_WR_FLUSH_ERR)
		atomic64_inc(&ep->ud->fn->stats.tx_err);
	clear_bit(b - ep->tx, ep->tx_busy);
	atomic_dec(&ep->inflight);
}

static void want(struct ftd_ud *ud, u32 node, u8 rail, bool ep)
{
	u32 i;

	spin_lock_bh(&ud->want_lock);
	if (ep) {
		ud->want_ep |= BIT(rail);
	} else {
		for (i = 0; i < ud->n_want; i++)
			if (ud->want[i].node == node && ud->want[i].rail == rail)
				break;
		if (i == ud->n_want && i < FTD_UD_WANT_MAX)
			ud->want[ud->n_want++] = (struct ftd_ud_want){ .node = node, .rail = rail };
	}
	spin_unlock_bh(&ud->want_lock);
	mod_delayed_work(system_wq, &ud->work, 0);
}

/*
 * Our endpoint's device goes while the RDMA client's own removal did not
 * free it (made meanwhile): the connection manager waits for our ids, so
 * the work frees it now. From an event handler: no lock of ours held.
 */
static void drop_soon(struct ftd_ud_ep *ep)
{
	struct ftd_ud *ud = ep->ud;

	spin_lock_bh(&ud->want_lock);
	ud->drop_ep |= BIT(ep->rail);
	spin_unlock_bh(&ud->want_lock);
	mod_delayed_work(system_wq, &ud->work, 0);
}

/*
 * Was p resolved for the peer as we hold it now? A restart makes a new
 * queue pair, and so may a rail that comes back (its device made again).
 */
static bool path_fresh(const struct ftd_ud_path *p, struct ftd_peer *peer, u8 rail)
{
	return p->incarnation == READ_ONCE(peer->incarnation) &&
	       p->back == READ_ONCE(peer->rails[rail].back) &&
	       ftd_addr_equal(&p->dst, &peer->rails[rail].addr);
}

/*
 * The path to peer on ep, if ready; else ask for one (unless one is being
 * resolved, or failed, less than FTD_UD_RETRY_NS ago). A ready path that
 * is no longer fresh is still used while its successor resolves.
 */
static struct ftd_ud_path *ready_path(struct ftd_ud_ep *ep, struct ftd_peer *peer, u8 rail)
{
	struct ftd_ud_path *p = xa_load(&ep->paths, peer->id);
	u64 now = ktime_get_ns();

	if (p && smp_load_acquire(&p->ready) == 1) {
		if (!path_fresh(p, peer, rail))
			want(ep->ud, peer->id, rail, false);
		if (READ_ONCE(p->used_ns) != now)
			WRITE_ONCE(p->used_ns, now);
		return p;
	}
	if (!p || now - p->begun_ns >= FTD_UD_RETRY_NS)
		want(ep->ud, peer->id, rail, false);
	return NULL;
}

/*
 * The endpoint on rail, or NULL; then the work is asked to make one, but
 * only once its retry is due (the work would only find it is not).
 */
static struct ftd_ud_ep *ep_of(struct ftd_net *fn, u8 rail)
{
	struct ftd_ud *ud = rcu_dereference(fn->ud);
	struct ftd_ud_ep *ep;

	if (!ud || rail >= FTD_MAX_RAILS)
		return NULL;
	ep = rcu_dereference(ud->ep[rail]);
	if (!ep && ktime_get_ns() - READ_ONCE(ud->ep_tried_ns[rail]) >= FTD_UD_RETRY_NS)
		want(ud, 0, rail, true);
	return ep;
}

int ftd_ud_ready(struct ftd_net *fn, struct ftd_peer *peer, u8 rail, struct ftd_ud_tx *tx)
{
	tx->ep = ep_of(fn, rail);
	if (!tx->ep)
		return -ENETDOWN;
	tx->path = ready_path(tx->ep, peer, rail);
	return tx->path ? 0 : -EAGAIN;
}

int ftd_ud_send(const struct ftd_ud_tx *tx, const u8 *frame, u32 len)
{
	struct ftd_ud_ep *ep = tx->ep;
	struct ftd_ud_path *p = tx->path;
	struct ftd_ud_buf *b;
	struct ib_sge sge;
	struct ib_ud_wr wr;
	int i, ret;

	if (WARN_ON_ONCE(len > FTD_UD_TX_LEN))
		return -EMSGSIZE;
	spin_lock_bh(&ep->post_lock);
	i = ep->dying ? FTD_UD_TX_SLOTS : find_first_zero_bit(ep->tx_busy, FTD_UD_TX_SLOTS);
	if (i >= FTD_UD_TX_SLOTS) {
		spin_unlock_bh(&ep->post_lock);
		return -ENOBUFS;
	}
	b = &ep->tx[i];
	memcpy(b->data, frame, len);
	ib_dma_sync_single_for_device(ep->dev, b->dma, len, DMA_TO_DEVICE);
	sge = (struct ib_sge){ .addr = b->dma, .length = len, .lkey = ep->pd->local_dma_lkey };
	wr = (struct ib_ud_wr){
		.wr = {
			.wr_cqe = &b->cqe, .sg_list = &sge, .num_sge = 1,
			.opcode = IB_WR_SEND, .send_flags = IB_SEND_SIGNALED,
		},
		.ah = p->ah, .remote_qpn = p->qpn, .remote_qkey = p->qkey,
	};
	set_bit(i, ep->tx_busy);
	atomic_inc(&ep->inflight);
	ret = ib_post_send(ep->qp, &wr.wr, NULL);
	if (ret) {
		atomic_dec(&ep->inflight);
		clear_bit(i, ep->tx_busy);
	}
	spin_unlock_bh(&ep->post_lock);
	return ret;
}

u32 ftd_ud_qpn(struct ftd_net *fn, u8 rail)
{
	struct ftd_ud_ep *ep;
	struct ftd_ud *ud;
	u32 qpn = 0;

	rcu_read_lock();
	ud = rcu_dereference(fn->ud);
	ep = ud && rail < FTD_MAX_RAILS ? rcu_dereference(ud->ep[rail]) : NULL;
	if (ep)
		qpn = ep->qpn;
	rcu_read_unlock();
	return qpn;
}

/* ---------------------------------------------------------------- paths */

/*
 * The connection manager's events for a path (process context, under the
 * id's own handler mutex): address, route, then SIDR, whose answer is the
 * peer's queue pair. A failure leaves the path failed; the next heartbeat
 * asks for a new one once FTD_UD_RETRY_NS has passed.
 */
static int path_event(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct ftd_ud_path *p = id->context;
	struct rdma_conn_param param = {};
	struct ib_ah *ah;

	switch (ev->event) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
		if (rdma_resolve_route(id, FTD_UD_RESOLVE_MS))
			goto failed;
		return 0;
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
		/* Our queue pair must be able to use the answer. */
		if (id->device != p->ep->dev || rdma_connect_locked(id, &param))
			goto failed;
		return 0;
	case RDMA_CM_EVENT_ESTABLISHED:
		if (p->ah)
			return 0;
		ah = rdma_create_ah(p->ep->pd, &ev->param.ud.ah_attr, RDMA_CREATE_AH_SLEEPABLE);
		if (IS_ERR(ah))
			goto failed;
		p->ah = ah;
		p->qpn = ev->param.ud.qp_num;
		p->qkey = ev->param.ud.qkey;
		smp_store_release(&p->ready, 1);
		return 0;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		drop_soon(p->ep);
		goto failed;
	case RDMA_CM_EVENT_ADDR_ERROR:
	case RDMA_CM_EVENT_ROUTE_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_REJECTED:
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_ADDR_CHANGE:
		goto failed;
	default:
		return 0;
	}
failed:
	pr_debug("rail %u: no RDMA path to node %u: event %d, status %d\n",
		 p->ep->rail, p->node, ev->event, ev->status);
	smp_store_release(&p->ready, -1);
	return 0;
}

/* A copy of our address on rail; false if the table has none. */
static bool own_addr(struct ftd_net *fn, u8 rail, union ftd_addr *a)
{
	const union ftd_addr *own;

	rcu_read_lock();
	own = ftd_peer_own_addr(fn, rail);
	if (own)
		*a = *own;
	rcu_read_unlock();
	return own;
}

static void set_port(union ftd_addr *a, u16 port)
{
	if (a->sa.sa_family == AF_INET)
		a->sin.sin_port = htons(port);
	else
		a->sin6.sin6_port = htons(port);
}

/* A path replaced or its endpoint going: no event can reach it after this. */
static void retire_path(struct ftd_ud_ep *ep, struct ftd_ud_path *p)
{
	if (p->next) {
		retire_path(ep, p->next);
		p->next = NULL;
	}
	if (p->id) {
		rdma_destroy_id(p->id);
		p->id = NULL;
	}
	list_add_tail(&p->retired, &ep->retired);
}

static void free_retired(struct ftd_ud_ep *ep)
{
	struct ftd_ud_path *p, *tmp;

	list_for_each_entry_safe(p, tmp, &ep->retired, retired) {
		list_del(&p->retired);
		if (p->ah)
			rdma_destroy_ah(p->ah, RDMA_DESTROY_AH_SLEEPABLE);
		kfree(p);
	}
}

/* A new path to node on ep, being resolved, not published; ud->mutex held. */
static struct ftd_ud_path *path_new(struct ftd_ud *ud, struct ftd_ud_ep *ep, u32 node)
{
	struct ftd_net *fn = ud->fn;
	struct ftd_ud_path *p;
	union ftd_addr src;
	struct ftd_peer *peer;
	bool ok;

	lockdep_assert_held(&ud->mutex);
	p = kzalloc(sizeof(*p), GFP_KERNEL_ACCOUNT);
	if (!p)
		return NULL;
	rcu_read_lock();
	peer = ftd_peer_find(fn, node);
	ok = peer && !peer->self && ep->rail < peer->nrails;
	if (ok) {
		p->dst = peer->rails[ep->rail].addr;
		p->incarnation = READ_ONCE(peer->incarnation);
		p->back = READ_ONCE(peer->rails[ep->rail].back);
	}
	rcu_read_unlock();
	ok = ok && own_addr(fn, ep->rail, &src);
	if (!ok) {
		kfree(p);
		return NULL;
	}
	p->node = node;
	p->ep = ep;
	p->begun_ns = ktime_get_ns();
	p->used_ns = p->begun_ns;
	INIT_LIST_HEAD(&p->retired);
	set_port(&src, 0);
	set_port(&p->dst, READ_ONCE(fn->cfg.port));
	p->id = rdma_create_id(fn->net, path_event, p, RDMA_PS_UDP, IB_QPT_UD);
	if (IS_ERR(p->id)) {
		p->id = NULL;
		p->ready = -1;
	} else if (rdma_resolve_addr(p->id, &src.sa, &p->dst.sa, FTD_UD_RESOLVE_MS)) {
		smp_store_release(&p->ready, -1);
	}
	return p;
}

/* Publish p, retiring what it replaces (senders may still hold that one). */
static void path_publish(struct ftd_ud_ep *ep, struct ftd_ud_path *p)
{
	struct ftd_ud_path *old = xa_store(&ep->paths, p->node, p, GFP_KERNEL_ACCOUNT);

	if (xa_is_err(old)) {
		retire_path(ep, p);
		return;
	}
	if (old)
		retire_path(ep, old);
}

/*
 * A path to node was asked for; ud->mutex held. None, or one that failed
 * or hangs: a new one, published at once. A ready one that is no longer
 * fresh keeps carrying heartbeats while its successor (p->next) resolves,
 * and is replaced once that is ready: a gap of a resolution (address,
 * route, a round trip of the CM) could make our rail look dead to the
 * peer, and its own path renewal then ours (heartbeats flapping rails).
 */
static void path_renew(struct ftd_ud *ud, struct ftd_ud_ep *ep, u32 node, u64 now)
{
	struct ftd_ud_path *p = xa_load(&ep->paths, node), *next;
	struct ftd_peer *peer;
	bool stale;

	lockdep_assert_held(&ud->mutex);
	if (!p || smp_load_acquire(&p->ready) != 1) {
		if (p && now - p->begun_ns < FTD_UD_RETRY_NS)
			return;
		next = path_new(ud, ep, node);
		if (next)
			path_publish(ep, next);
		return;
	}
	next = p->next;
	if (next && smp_load_acquire(&next->ready) == 1) {
		p->next = NULL;
		path_publish(ep, next);
		return;
	}
	if (next && now - next->begun_ns < FTD_UD_RETRY_NS)
		return;
	if (next) {
		p->next = NULL;
		retire_path(ep, next);
	}
	rcu_read_lock();
	peer = ftd_peer_find(ud->fn, node);
	stale = peer && (ep->rail >= peer->nrails || !path_fresh(p, peer, ep->rail));
	rcu_read_unlock();
	if (stale)
		p->next = path_new(ud, ep, node);
}

/* -------------------------------------------------------------- endpoints */

/* A peer asks for our queue pair: SIDR's answer. The child id is done then. */
static int listen_event(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct ftd_ud_ep *ep = id->context;
	struct rdma_conn_param param = { .qp_num = ep->qpn, .qkey = ep->qkey };

	if (ev->event == RDMA_CM_EVENT_DEVICE_REMOVAL)
		drop_soon(ep);
	if (ev->event != RDMA_CM_EVENT_CONNECT_REQUEST)
		return 0;
	if (rdma_accept(id, &param))
		pr_debug("rail %u: cannot answer an RDMA path request\n", ep->rail);
	return 1;	/* destroys the child id, never the listener */
}

static void free_bufs(struct ftd_ud_ep *ep, struct ftd_ud_buf *bufs, int n, u32 len,
		      enum dma_data_direction dir)
{
	int i;

	for (i = 0; bufs && i < n; i++) {
		if (bufs[i].dma)
			ib_dma_unmap_single(ep->dev, bufs[i].dma, len, dir);
		kfree(bufs[i].data);
	}
	kfree(bufs);
}

/* ep unpublished and a grace period past (or never published); ud->mutex held. */
static void ep_free(struct ftd_ud_ep *ep)
{
	struct ftd_ud_path *p;
	unsigned long node;

	lockdep_assert_held(&ep->ud->mutex);
	xa_for_each(&ep->paths, node, p) {
		xa_erase(&ep->paths, node);
		retire_path(ep, p);
	}
	xa_destroy(&ep->paths);
	spin_lock_bh(&ep->post_lock);
	ep->dying = true;
	spin_unlock_bh(&ep->post_lock);
	if (ep->qp) {
		struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };

		ib_modify_qp(ep->qp, &attr, IB_QP_STATE);
		rdma_destroy_qp(ep->listen);
	}
	if (ep->listen)
		rdma_destroy_id(ep->listen);	/* waits for its handler */
	if (ep->cq)
		ib_free_cq(ep->cq);		/* no completion runs after this */
	free_retired(ep);
	free_bufs(ep, ep->rx, FTD_UD_RX_BUFS, FTD_UD_RX_LEN, DMA_FROM_DEVICE);
	free_bufs(ep, ep->tx, FTD_UD_TX_SLOTS, FTD_UD_TX_LEN, DMA_TO_DEVICE);
	if (ep->pd)
		ib_dealloc_pd(ep->pd);
	kfree(ep);
}

static struct ftd_ud_buf *alloc_bufs(struct ftd_ud_ep *ep, int n, u32 len,
				     enum dma_data_direction dir,
				     void (*done)(struct ib_cq *, struct ib_wc *))
{
	struct ftd_ud_buf *bufs = kcalloc(n, sizeof(*bufs), GFP_KERNEL_ACCOUNT);
	int i;

	for (i = 0; bufs && i < n; i++) {
		bufs[i].ep = ep;
		bufs[i].cqe.done = done;
		bufs[i].data = kmalloc(len, GFP_KERNEL_ACCOUNT);
		if (!bufs[i].data)
			goto fail;
		bufs[i].dma = ib_dma_map_single(ep->dev, bufs[i].data, len, dir);
		if (ib_dma_mapping_error(ep->dev, bufs[i].dma)) {
			bufs[i].dma = 0;
			goto fail;
		}
	}
	return bufs;
fail:
	free_bufs(ep, bufs, n, len, dir);
	return NULL;
}

/*
 * Our queue pair on rail, on the RDMA port behind our address there;
 * ud->mutex held. Says why not in the kernel log and in extack.
 */
static int ep_create(struct ftd_ud *ud, u8 rail, struct netlink_ext_ack *extack)
{
	struct ftd_net *fn = ud->fn;
	struct ib_qp_init_attr qa = {
		.qp_type = IB_QPT_UD,
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.cap = {
			.max_send_wr = FTD_UD_TX_SLOTS, .max_recv_wr = FTD_UD_RX_BUFS,
			.max_send_sge = 1, .max_recv_sge = 1,
		},
	};
	const char *what = "RDMA rails: no address of ours on that rail";
	struct ftd_ud_ep *ep;
	union ftd_addr addr;
	int ret = -EADDRNOTAVAIL, i;

	lockdep_assert_held(&ud->mutex);
	WRITE_ONCE(ud->ep_tried_ns[rail], ktime_get_ns());	/* ep_of reads it locklessly */
	if (!own_addr(fn, rail, &addr))
		goto say;
	set_port(&addr, fn->cfg.port);
	ep = kzalloc(sizeof(*ep), GFP_KERNEL_ACCOUNT);
	if (!ep) {
		ret = -ENOMEM;
		what = "RDMA rails: out of memory";
		goto say;
	}
	ep->ud = ud;
	ep->rail = rail;
	ep->qkey = RDMA_UDP_QKEY;
	spin_lock_init(&ep->post_lock);
	xa_init(&ep->paths);
	INIT_LIST_HEAD(&ep->retired);
	ep->listen = rdma_create_id(fn->net, listen_event, ep, RDMA_PS_UDP, IB_QPT_UD);
	if (IS_ERR(ep->listen)) {
		ret = PTR_ERR(ep->listen);
		ep->listen = NULL;
		what = "RDMA rails: cannot create an RDMA CM id";
		goto fail;
	}
	ret = rdma_bind_addr(ep->listen, &addr.sa);
	if (ret || !ep->listen->device) {
		ret = ret ?: -ENODEV;
		what = "RDMA rails: no RDMA device behind our address on that rail";
		goto fail;
	}
	ep->dev = ep->listen->device;
	ep->pd = ib_alloc_pd(ep->dev, 0);
	if (IS_ERR(ep->pd)) {
		ret = PTR_ERR(ep->pd);
		ep->pd = NULL;
		what = "RDMA rails: cannot allocate a protection domain";
		goto fail;
	}
	ep->cq = ib_alloc_cq(ep->dev, ep, FTD_UD_RX_BUFS + FTD_UD_TX_SLOTS, 0, IB_POLL_SOFTIRQ);
	if (IS_ERR(ep->cq)) {
		ret = PTR_ERR(ep->cq);
		ep->cq = NULL;
		what = "RDMA rails: cannot allocate a completion queue";
		goto fail;
	}
	qa.send_cq = ep->cq;
	qa.recv_cq = ep->cq;
	ret = rdma_create_qp(ep->listen, ep->pd, &qa);
	if (ret) {
		what = "RDMA rails: cannot create a datagram queue pair";
		goto fail;
	}
	ep->qp = ep->listen->qp;
	ep->qpn = ep->qp->qp_num;
	ep->rx = alloc_bufs(ep, FTD_UD_RX_BUFS, FTD_UD_RX_LEN, DMA_FROM_DEVICE, rx_done);
	ep->tx = alloc_bufs(ep, FTD_UD_TX_SLOTS, FTD_UD_TX_LEN, DMA_TO_DEVICE, tx_done);
	if (!ep->rx || !ep->tx) {
		ret = -ENOMEM;
		what = "RDMA rails: cannot allocate and map the buffers";
		goto fail;
	}
	for (i = 0; i < FTD_UD_RX_BUFS; i++)
		post_recv(ep, &ep->rx[i]);
	ret = rdma_listen(ep->listen, 16);
	if (ret) {
		what = "RDMA rails: cannot listen for path requests";
		goto fail;
	}
	rcu_assign_pointer(ud->ep[rail], ep);
	pr_info("node %u rail %u: heartbeats over RDMA: %s port %u, queue pair %u\n",
		fn->cfg.node, rail, dev_name(&ep->dev->dev), ep->listen->port_num, ep->qpn);
	return 0;
fail:
	ep_free(ep);
say:
	pr_warn_ratelimited("node %u rail %u: no heartbeats over RDMA: %s (%d)\n",
			    fn->cfg.node, rail, what, ret);
	if (extack)	/* NL_SET_ERR_MSG takes a literal: each `what` is one */
		extack->_msg = what;
	return ret;
}

static struct ftd_ud_ep *ep_locked(struct ftd_ud *ud, u8 rail)
{
	return rcu_dereference_protected(ud->ep[rail], lockdep_is_held(&ud->mutex));
}

/* Unpublish the endpoints of the rails in mask, then free them; ud->mutex held. */
static void ep_drop(struct ftd_ud *ud, unsigned long mask)
{
	struct ftd_ud_ep *gone[FTD_MAX_RAILS] = {};
	unsigned int r;

	lockdep_assert_held(&ud->mutex);
	for_each_set_bit(r, &mask, FTD_MAX_RAILS) {
		gone[r] = ep_locked(ud, r);
		RCU_INIT_POINTER(ud->ep[r], NULL);
	}
	synchronize_rcu();
	for (r = 0; r < FTD_MAX_RAILS; r++)
		if (gone[r])
			ep_free(gone[r]);
}

/* ------------------------------------------------------------------ work */

/* Paths no heartbeat took for FTD_UD_PATH_IDLE_NS: the ring moved on. */
static void drop_idle_paths(struct ftd_ud_ep *ep, u64 now)
{
	struct ftd_ud_path *p;
	unsigned long node;

	if (!ep)
		return;
	xa_for_each(&ep->paths, node, p) {
		if (now - READ_ONCE(p->used_ns) < FTD_UD_PATH_IDLE_NS)
			continue;
		xa_erase(&ep->paths, node);
		retire_path(ep, p);
	}
}

static void ud_work(struct work_struct *w)
{
	struct ftd_ud *ud = container_of(to_delayed_work(w), struct ftd_ud, work);
	struct ftd_ud_want todo[FTD_UD_WANT_MAX];
	bool reap_later = false, reaped = false;
	u64 now = ktime_get_ns();
	struct ftd_ud_ep *ep;
	unsigned long drop;
	u32 n, i;
	u8 eps;

	mutex_lock(&ud->mutex);
	if (ud->stopping)
		goto out;
	spin_lock_bh(&ud->want_lock);
	n = ud->n_want;
	memcpy(todo, ud->want, n * sizeof(todo[0]));
	ud->n_want = 0;
	eps = ud->want_ep;
	ud->want_ep = 0;
	drop = ud->drop_ep;
	ud->drop_ep = 0;
	spin_unlock_bh(&ud->want_lock);

	if (drop)
		ep_drop(ud, drop);

	for (i = 0; i < FTD_MAX_RAILS; i++)
		if ((eps & BIT(i)) && (ud->fn->cfg.rdma_rails & BIT(i)) && !ep_locked(ud, i) &&
		    now - ud->ep_tried_ns[i] >= FTD_UD_RETRY_NS)
			ep_create(ud, i, NULL);
	for (i = 0; i < n; i++) {
		ep = ep_locked(ud, todo[i].rail);
		if (!ep)
			continue;
		path_renew(ud, ep, todo[i].node, now);
	}
	if (now - ud->gc_ns >= FTD_UD_PATH_IDLE_NS / 4) {
		ud->gc_ns = now;
		for (i = 0; i < FTD_MAX_RAILS; i++)
			drop_idle_paths(ep_locked(ud, i), now);
	}
	/*
	 * Replaced paths: once no sender can see them (a grace period) and no
	 * send posted before is still in flight, their AHs can go.
	 */
	for (i = 0; i < FTD_MAX_RAILS; i++) {
		ep = ep_locked(ud, i);
		if (!ep || list_empty(&ep->retired))
			continue;
		if (!reaped) {
			synchronize_rcu();
			reaped = true;
		}
		if (atomic_read(&ep->inflight))
			reap_later = true;
		else
			free_retired(ep);
	}
	if (reap_later)
		mod_delayed_work(system_wq, &ud->work, msecs_to_jiffies(10));
out:
	mutex_unlock(&ud->mutex);
}

/* ------------------------------------------------------------- up, down */

int ftd_ud_start(struct ftd_net *fn, struct netlink_ext_ack *extack)
{
	unsigned long rails = fn->cfg.rdma_rails;
	struct ftd_ud *ud;
	unsigned int r;
	int ret = 0;

	lockdep_assert_held(&fn->lock);
	if (!rails)
		return 0;
	ud = kzalloc(sizeof(*ud), GFP_KERNEL_ACCOUNT);
	if (!ud)
		return -ENOMEM;
	ud->fn = fn;
	mutex_init(&ud->mutex);
	spin_lock_init(&ud->want_lock);
	INIT_DELAYED_WORK(&ud->work, ud_work);
	mutex_lock(&ud->mutex);
	for_each_set_bit(r, &rails, FTD_MAX_RAILS) {
		ret = ep_create(ud, r, extack);
		if (ret)
			break;
	}
	if (ret) {
		ep_drop(ud, rails);
		mutex_unlock(&ud->mutex);
		cancel_delayed_work_sync(&ud->work);
		kfree(ud);
		return ret;
	}
	mutex_unlock(&ud->mutex);
	mutex_lock(&uds_lock);
	list_add(&ud->entry, &uds);
	mutex_unlock(&uds_lock);
	rcu_assign_pointer(fn->ud, ud);
	return 0;
}

void ftd_ud_stop(struct ftd_net *fn)
{
	struct ftd_ud *ud = rcu_dereference_protected(fn->ud, lockdep_is_held(&fn->lock));

	if (!ud)
		return;
	RCU_INIT_POINTER(fn->ud, NULL);
	synchronize_rcu();	/* no sender can ask for work any more */
	mutex_lock(&uds_lock);
	list_del(&ud->entry);
	mutex_unlock(&uds_lock);
	mutex_lock(&ud->mutex);
	ud->stopping = true;
	mutex_unlock(&ud->mutex);
	cancel_delayed_work_sync(&ud->work);
	mutex_lock(&ud->mutex);
	ep_drop(ud, BIT(FTD_MAX_RAILS) - 1);
	mutex_unlock(&ud->mutex);
	/* An event handler may have queued it again before its id went. */
	cancel_delayed_work_sync(&ud->work);
	kfree(ud);
}

void ftd_ud_device_removed(struct ib_device *ibdev)
{
	struct ftd_ud_ep *ep;
	unsigned long mask;
	struct ftd_ud *ud;
	u8 r;

	mutex_lock(&uds_lock);
	list_for_each_entry(ud, &uds, entry) {
		mutex_lock(&ud->mutex);
		mask = 0;
		for (r = 0; r < FTD_MAX_RAILS; r++) {
			ep = ep_locked(ud, r);
			if (ep && ep->dev == ibdev)
				mask |= BIT(r);
		}
		if (mask) {
			pr_info("node %u: RDMA device %s goes: its heartbeat queue pairs too\n",
				ud->fn->cfg.node, dev_name(&ibdev->dev));
			ep_drop(ud, mask);
		}
		mutex_unlock(&ud->mutex);
	}
	mutex_unlock(&uds_lock);
}
