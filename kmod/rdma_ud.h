/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Heartbeats over RDMA (docs/rdma.md). On a rail of the config's RDMA rails
 * (FTDETECT_A_RDMA_RAILS), heartbeats go as unreliable datagrams on a
 * kernel UD queue pair of the RDMA port behind the rail's address, not over
 * UDP, so that a rail's liveness is measured on the path an MPI's RDMA
 * traffic takes (the HCA, its port, the fabric), not on the IP stack beside
 * it. The frames, their MAC, sequence and replay rules are those of UDP
 * (hb_rx.c reads both); the arrival time is when the module took the
 * receive completion (FTD_STAMP_RDMA). Notices still take UDP.
 *
 * Each RDMA rail has an endpoint: an RDMA connection manager id bound to
 * our address and the heartbeat port in the UDP port space, and the queue
 * pair made on it. A peer's queue pair is found through the connection
 * manager (SIDR: address and route resolved, then the peer's listener
 * answers with its queue pair number and Q_Key): a path per peer and rail,
 * resolved when we first send it a heartbeat, again when the peer's
 * incarnation changes (its restart made a new queue pair) or its rail
 * comes back up (its RDMA device may be a new one), and again at most once
 * per FTD_UD_RETRY_NS while it fails. Until a path is ready, no
 * heartbeat goes to that peer on that rail: its silence there is the
 * rail's, as the issue of an RDMA fabric should be.
 *
 * Kernels without the RDMA connection manager build without it; asking for
 * RDMA rails there fails at up.
 */
#ifndef FTD_RDMA_UD_H
#define FTD_RDMA_UD_H

#include "net.h"
#include "peer.h"

struct ib_device;
struct ftd_ud_ep;
struct ftd_ud_path;

/* Where a heartbeat goes: an endpoint and a ready path of it (RCU). */
struct ftd_ud_tx {
	struct ftd_ud_ep *ep;
	struct ftd_ud_path *path;
};

/* A path that failed or hangs is resolved again after this long. */
#define FTD_UD_RETRY_NS		(1000ULL * NSEC_PER_MSEC)

#if IS_ENABLED(CONFIG_INFINIBAND_ADDR_TRANS)
/* At up, with fn->lock held: the endpoints of fn->cfg.rdma_rails. */
int ftd_ud_start(struct ftd_net *fn, struct netlink_ext_ack *extack);
/* At down, with fn->lock held: everything freed, nothing runs after. */
void ftd_ud_stop(struct ftd_net *fn);
/*
 * Can a heartbeat go to peer on rail over RDMA? 0: yes, and *tx is where
 * it goes (for ftd_ud_send, inside the same rcu_read_lock section);
 * -EAGAIN: no path yet (one is asked for); -ENETDOWN: no endpoint on that
 * rail (asked for again once its retry is due). Under rcu_read_lock, any
 * context but hard irq.
 */
int ftd_ud_ready(struct ftd_net *fn, struct ftd_peer *peer, u8 rail, struct ftd_ud_tx *tx);
/* Send a heartbeat frame where ftd_ud_ready said; 0 or -errno. */
int ftd_ud_send(const struct ftd_ud_tx *tx, const u8 *frame, u32 len);
/* Our queue pair's number on rail, 0 if none. Any context. */
u32 ftd_ud_qpn(struct ftd_net *fn, u8 rail);
/* The RDMA client: ibdev goes away; every endpoint on it is freed first. */
void ftd_ud_device_removed(struct ib_device *ibdev);
#else
static inline int ftd_ud_start(struct ftd_net *fn, struct netlink_ext_ack *extack)
{
	if (!fn->cfg.rdma_rails)
		return 0;
	NL_SET_ERR_MSG_MOD(extack, "RDMA rails: this kernel has no RDMA connection manager");
	return -EOPNOTSUPP;
}

static inline void ftd_ud_stop(struct ftd_net *fn)
{
}

static inline int ftd_ud_ready(struct ftd_net *fn, struct ftd_peer *peer, u8 rail,
			       struct ftd_ud_tx *tx)
{
	return -ENETDOWN;
}

static inline int ftd_ud_send(const struct ftd_ud_tx *tx, const u8 *frame, u32 len)
{
	return -ENETDOWN;
}

static inline u32 ftd_ud_qpn(struct ftd_net *fn, u8 rail)
{
	return 0;
}

#endif

#endif
