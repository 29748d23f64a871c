/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One ftdetect instance per network namespace: a node of the cluster. In the
 * test VM every namespace is a node; on a real cluster the init namespace is.
 */
#ifndef FTD_NET_H
#define FTD_NET_H

#include <linux/types.h>
#include <linux/mutex.h>
#include <linux/xarray.h>
#include <linux/rhashtable.h>
#include <linux/hrtimer.h>
#include <linux/workqueue.h>
#include <linux/spinlock.h>
#include <linux/seqlock.h>
#include <linux/list.h>
#include <linux/wait.h>
#include <linux/ftdetect.h>
#include "rdma.h"
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <linux/netlink.h>
#include "proto/digest.h"
#include "proto/lease.h"
#include "proto/overload.h"
#include "proto/partition.h"
#include "proto/reach.h"

struct socket;
struct ftd_members;
struct ftd_routes;
struct ftd_keys;
struct ftd_status;
struct ftd_watchlist;
struct ftd_ud;

struct ftd_config {
	u32 cluster;
	u32 node;		/* local node id, FTD_NODE_NONE until set */
	u16 port;
	u64 period_ns;		/* read locklessly by the timer: READ_ONCE */
	u64 timeout_ns;		/* read locklessly by the timer: READ_ONCE */
	u32 observers;		/* k; READ_ONCE */
	u32 quorum;		/* q; READ_ONCE */
	u8 rdma_rails;		/* heartbeats over RDMA on these rails (rdma_ud.h) */
	/* The keys as configured; senders and the receive path use fn->keys. */
	u8 key[FTD_KEY_LEN];
	u8 accepted[FTD_KEYS_ACCEPTED_MAX][FTD_KEY_LEN];
	u8 n_accepted;
};

/* A latency histogram (FTDETECT_A_STATS_*_HIST): counts and their sum. */
struct ftd_latency_hist {
	atomic64_t hist[FTD_LATENCY_BUCKETS];
	atomic64_t sum_ns;
};

/* The uapi's FTDETECT_STATS_U64: an atomic64_t for each counter. */
#define FTD_STATS_MEMBER_counter(name)	atomic64_t name;
#define FTD_STATS_MEMBER_gauge(name)
#define FTD_STATS_MEMBER(attr, name, kind)	FTD_STATS_MEMBER_##kind(name)

struct ftd_stats {
	FTDETECT_STATS_U64(FTD_STATS_MEMBER)
	/* The gauges: minority is computed when asked (majority.c). */
	atomic64_t tick_late_max_ns;	/* written by the timer only */
	atomic64_t events_by_type[__FTD_EV_MAX];	/* event.c */
	/* Silence of the dead at NODE_DEAD (dissem.c): ours, and told us. */
	struct ftd_latency_hist declared, told;
};

struct ftd_rx_cpu;

struct ftd_net {
	struct net *net;
	struct mutex lock;		/* config, membership, up/down */
	struct ftd_config cfg;
	struct ftd_keys __rcu *keys;	/* keys.h: never NULL once created */
	bool up;			/* written under lock; read by rx/timer */
	/*
	 * link.c, under RTNL: our rails that cannot carry frames (link,
	 * carrier or RDMA port down: nothing is sent on them), and those
	 * found with an RDMA port behind them since we came up.
	 */
	u8 rails_unusable;
	u8 rails_rdma;
	/* detect.c, each tick: starved, or the machine dropping or stuck (proto/overload.h) */
	bool judging_excused;
	struct work_struct link_recheck;	/* link.c: our rails looked at again */
	spinlock_t rdma_lock;		/* rdma[]: link.c writes it, dumps copy it */
	struct ftd_rdma_port rdma[FTD_MAX_RAILS];	/* behind our rails, since up */
	struct ftd_ud __rcu *ud;	/* rdma_ud.h: while up with RDMA rails */
	u32 incarnation;		/* ours; set at each up */
	atomic_t regid;			/* numbers registrations of local ranks */
	atomic_t seq_epoch;		/* peer.c: heartbeat stream epochs */

	struct xarray peers;		/* node id -> struct ftd_peer; RCU readers */
	u32 n_peers;			/* entries in peers; under lock */
	struct rhashtable addrs;	/* address -> rail (addrs.h); under lock */
	struct ftd_members __rcu *members;	/* the ring, see members.h */
	spinlock_t ring_lock;		/* liveness in members->ring; _bh */
	u64 last_rx_ns;			/* any valid frame from anyone; CLOCK_MONOTONIC */
	u64 timing_since_ns;		/* net.c: the period or timeout shortened while up
					 * (silence counts from here, detect.c); READ_ONCE */
	atomic64_t heard_any_ns;	/* the latest arrival of one (detect.h) */
	struct ftd_watchlist *watch;	/* the timer's own: whom it watches (detect.h) */
	u64 probe_rtt_ns;		/* round trip of our PROBEs (proto/watch.h
					 * ftd_watch_rtt); READ_ONCE/WRITE_ONCE */
	u64 isolated_since;		/* the timer's own: hearing nobody since, 0: no */
	u32 reach_cursor;		/* the timer's own: whom it asks next, then */
	bool tick_was_late;		/* the timer's own: its last tick was late */
	atomic64_t rx_lag_ns;		/* lag.h: the longest wait since the last tick */
	struct ftd_slowness rx_health;	/* the timer's own: our receive path's lag (proto/health.h) */
	/* the timer's own: lag.h, ftd_rx_stuck() */
	struct ftd_rx_cpu __percpu *rx_seen;	/* what it saw of each CPU */
	u32 rx_tick;			/* numbers the ticks, for rx_seen */
	bool rx_look;			/* look at this tick: a verdict may be near */
	bool stuck_last_held;		/* its last tick held judging for it */
	struct ftd_lease lease;		/* the timer's own: our membership (proto/lease.h) */
	struct ftd_overload overload;	/* the timer's own: the machine drops (proto/overload.h) */
	bool overload_last_held;	/* the timer's own: its last tick held judging for it */
	spinlock_t partition_lock;	/* majority.h; _bh */
	struct ftd_partition partition;	/* under partition_lock; minority_of also READ_ONCE */
	struct ftd_reach reach;		/* the timer's own: are we an island (reach.h) */
	struct socket __rcu *sock4;
	struct socket __rcu *sock6;
	struct hrtimer timer;		/* heartbeat emission and detection tick */
	struct ftd_routes *routes;	/* routes.h: the timer's own, while up */
	u32 routes_held;		/* route caches allocated there; READ_ONCE */
	atomic64_t notice_seq;		/* the seq of our last notice frame */
	/* span.c: our shares of spanning broadcasts waiting for their acknowledgement */
	spinlock_t shares_lock;		/* _bh */
	struct list_head shares;	/* struct ftd_share, oldest first */
	u32 n_shares;
	struct hrtimer share_timer;	/* sends them again, hands them over */
	u64 *shares_seen;		/* FTD_SHARES_SEEN hashes of notices forwarded */
	struct delayed_work view_work;	/* view.c */
	/* scope.c: scoped ranks' ends waiting to be sent */
	spinlock_t scope_lock;		/* _bh */
	struct list_head scope_ends;	/* struct ftd_scope_end */
	struct delayed_work scope_work;
	struct delayed_work probe_work;	/* fresh.c */
	atomic_t sweep_reset;		/* fresh.c: the next sweep starts every
					 * unheard member's backoff over */
	struct delayed_work repair_work;	/* repair.c, and its own: */
	struct ftd_digest_track digest;	/* our view's digest, settled when */
	u64 digest_walk_ns;		/* we last computed it */
	u64 digest_next_ns;		/* we send it next */
	seqlock_t digest_now_lock;	/* the last walk's digest (or none since a */
	struct ftd_digest digest_now;	/* fence), for contacts on the receive path */
	atomic64_t view_asked_ns;	/* repair.c: we last asked a view at a contact */
	bool caught_up;			/* repair.c: our digest settled once since we
					 * came up (proto/detect.h: who tells arrivals) */

	spinlock_t readers_lock;	/* readers, event sequence and order,
					 * status table writes; _bh */
	struct list_head readers;	/* struct ftd_reader, chardev openers */
	u32 n_readers;			/* under readers_lock */
	u64 event_seq;
	/*
	 * The last FTD_EVENT_QUEUE_LEN records, shared by every reader (each
	 * has its own position, event.c), while the instance has readers;
	 * the ones since events_first are valid. Under readers_lock.
	 */
	struct ftd_event *events;
	u64 events_first;
	wait_queue_head_t events_wait;	/* readers blocked in read or poll */
	struct work_struct events_wake;	/* wakes them, off the receive path */
	struct ftd_status *status;	/* the mmap'd table once mapped, see stab.h */

	struct ftd_stats stats;
};

extern unsigned int ftd_net_id;

static inline struct ftd_net *ftd_net(struct net *net)
{
	return net_generic(net, ftd_net_id);
}

int ftd_net_init(void);
void ftd_net_exit(void);

/* What a configuration change does to the instance's state. */
enum ftd_up_change { FTD_UP_KEEP, FTD_UP_DOWN, FTD_UP_UP };

/*
 * One configuration change, all or nothing: the fields of cfg in set_mask,
 * then up or down. Everything is checked against the state asked for
 * before anything changes; if going up still fails (the port is taken),
 * the previous configuration is restored. Takes fn->lock.
 */
int ftd_net_configure(struct ftd_net *fn, const struct ftd_config *cfg, u32 set_mask,
		      enum ftd_up_change up, struct netlink_ext_ack *extack);
void ftd_net_down(struct ftd_net *fn);

/* Bits of set_mask: which fields of the config to change. */
enum {
	FTD_CFG_CLUSTER = BIT(0),
	FTD_CFG_NODE	= BIT(1),
	FTD_CFG_PORT	= BIT(2),
	FTD_CFG_PERIOD	= BIT(3),
	FTD_CFG_TIMEOUT	= BIT(4),
	FTD_CFG_KEY	= BIT(5),
	FTD_CFG_OBSERVERS = BIT(6),
	FTD_CFG_QUORUM	= BIT(7),
	FTD_CFG_KEYS_ACCEPTED = BIT(8),
	FTD_CFG_RDMA_RAILS = BIT(9),
	FTD_CFG_ALL	= BIT(10) - 1,
};

/* Incarnations must grow across restarts of the instance and of the module. */
u32 ftd_net_next_incarnation(u32 prev);

#endif
