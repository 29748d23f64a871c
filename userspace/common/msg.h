/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Encoding and decoding of the "ftdetect" generic netlink messages, between
 * struct nl_msg and plain C structs. No socket I/O here (that is nl.c), so
 * every encoder and decoder is unit-tested with messages built in memory.
 *
 * Decoded structs carry a `present` bit mask: bit N is set when attribute N
 * (of that struct's attribute enum in <linux/ftdetect.h>) was in the message.
 * Test it with FTU_HAS(s, FTDETECT_A_...). Attributes this build does not
 * know are ignored, so a newer module still works with older tools.
 */
#ifndef FTU_MSG_H
#define FTU_MSG_H

#include <stdbool.h>
#include <stdint.h>

#include <netlink/msg.h>
#include <linux/ftdetect.h>

#include "common/addr.h"

#define FTU_BIT(attr) (UINT64_C(1) << (attr))
#define FTU_HAS(s, attr) (!!((s)->present & FTU_BIT(attr)))

/* The netlink types of the uapi's attribute lists (FTDETECT_*_SCALARS), as C types. */
typedef uint8_t ftu_u8;
typedef uint32_t ftu_u32;
typedef uint64_t ftu_u64;

/* GET_CONFIG reply (decoded) and SET_CONFIG request (encoded); FTDETECT_A_*. */
struct ftu_config {
	uint64_t present;
	uint32_t cluster;
	uint32_t node;
	uint16_t port;
	uint64_t period_ns;
	uint64_t timeout_ns;
	uint8_t observers;
	uint8_t quorum;
	uint8_t rdma_rails;		/* bit i: rail i's heartbeats over RDMA */
	uint8_t key[FTD_KEY_LEN];	/* write only: never in a reply */
	/* FTDETECT_A_KEYS_ACCEPTED: write only; n_accepted 0 clears them. */
	uint8_t accepted[FTD_KEYS_ACCEPTED_MAX][FTD_KEY_LEN];
	unsigned int n_accepted;
	bool up;
	uint32_t incarnation;		/* read only */
	uint64_t key_id;		/* read only: FTD_KEY_ID_INPUT */
	uint64_t accepted_ids[FTD_KEYS_ACCEPTED_MAX];	/* read only */
	unsigned int n_accepted_ids;
};

/* FTDETECT_A_ADDR_DELAY: the driver-to-module delay; bits FTDETECT_A_DELAY_*. */
struct ftu_delay {
	uint64_t present;
	uint64_t samples;
	uint64_t min_ns;
	uint64_t mean_ns;
	uint64_t max_ns;
	uint64_t hist[FTD_DELAY_BUCKETS];	/* with FTDETECT_A_DELAY_HIST */
};

/* FTDETECT_A_ADDR_RDMA: the RDMA port behind one of the local node's rails. */
struct ftu_rdma {
	char device[64];
	uint32_t port;
	uint8_t state;			/* enum ftd_rdma_state */
	bool heartbeats;		/* FTDETECT_A_RDMA_QPN present: heartbeats over RDMA */
	uint32_t qpn;			/* our queue pair there, 0: none yet */
};

/* One rail of a node; present bits are FTDETECT_A_ADDR_*. */
struct ftu_rail {
	uint64_t present;
	struct ftu_addr addr;
	/* FTDETECT_ADDR_SCALARS: stamp is an enum ftd_stamp_source. */
#define FTU_ADDR_FIELD(attr, name, type)	ftu_##type name;
	FTDETECT_ADDR_SCALARS(FTU_ADDR_FIELD)
#undef FTU_ADDR_FIELD
	struct ftu_delay delay;		/* with FTDETECT_A_ADDR_DELAY */
	struct ftu_rdma rdma;		/* with FTDETECT_A_ADDR_RDMA */
};

/* One FTDETECT_A_NODE nest; present bits are FTDETECT_A_NODE_*. */
struct ftu_node {
	uint64_t present;
	uint32_t id;
	unsigned int nr_rails;
	struct ftu_rail rails[FTD_MAX_RAILS];
	/* FTDETECT_NODE_SCALARS: state is an enum ftd_node_state. */
#define FTU_NODE_FIELD(attr, name, type)	ftu_##type name;
	FTDETECT_NODE_SCALARS(FTU_NODE_FIELD)
#undef FTU_NODE_FIELD
};

/* A latency histogram of the stats: FTDETECT_A_STATS_{DECLARED,TOLD}_{HIST,SUM_NS}. */
struct ftu_latency {
	uint64_t hist[FTD_LATENCY_BUCKETS];
	uint64_t sum_ns;
};

/* Samples in a latency histogram: the sum of its buckets. */
uint64_t ftu_latency_count(const struct ftu_latency *l);

/* FTDETECT_A_STATS nest; present bits are FTDETECT_A_STATS_*. */
struct ftu_stats {
	uint64_t present;
#define FTU_STATS_FIELD(attr, name, kind)	uint64_t name;
	FTDETECT_STATS_U64(FTU_STATS_FIELD)
#undef FTU_STATS_FIELD
	/*
	 * EVENTS_BY_TYPE: the types both this build and the module know;
	 * the others read 0 (an older module) or are dropped (a newer one).
	 */
	uint64_t events_by_type[__FTD_EV_MAX];
	/*
	 * DECLARED_* / TOLD_*: a histogram is present only with exactly
	 * FTD_LATENCY_BUCKETS buckets, which the uapi fixes; one of another
	 * length is ignored rather than misread, and the rest still parses.
	 */
	struct ftu_latency declared, told;
};

/*
 * Encoders append attributes to a message whose genl header is already
 * there; they return 0 or -ENOBUFS (message full) / -EINVAL (an address
 * family other than AF_INET/AF_INET6). They encode what they are given:
 * range checks are the module's (and the config parser's) job.
 */
int ftu_msg_put_config(struct nl_msg *msg, const struct ftu_config *cfg);
int ftu_msg_put_node(struct nl_msg *msg, uint32_t id,
		     const struct ftu_addr *addrs, unsigned int nr_addrs);
int ftu_msg_put_node_id(struct nl_msg *msg, uint32_t id);

/*
 * Decoders take one whole genl message of the family. They return 0, or
 * -EPROTO when the message is malformed or lacks a required attribute
 * (the node id, the event type), or when a node has more rails than
 * FTD_MAX_RAILS.
 */
int ftu_msg_parse_config(struct nl_msg *msg, struct ftu_config *cfg);
int ftu_msg_parse_node(struct nl_msg *msg, struct ftu_node *node);
int ftu_msg_parse_stats(struct nl_msg *msg, struct ftu_stats *st);

/*
 * Decode an FTDETECT_CMD_EVENT into the same record /dev/ftdetect returns.
 * Absent node, origin and rail read FTD_NODE_NONE / FTD_RAIL_NONE; other
 * absent fields read 0.
 */
int ftu_msg_parse_event(struct nl_msg *msg, struct ftd_event *ev);

/* The genl command of a message of the family (FTDETECT_CMD_*), or -1. */
int ftu_msg_cmd(struct nl_msg *msg);

#endif /* FTU_MSG_H */
