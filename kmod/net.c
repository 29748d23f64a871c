// SPDX-License-Identifier: GPL-2.0
#include <linux/ktime.h>
#include <linux/rtnetlink.h>
#include "net.h"
#include "addrs.h"
#include "link.h"
#include "peer.h"
#include "socket.h"
#include "routes.h"
#include "hb_tx.h"
#include "timer.h"
#include "event.h"
#include "members.h"
#include "reach.h"
#include "detect.h"
#include "dissem.h"
#include "stab.h"
#include "view.h"
#include "repair.h"
#include "fresh.h"
#include "bounds.h"
#include "majority.h"
#include "keys.h"
#include "proto/detect.h"
#include "rdma_ud.h"
#include "span.h"
#include "scope.h"

unsigned int ftd_net_id __read_mostly;

static bool changes(const struct ftd_config *cur, const struct ftd_config *want, u32 mask)
{
	return ((mask & FTD_CFG_CLUSTER) && cur->cluster != want->cluster) ||
	       ((mask & FTD_CFG_NODE) && cur->node != want->node) ||
	       ((mask & FTD_CFG_PORT) && cur->port != want->port) ||
	       ((mask & FTD_CFG_RDMA_RAILS) && cur->rdma_rails != want->rdma_rails);
}

/* Can the instance be in this state? Nothing changes here. */
static int check_config(struct ftd_net *fn, const struct ftd_config *want, u32 mask,
			enum ftd_up_change up, struct netlink_ext_ack *extack)
{
	u64 period = mask & FTD_CFG_PERIOD ? want->period_ns : fn->cfg.period_ns;
	u64 timeout = mask & FTD_CFG_TIMEOUT ? want->timeout_ns : fn->cfg.timeout_ns;
	u32 node = mask & FTD_CFG_NODE ? want->node : fn->cfg.node;

	lockdep_assert_held(&fn->lock);
	if ((mask & FTD_CFG_QUORUM ? want->quorum : fn->cfg.quorum) >
	    (mask & FTD_CFG_OBSERVERS ? want->observers : fn->cfg.observers)) {
		NL_SET_ERR_MSG_MOD(extack, "quorum cannot exceed the number of observers");
		return -EINVAL;
	}
	/*
	 * RDMA rails make kernel queue pairs on the host's RDMA devices, and
	 * their connection manager ids hold a reference on the namespace,
	 * which would then never go: the node's own namespace only.
	 */
	if ((mask & FTD_CFG_RDMA_RAILS) && want->rdma_rails && !net_eq(fn->net, &init_net)) {
		NL_SET_ERR_MSG_MOD(extack, "RDMA rails: only in the initial network namespace");
		return -EPERM;
	}
	if (period < ftd_min_period_ns(fn)) {
		NL_SET_ERR_MSG_MOD(extack,
			"period below this instance's floor (in a user namespace: module parameter userns_min_period_us)");
		return -EINVAL;
	}
	if (timeout < 2 * period) {
		NL_SET_ERR_MSG_MOD(extack, "timeout must be at least two periods");
		return -EINVAL;
	}
	/* Peers identify us by these, and the receive path reads them unlocked. */
	if (fn->up && up != FTD_UP_DOWN && changes(&fn->cfg, want, mask)) {
		NL_SET_ERR_MSG_MOD(extack,
			"cluster id, node id, port and RDMA rails are fixed while up: take the instance down first");
		return -EBUSY;
	}
	if (up == FTD_UP_UP && !fn->up) {
		if (node == FTD_NODE_NONE) {
			NL_SET_ERR_MSG_MOD(extack, "the local node id is not set");
			return -EINVAL;
		}
		if (!ftd_peer_find(fn, node)) {
			NL_SET_ERR_MSG_MOD(extack, "the local node is not in the node table");
			return -EINVAL;
		}
	}
	return 0;
}

/* The keys as configured; the ring built from them is published apart. */
static void apply_config_keys(struct ftd_config *cfg, const struct ftd_config *want, u32 mask)
{
	if (mask & FTD_CFG_KEY)
		memcpy(cfg->key, want->key, FTD_KEY_LEN);
	if (mask & FTD_CFG_KEYS_ACCEPTED) {
		memcpy(cfg->accepted, want->accepted, sizeof(cfg->accepted));
		cfg->n_accepted = want->n_accepted;
	}
}

static void apply_config(struct ftd_net *fn, const struct ftd_config *want, u32 mask)
{
	lockdep_assert_held(&fn->lock);
	if (mask & FTD_CFG_CLUSTER)
		fn->cfg.cluster = want->cluster;
	if (mask & FTD_CFG_PORT)
		fn->cfg.port = want->port;
	if (mask & FTD_CFG_RDMA_RAILS)
		fn->cfg.rdma_rails = want->rdma_rails;
	apply_config_keys(&fn->cfg, want, mask);
	if (mask & FTD_CFG_OBSERVERS)
		WRITE_ONCE(fn->cfg.observers, want->observers);
	if (mask & FTD_CFG_QUORUM)
		WRITE_ONCE(fn->cfg.quorum, want->quorum);
	if (mask & FTD_CFG_PERIOD)
		WRITE_ONCE(fn->cfg.period_ns, want->period_ns);
	if (mask & FTD_CFG_TIMEOUT)
		WRITE_ONCE(fn->cfg.timeout_ns, want->timeout_ns);
	if ((mask & FTD_CFG_NODE) && fn->cfg.node != want->node) {
		fn->cfg.node = want->node;
		ftd_peer_mark_self(fn);
	}
	ftd_status_config(fn);
}

u32 ftd_net_next_incarnation(u32 prev)
{
	u32 now = (u32)ktime_get_real_seconds();

	return now > prev ? now : prev + 1;
}

/* check_config() said the local node is set and in the table. */
static int net_up_locked(struct ftd_net *fn, struct netlink_ext_ack *extack)
{
	int ret;

	lockdep_assert_held(&fn->lock);
	ret = ftd_socket_open(fn, fn->cfg.port, extack);
	if (ret)
		return ret;
	/* Can fail: before anything that would have to be undone. */
	ret = ftd_detect_start(fn);
	if (!ret)
		ret = ftd_routes_start(fn);
	if (!ret)
		ret = ftd_members_rebuild(fn);	/* everyone live again */
	if (!ret)
		ret = ftd_ud_start(fn, extack);
	if (ret) {
		ftd_routes_stop(fn);
		ftd_socket_close(fn);
		return ret;
	}
	WRITE_ONCE(fn->incarnation, ftd_net_next_incarnation(fn->incarnation));
	ftd_peer_reset_all(fn);	/* after the new incarnation: self shows it */
	fn->isolated_since = 0;
	fn->lease = (struct ftd_lease){};
	ftd_majority_reset(fn);
	ftd_reach_reset(fn);
	WRITE_ONCE(fn->probe_rtt_ns, 0);
	WRITE_ONCE(fn->last_rx_ns, 0);
	WRITE_ONCE(fn->timing_since_ns, 0);
	atomic64_set(&fn->heard_any_ns, 0);
	/*
	 * Every rail usable until link.c looks (at once, below): rails may
	 * change. Under RTNL, as link.c writes them: a look begun while we
	 * were last up must not finish over the reset.
	 */
	rtnl_lock();
	WRITE_ONCE(fn->rails_unusable, 0);
	WRITE_ONCE(fn->rails_rdma, 0);
	spin_lock_bh(&fn->rdma_lock);
	memset(fn->rdma, 0, sizeof(fn->rdma));
	spin_unlock_bh(&fn->rdma_lock);
	rtnl_unlock();
	WRITE_ONCE(fn->up, true);
	ftd_link_recheck_net(fn);
	ftd_status_config(fn);
	/* A frame handled while we went down may have left a share behind. */
	ftd_span_reset(fn);
	ftd_timer_start(fn);
	ftd_fresh_probe_kick(fn);
	ftd_repair_start(fn);
	pr_debug("node %u up, incarnation %u\n", fn->cfg.node, fn->incarnation);
	return 0;
}

static void net_down_locked(struct ftd_net *fn)
{
	lockdep_assert_held(&fn->lock);
	if (!fn->up)
		return;
	ftd_scope_flush(fn);		/* ranks' ends of the last moment go before we leave */
	ftd_dissem_announce_left(fn);	/* not a failure: tell the group */
	WRITE_ONCE(fn->up, false);
	ftd_timer_stop(fn);
	ftd_routes_stop(fn);	/* after the timer: the only one that uses them */
	ftd_scope_stop(fn);	/* before the shares: it makes some */
	ftd_span_stop(fn);	/* after the timer: no share is sent again */
	ftd_ud_stop(fn);	/* after the timer: nothing sends on it now */
	ftd_socket_close(fn);
	/*
	 * The repair work asks for views: stopped first, or a walk that read
	 * up before it went false queues the view work after its stop.
	 */
	ftd_repair_stop(fn);
	ftd_view_stop(fn);	/* nothing can request one any more */
	ftd_fresh_stop(fn);
	ftd_status_config(fn);
}

void ftd_net_down(struct ftd_net *fn)
{
	mutex_lock(&fn->lock);
	net_down_locked(fn);
	mutex_unlock(&fn->lock);
}

/*
 * A running instance's timing changed: silence measured under the old one
 * stops counting (proto/detect.h), and a shorter period ticks now, not an
 * old period from now.
 */
static void timing_changed(struct ftd_net *fn, const struct ftd_config *old)
{
	if (!ftd_detect_timing_shortened(old->period_ns, old->timeout_ns, fn->cfg.period_ns,
					 fn->cfg.timeout_ns))
		return;
	WRITE_ONCE(fn->timing_since_ns, ktime_get_ns());
	if (fn->cfg.period_ns < old->period_ns)
		ftd_timer_restart(fn);
}

int ftd_net_configure(struct ftd_net *fn, const struct ftd_config *want, u32 mask,
		      enum ftd_up_change up, struct netlink_ext_ack *extack)
{
	struct ftd_keys *keys = NULL, *old_keys = NULL;
	struct ftd_config old;
	int ret;

	mutex_lock(&fn->lock);
	ret = check_config(fn, want, mask, up, extack);
	if (ret)
		goto out;
	old = fn->cfg;
	if (mask & (FTD_CFG_KEY | FTD_CFG_KEYS_ACCEPTED)) {
		struct ftd_config next = fn->cfg;

		apply_config_keys(&next, want, mask);
		/* Before anything changes: a failed allocation changes nothing. */
		keys = ftd_keys_new(&next);
		memzero_explicit(&next, sizeof(next));
		if (!keys) {
			ret = -ENOMEM;
			goto out;
		}
	}
	/* Going down first lets one request reconfigure a running node. */
	if (up == FTD_UP_DOWN)
		net_down_locked(fn);
	apply_config(fn, want, mask);
	if (fn->up)
		timing_changed(fn, &old);
	if (keys)
		old_keys = ftd_keys_swap(fn, keys);
	if (up == FTD_UP_UP && !fn->up) {
		ret = net_up_locked(fn, extack);
		if (ret) {	/* down, as before: the old configuration too */
			apply_config(fn, &old, FTD_CFG_ALL);
			if (keys) {	/* and the old ring: the new one goes */
				ftd_keys_swap(fn, old_keys);
				old_keys = keys;
			}
		}
	}
	ftd_keys_free(old_keys);
out:
	mutex_unlock(&fn->lock);
	memzero_explicit(&old, sizeof(old));
	return ret;
}

static __net_init int ftd_net_pernet_init(struct net *net)
{
	struct ftd_net *fn = ftd_net(net);
	struct ftd_keys *keys;

	fn->net = net;
	mutex_init(&fn->lock);
	xa_init(&fn->peers);
	spin_lock_init(&fn->readers_lock);
	spin_lock_init(&fn->rdma_lock);
	ftd_link_net_init(fn);
	spin_lock_init(&fn->ring_lock);
	spin_lock_init(&fn->partition_lock);
	INIT_LIST_HEAD(&fn->readers);
	ftd_events_init(fn);
	ftd_timer_init(fn);
	ftd_view_init(fn);
	ftd_scope_init(fn);
	ftd_fresh_init(fn);
	ftd_repair_init(fn);
	fn->cfg.node = FTD_NODE_NONE;
	fn->cfg.port = FTD_DEFAULT_PORT;
	fn->cfg.period_ns = FTD_DEFAULT_PERIOD_NS;
	fn->cfg.timeout_ns = FTD_DEFAULT_TIMEOUT_NS;
	fn->cfg.observers = FTD_DEFAULT_OBSERVERS;
	fn->cfg.quorum = 1;
	/* The all-zero key until one is set. */
	keys = ftd_keys_new(&fn->cfg);
	if (!keys)
		return -ENOMEM;
	if (ftd_addrs_init(fn)) {
		ftd_keys_free(keys);
		return -ENOMEM;
	}
	if (ftd_span_init(fn)) {
		ftd_addrs_free(fn);
		ftd_keys_free(keys);
		return -ENOMEM;
	}
	RCU_INIT_POINTER(fn->keys, keys);
	return 0;
}

static __net_exit void ftd_net_pernet_exit(struct net *net)
{
	struct ftd_net *fn = ftd_net(net);

	/* Readers hold a reference on the namespace: none can remain. */
	WARN_ON(!list_empty(&fn->readers));
	mutex_lock(&fn->lock);
	net_down_locked(fn);
	ftd_scope_stop(fn);	/* a rank's end queued it just as we went down */
	ftd_members_free(fn);
	ftd_peer_del_all(fn);
	mutex_unlock(&fn->lock);
	ftd_link_net_exit(fn);
	xa_destroy(&fn->peers);
	ftd_addrs_free(fn);
	ftd_detect_free(fn);
	ftd_span_free(fn);
	/* Its last file took the status table and the event log away (ftd_reader_destroy). */
	if (WARN_ON(fn->status))
		ftd_status_free(fn->status);
	WARN_ON(fn->events);
	ftd_events_exit(fn);
	/* Nothing sends any more; a frame still in the receive path may read it. */
	ftd_keys_free(rcu_dereference_protected(fn->keys, true));
}

static struct pernet_operations ftd_net_ops = {
	.init = ftd_net_pernet_init,
	.exit = ftd_net_pernet_exit,
	.id = &ftd_net_id,
	.size = sizeof(struct ftd_net),
};

int ftd_net_init(void)
{
	int ret = ftd_peer_caches_init();

	if (ret)
		return ret;
	ret = register_pernet_subsys(&ftd_net_ops);
	if (ret)
		ftd_peer_caches_exit();
	return ret;
}

void ftd_net_exit(void)
{
	unregister_pernet_subsys(&ftd_net_ops);
	/* Peers are freed with call_rcu: wait before the code and caches go away. */
	rcu_barrier();
	ftd_peer_caches_exit();
}
