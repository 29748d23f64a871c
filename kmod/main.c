// SPDX-License-Identifier: GPL-2.0
/*
 * ftdetect: heartbeats emitted and timestamped in the kernel, independent of
 * whether the application makes progress, so that an MPI job learns within
 * milliseconds, and without false alarms, that a node or a rank is gone.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <net/genetlink.h>
#include "net.h"
#include "genl.h"
#include "chardev.h"
#include "link.h"
#include "rdma.h"
#include "outbox.h"

/*
 * RDMA events schedule link.c's work (an instance coming up, through genl,
 * its namespace's own, cancelled when the namespace goes): torn down in
 * reverse order, nothing can schedule the first once link.c cancels it.
 */
static int __init ftd_init(void)
{
	int ret;

	ret = ftd_outbox_init();
	if (ret)
		goto err_outbox;
	ret = ftd_net_init();
	if (ret)
		goto err_net;
	ret = ftd_link_init();
	if (ret)
		goto err_link;
	ret = ftd_rdma_init();
	if (ret)
		goto err_rdma;
	ret = ftd_genl_init();
	if (ret)
		goto err_genl;
	ret = ftd_chardev_init();
	if (ret)
		goto err_chardev;
	pr_info("loaded: wire v%d, event record v%d\n", FTD_WIRE_VERSION, FTD_EVENT_VERSION);
	return 0;

err_chardev:
	ftd_genl_exit();
err_genl:
	ftd_rdma_exit();
err_rdma:
	ftd_link_exit();
err_link:
	ftd_net_exit();
err_net:
	ftd_outbox_exit();
err_outbox:
	return ret;
}

static void __exit ftd_exit(void)
{
	ftd_chardev_exit();
	ftd_genl_exit();
	ftd_rdma_exit();
	ftd_link_exit();
	ftd_net_exit();
	ftd_outbox_exit();
}

module_init(ftd_init);
module_exit(ftd_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Kernel-level failure detector for MPI jobs");
MODULE_AUTHOR("ftdetect developers");
MODULE_VERSION("0.1");
MODULE_ALIAS_GENL_FAMILY(FTDETECT_GENL_NAME);
