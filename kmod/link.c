// SPDX-License-Identifier: GPL-2.0
#include <linux/netdevice.h>
#include <linux/inetdevice.h>
#include <net/addrconf.h>
#include "link.h"
#include "net.h"
#include "peer.h"
#include "event.h"

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

/* dev changed: report our rails on it whose state flipped. RTNL held. */
static void link_changed(struct net_device *dev, bool usable)
{
	struct ftd_net *fn = ftd_net(dev_net(dev));
	struct ftd_peer *self;
	struct ftd_event ev;
	u8 flip = 0;
	int i;

	if (!READ_ONCE(fn->up))
		return;
	rcu_read_lock();
	self = ftd_peer_find(fn, READ_ONCE(fn->cfg.node));
	if (self) {
		spin_lock_bh(&self->lock);
		for (i = 0; i < self->nrails; i++) {
			if (!rail_on_dev(fn->net, &self->rails[i].addr, dev))
				continue;
			if (!!(self->rails_down & BIT(i)) != !usable)
				flip |= BIT(i);
		}
		self->rails_down ^= flip;
		spin_unlock_bh(&self->lock);
	}
	rcu_read_unlock();

	for (i = 0; i < FTD_MAX_RAILS; i++) {
		if (!(flip & BIT(i)))
			continue;
		ev = ftd_event_new(usable ? FTD_EV_IFACE_RESTORED : FTD_EV_IFACE_DEAD);
		ev.node = fn->cfg.node;
		ev.incarnation = READ_ONCE(fn->incarnation);
		ev.origin = fn->cfg.node;
		ev.rail = i;
		ftd_event_emit(fn, &ev);
	}
}

static int link_event(struct notifier_block *nb, unsigned long event, void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);

	switch (event) {
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		/* Before GOING_DOWN removes addresses, NETDEV_DOWN still has them. */
		link_changed(dev, netif_running(dev) && netif_carrier_ok(dev));
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
}
