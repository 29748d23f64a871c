// SPDX-License-Identifier: GPL-2.0
/*
 * The RDMA client (rdma.h): a port event, or a device added or removed,
 * makes link.c look at every rail again. Port events come from ib_core's
 * workqueue; the new look takes RTNL, so it runs from link.c's own work.
 */
#include <linux/slab.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_cache.h>
#include "rdma.h"
#include "rdma_ud.h"
#include "link.h"

struct ftd_rdma_dev {
	struct ib_event_handler handler;
	struct list_head entry;		/* in devices */
};

/*
 * The devices our client holds, between its add and remove callbacks. A
 * device being unregistered has our remove called while it still has
 * references, so ib_device_get_by_netdev() can still find it: only one in
 * this list has an RDMA path.
 */
static LIST_HEAD(devices);
static DEFINE_MUTEX(devices_lock);

static struct ib_client ftd_rdma_client;

static void rdma_event(struct ib_event_handler *handler, struct ib_event *event)
{
	switch (event->event) {
	case IB_EVENT_PORT_ACTIVE:
	case IB_EVENT_PORT_ERR:
	case IB_EVENT_GID_CHANGE:
	case IB_EVENT_LID_CHANGE:
	case IB_EVENT_DEVICE_FATAL:
		ftd_link_recheck_soon();
		break;
	default:
		break;
	}
}

static int rdma_add(struct ib_device *ibdev)
{
	struct ftd_rdma_dev *d = kzalloc(sizeof(*d), GFP_KERNEL);

	if (!d)
		return -ENOMEM;
	INIT_IB_EVENT_HANDLER(&d->handler, ibdev, rdma_event);
	ib_register_event_handler(&d->handler);
	ib_set_client_data(ibdev, &ftd_rdma_client, d);
	mutex_lock(&devices_lock);
	list_add(&d->entry, &devices);
	mutex_unlock(&devices_lock);
	/* Its ports may be active already: rails on it are RDMA rails now. */
	ftd_link_recheck_soon();
	return 0;
}

static void rdma_remove(struct ib_device *ibdev, void *client_data)
{
	struct ftd_rdma_dev *d = client_data;

	mutex_lock(&devices_lock);
	list_del(&d->entry);
	mutex_unlock(&devices_lock);
	ib_unregister_event_handler(&d->handler);
	kfree(d);
#if IS_ENABLED(CONFIG_INFINIBAND_ADDR_TRANS)
	/* Before the connection manager's own removal, which waits for our ids. */
	ftd_ud_device_removed(ibdev);
#endif
	/* The RDMA path of the rails it carried is gone: they are down. */
	ftd_link_recheck_soon();
}

static struct ib_client ftd_rdma_client = {
	.name = "ftdetect",
	.add = rdma_add,
	.remove = rdma_remove,
};

/*
 * The port of ibdev whose GID table names dev (RoCE: one netdev per
 * port), or its only port; 0 if none.
 */
static u32 port_of(struct ib_device *ibdev, struct net_device *dev)
{
	u32 p;

	rdma_for_each_port(ibdev, p) {
		const struct ib_gid_attr *attr = rdma_get_gid_attr(ibdev, p, 0);
		struct net_device *nd;
		bool match;

		if (IS_ERR(attr))
			continue;
		rcu_read_lock();
		nd = rdma_read_gid_attr_ndev_rcu(attr);
		match = !IS_ERR(nd) && nd == dev;
		rcu_read_unlock();
		rdma_put_gid_attr(attr);
		if (match)
			return p;
	}
	return rdma_start_port(ibdev) == rdma_end_port(ibdev) ? rdma_start_port(ibdev) : 0;
}

static bool held(struct ib_device *ibdev)
{
	struct ftd_rdma_dev *d;
	bool found = false;

	mutex_lock(&devices_lock);
	list_for_each_entry(d, &devices, entry)
		found |= d->handler.device == ibdev;
	mutex_unlock(&devices_lock);
	return found;
}

void ftd_rdma_port_of(struct net_device *dev, struct ftd_rdma_port *rp)
{
	struct ib_device *ibdev = ib_device_get_by_netdev(dev, RDMA_DRIVER_UNKNOWN);
	enum ib_port_state st;

	ASSERT_RTNL();
	rp->state = FTD_RDMA_NONE;
	if (!ibdev)
		return;
	if (!held(ibdev)) {
		ib_device_put(ibdev);
		return;
	}
	strscpy(rp->device, dev_name(&ibdev->dev), sizeof(rp->device));
	rp->port = port_of(ibdev, dev);
	rp->state = rp->port && !ib_get_cached_port_state(ibdev, rp->port, &st) &&
		    st == IB_PORT_ACTIVE ? FTD_RDMA_ACTIVE : FTD_RDMA_DOWN;
	ib_device_put(ibdev);
}

int ftd_rdma_init(void)
{
	return ib_register_client(&ftd_rdma_client);
}

void ftd_rdma_exit(void)
{
	ib_unregister_client(&ftd_rdma_client);
}
