// SPDX-License-Identifier: GPL-2.0
#include <linux/netdevice.h>
#include <linux/inetdevice.h>
#include <net/addrconf.h>
#include <net/arp.h>
#include <net/ndisc.h>
#include <net/net_namespace.h>
#include <linux/rtnetlink.h>
#include "link.h"
#include "net.h"
#include "peer.h"
#include "event.h"
#include "rdma.h"

static bool rail_on_dev(struct net *net, const union ftd_addr *a, struct net_device *dev)
{
	if (a->sa.sa_family == AF_INET)
		return __ip_dev_find(net, a->sin.sin_addr.s_addr, false) == dev;
#if IS_ENABLED(CONFIG_IPV6)
	if (a->sa.sa_family == AF_INET6)
		return ipv6_chk_addr(net, &a->sin6.sin6_addr, dev, 0);
#endif
	return false;
}

/*
 * A rail of ours has its carrier back. The kernel evicts a device's
 * neighbour entries when the carrier goes, but not those made while it was
 * gone: every heartbeat and probe we sent meanwhile left an unresolved
 * entry whose next solicitation is up to a second away (retrans_time),
 * with our frames queued behind it. Our observers, told we are back, would
 * time us out meanwhile, again after each fence (a node cut off and
 * reconnected was declared dead 4-7 times in a row). Evicted now, the next
 * frame solicits at once. RTNL held.
 */
static void forget_unresolved_neighbours(struct net_device *dev, u8 families)
{
	if (families & BIT(0))
		neigh_carrier_down(&arp_tbl, dev);
#if IS_ENABLED(CONFIG_IPV6)
	if (families & BIT(1))
		neigh_carrier_down(&nd_tbl, dev);
#endif
}

/*
 * Rail i of ours on dev, whose link is ip_usable and whose RDMA port is rp
 * (rails_rdma already noting whether one was ever found): usable? An RDMA
 * rail whose device went away has lost its path.
 */
static bool rail_usable(const struct ftd_net *fn, int i, bool ip_usable,
			const struct ftd_rdma_port *rp)
{
	return ip_usable && (rp->state == FTD_RDMA_ACTIVE ||
			     (rp->state == FTD_RDMA_NONE && !(fn->rails_rdma & BIT(i))));
}

/* What dumps show of rail i's RDMA port (FTDETECT_A_ADDR_RDMA). */
static void note_rdma(struct ftd_net *fn, int i, const struct ftd_rdma_port *rp)
{
	struct ftd_rdma_port *held = &fn->rdma[i];

	spin_lock(&fn->rdma_lock);	/* inside self->lock: bottom halves are off */
	if (rp->state != FTD_RDMA_NONE)
		*held = *rp;
	else if (fn->rails_rdma & BIT(i))
		held->state = FTD_RDMA_GONE;	/* its name stays: which one went */
	spin_unlock(&fn->rdma_lock);
}

static void log_rdma(struct ftd_net *fn, int i, struct net_device *dev, bool ip_usable,
		     const struct ftd_rdma_port *rp)
{
	if (!ip_usable || !(fn->rails_rdma & BIT(i)))
		return;
	if (rp->state == FTD_RDMA_NONE)
		pr_info("node %u: rail %d (%s): its RDMA device is gone: down\n",
			fn->cfg.node, i, netdev_name(dev));
	else
		pr_info("node %u: rail %d (%s): RDMA device %s port %u %s\n", fn->cfg.node, i,
			netdev_name(dev), rp->device, rp->port,
			rp->state == FTD_RDMA_ACTIVE ? "active: up" : "not active: down");
}

/* Does dev carry any of our rails? RTNL held. */
static bool rails_on_dev(struct ftd_net *fn, struct net_device *dev)
{
	struct ftd_peer *self;
	bool on = false;
	int i;

	rcu_read_lock();
	self = ftd_peer_find(fn, READ_ONCE(fn->cfg.node));
	for (i = 0; self && !on && i < self->nrails; i++)
		on = rail_on_dev(fn->net, &self->rails[i].addr, dev);
	rcu_read_unlock();
	return on;
}

/* dev or its RDMA port changed: report our rails on it whose state flipped. RTNL held. */
static void link_changed(struct net_device *dev)
{
	struct ftd_net *fn = ftd_net(dev_net(dev));
	bool ip_usable = netif_running(dev) && netif_carrier_ok(dev);
	u8 flip = 0, families = 0, restored = 0, down;
	struct ftd_rdma_port rp;
	struct ftd_peer *self;
	struct ftd_event ev;
	int i;

	ASSERT_RTNL();
	if (!READ_ONCE(fn->up))
		return;
	/* The common case, not one of our rails, costs no RDMA look-up. */
	if (!rails_on_dev(fn, dev))
		return;
	ftd_rdma_port_of(dev, &rp);	/* may sleep: outside RCU */
	rcu_read_lock();
	self = ftd_peer_find(fn, READ_ONCE(fn->cfg.node));
	if (self) {
		spin_lock_bh(&self->lock);
		for (i = 0; i < self->nrails; i++) {
			bool usable;

			if (!rail_on_dev(fn->net, &self->rails[i].addr, dev))
				continue;
			if (rp.state != FTD_RDMA_NONE)
				fn->rails_rdma |= BIT(i);
			usable = rail_usable(fn, i, ip_usable, &rp);
			note_rdma(fn, i, &rp);
			if (!!(fn->rails_unusable & BIT(i)) != !usable) {
				flip |= BIT(i);
				restored |= usable ? BIT(i) : 0;
				families |= self->rails[i].addr.sa.sa_family == AF_INET ?
					    BIT(0) : BIT(1);
				log_rdma(fn, i, dev, ip_usable, &rp);
			}
		}
		down = fn->rails_unusable ^ flip;
		WRITE_ONCE(fn->rails_unusable, down);
		/* What the status table and our dumps show of ourselves. */
		self->rails_down = (self->rails_down & ~flip) | (down & flip);
		spin_unlock_bh(&self->lock);
	}
	rcu_read_unlock();
	if (restored)
		forget_unresolved_neighbours(dev, families);

	for (i = 0; i < FTD_MAX_RAILS; i++) {
		if (!(flip & BIT(i)))
			continue;
		ev = ftd_event_new(restored & BIT(i) ? FTD_EV_IFACE_RESTORED : FTD_EV_IFACE_DEAD);
		ev.node = fn->cfg.node;
		ev.incarnation = READ_ONCE(fn->incarnation);
		ev.origin = fn->cfg.node;
		ev.rail = i;
		ftd_event_emit(fn, &ev);
	}
}

/* Every interface of every instance looked at again: an RDMA port event (rdma.c). */
static void recheck_all(struct work_struct *work)
{
	struct net_device *dev;
	struct net *net;

	rtnl_lock();
	down_read(&net_rwsem);
	for_each_net(net)
		if (READ_ONCE(ftd_net(net)->up))
			for_each_netdev(net, dev)
				link_changed(dev);
	up_read(&net_rwsem);
	rtnl_unlock();
}

static DECLARE_WORK(recheck_work, recheck_all);

void ftd_link_recheck_soon(void)
{
	schedule_work(&recheck_work);
}

/*
 * An instance just up, whose rails may be down already: its own interfaces
 * only (any user can bring an instance up in its own namespace; it must
 * not make RTNL walk everyone's).
 */
static void recheck_net(struct work_struct *work)
{
	struct ftd_net *fn = container_of(work, struct ftd_net, link_recheck);
	struct net_device *dev;

	rtnl_lock();
	if (READ_ONCE(fn->up))
		for_each_netdev(fn->net, dev)
			link_changed(dev);
	rtnl_unlock();
}

void ftd_link_net_init(struct ftd_net *fn)
{
	INIT_WORK(&fn->link_recheck, recheck_net);
}

void ftd_link_recheck_net(struct ftd_net *fn)
{
	schedule_work(&fn->link_recheck);
}

void ftd_link_net_exit(struct ftd_net *fn)
{
	cancel_work_sync(&fn->link_recheck);
}

static int link_event(struct notifier_block *nb, unsigned long event, void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);

	switch (event) {
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		/* Before GOING_DOWN removes addresses, NETDEV_DOWN still has them. */
		link_changed(dev);
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block ftd_link_nb = {
	.notifier_call = link_event,
};

int ftd_link_init(void)
{
	return register_netdevice_notifier(&ftd_link_nb);
}

void ftd_link_exit(void)
{
	unregister_netdevice_notifier(&ftd_link_nb);
	cancel_work_sync(&recheck_work);
}
