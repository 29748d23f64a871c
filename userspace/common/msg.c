// SPDX-License-Identifier: GPL-2.0-only
/*
 * Encoders and decoders for the ftdetect generic netlink family; the layout
 * is the attribute tree in <linux/ftdetect.h>, section 4.
 *
 * Decoding goes through libnl policies, which check each attribute's length
 * before we read it. Fixed-size types get an exact length (minlen == maxlen):
 * a size mismatch means we disagree with the module about the uapi, and it
 * is better to say so than to read garbage. The module emits its u64s with
 * nla_put_u64_64bit(), which may insert *_PAD attributes for alignment; the
 * PAD types have an NLA_UNSPEC policy entry and are simply never read.
 */
#include "common/msg.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#define U8	{ .type = NLA_U8, .minlen = 1, .maxlen = 1 }
#define U16	{ .type = NLA_U16, .minlen = 2, .maxlen = 2 }
#define U32	{ .type = NLA_U32, .minlen = 4, .maxlen = 4 }
#define U64	{ .type = NLA_U64, .minlen = 8, .maxlen = 8 }
#define NEST	{ .type = NLA_NESTED }
/* By the type names of the uapi's attribute lists (FTDETECT_NODE_SCALARS). */
#define POLICY_u8	U8
#define POLICY_u32	U32
#define POLICY_u64	U64
#define BIN(n)	{ .type = NLA_UNSPEC, .minlen = (n), .maxlen = (n) }

static const struct nla_policy top_policy[FTDETECT_A_MAX + 1] = {
	[FTDETECT_A_CLUSTER_ID]		= U32,
	[FTDETECT_A_LOCAL_NODE]		= U32,
	[FTDETECT_A_PORT]		= U16,
	[FTDETECT_A_PERIOD_NS]		= U64,
	[FTDETECT_A_TIMEOUT_NS]		= U64,
	[FTDETECT_A_KEY]		= BIN(FTD_KEY_LEN),
	[FTDETECT_A_KEYS_ACCEPTED]	= { .type = NLA_UNSPEC,
					    .maxlen = FTD_KEYS_ACCEPTED_MAX * FTD_KEY_LEN },
	[FTDETECT_A_KEY_ID]		= U64,
	[FTDETECT_A_KEYS_ACCEPTED_IDS]	= { .type = NLA_UNSPEC,
					    .maxlen = FTD_KEYS_ACCEPTED_MAX * sizeof(uint64_t) },
	[FTDETECT_A_UP]			= U8,
	[FTDETECT_A_RDMA_RAILS]		= U8,
	[FTDETECT_A_INCARNATION]	= U32,
	[FTDETECT_A_NODE]		= NEST,
	[FTDETECT_A_STATS]		= NEST,
	[FTDETECT_A_EVENT]		= NEST,
};

static const struct nla_policy node_policy[FTDETECT_A_NODE_MAX + 1] = {
	[FTDETECT_A_NODE_ID]		= U32,
	[FTDETECT_A_NODE_ADDRS]		= NEST,
#define NODE_POLICY(attr, name, type)	[FTDETECT_A_NODE_##attr] = POLICY_##type,
	FTDETECT_NODE_SCALARS(NODE_POLICY)
#undef NODE_POLICY
};

static const struct nla_policy addr_policy[FTDETECT_A_ADDR_MAX + 1] = {
	[FTDETECT_A_ADDR_INET]		= BIN(4),	/* __be32: not a host-order u32 */
	[FTDETECT_A_ADDR_INET6]		= BIN(16),
#define ADDR_POLICY(attr, name, type)	[FTDETECT_A_ADDR_##attr] = POLICY_##type,
	FTDETECT_ADDR_SCALARS(ADDR_POLICY)
#undef ADDR_POLICY
	[FTDETECT_A_ADDR_DELAY]		= NEST,
	[FTDETECT_A_ADDR_RDMA]		= NEST,
};

static const struct nla_policy rdma_policy[FTDETECT_A_RDMA_MAX + 1] = {
	[FTDETECT_A_RDMA_DEVICE]	= { .type = NLA_STRING, .maxlen = 64 },
	[FTDETECT_A_RDMA_PORT]		= U32,
	[FTDETECT_A_RDMA_STATE]		= U8,
	[FTDETECT_A_RDMA_QPN]		= U32,
};

static const struct nla_policy delay_policy[FTDETECT_A_DELAY_MAX + 1] = {
	[FTDETECT_A_DELAY_SAMPLES]	= U64,
	[FTDETECT_A_DELAY_MIN_NS]	= U64,
	[FTDETECT_A_DELAY_MEAN_NS]	= U64,
	[FTDETECT_A_DELAY_MAX_NS]	= U64,
	[FTDETECT_A_DELAY_HIST]		= BIN(FTD_DELAY_BUCKETS * 8),
};

static const struct nla_policy stats_policy[FTDETECT_A_STATS_MAX + 1] = {
#define STATS_POLICY(attr, name, kind)	[FTDETECT_A_STATS_##attr] = U64,
	FTDETECT_STATS_U64(STATS_POLICY)
#undef STATS_POLICY
	/* Arrays of any length: checked where they are copied. */
	[FTDETECT_A_STATS_EVENTS_BY_TYPE] = { .type = NLA_UNSPEC },
	[FTDETECT_A_STATS_DECLARED_HIST] = { .type = NLA_UNSPEC },
	[FTDETECT_A_STATS_DECLARED_SUM_NS] = U64,
	[FTDETECT_A_STATS_TOLD_HIST]	= { .type = NLA_UNSPEC },
	[FTDETECT_A_STATS_TOLD_SUM_NS]	= U64,
};

static const struct nla_policy event_policy[FTDETECT_A_EVENT_MAX + 1] = {
	[FTDETECT_A_EVENT_TYPE]		= U16,
	[FTDETECT_A_EVENT_SEQ]		= U64,
	[FTDETECT_A_EVENT_TIME_NS]	= U64,
	[FTDETECT_A_EVENT_MONO_NS]	= U64,
	[FTDETECT_A_EVENT_NODE]		= U32,
	[FTDETECT_A_EVENT_INCARNATION]	= U32,
	[FTDETECT_A_EVENT_RAIL]		= U32,
	[FTDETECT_A_EVENT_ORIGIN]	= U32,
	[FTDETECT_A_EVENT_JOB]		= U32,
	[FTDETECT_A_EVENT_RANK]		= U32,
	[FTDETECT_A_EVENT_COUNT]	= U32,
	[FTDETECT_A_EVENT_UID]		= U32,
};

/*
 * Start a nest with NLA_F_NESTED set explicitly: the module validates
 * strictly, and strict validation rejects a nest without the flag. Older
 * libnl versions do not set it in nla_nest_start().
 */
static struct nlattr *nest_start(struct nl_msg *msg, int type)
{
	return nla_nest_start(msg, type | NLA_F_NESTED);
}

int ftu_msg_put_config(struct nl_msg *msg, const struct ftu_config *cfg)
{
	uint64_t p = cfg->present;

	if ((p & FTU_BIT(FTDETECT_A_CLUSTER_ID) &&
	     nla_put_u32(msg, FTDETECT_A_CLUSTER_ID, cfg->cluster) < 0) ||
	    (p & FTU_BIT(FTDETECT_A_LOCAL_NODE) &&
	     nla_put_u32(msg, FTDETECT_A_LOCAL_NODE, cfg->node) < 0) ||
	    (p & FTU_BIT(FTDETECT_A_PORT) &&
	     nla_put_u16(msg, FTDETECT_A_PORT, cfg->port) < 0) ||
	    (p & FTU_BIT(FTDETECT_A_PERIOD_NS) &&
	     nla_put_u64(msg, FTDETECT_A_PERIOD_NS, cfg->period_ns) < 0) ||
	    (p & FTU_BIT(FTDETECT_A_TIMEOUT_NS) &&
	     nla_put_u64(msg, FTDETECT_A_TIMEOUT_NS, cfg->timeout_ns) < 0) ||
	    (p & FTU_BIT(FTDETECT_A_KEY) &&
	     nla_put(msg, FTDETECT_A_KEY, FTD_KEY_LEN, cfg->key) < 0) ||
	    (p & FTU_BIT(FTDETECT_A_KEYS_ACCEPTED) &&
	     (cfg->n_accepted > FTD_KEYS_ACCEPTED_MAX ||
	      nla_put(msg, FTDETECT_A_KEYS_ACCEPTED, (int)(cfg->n_accepted * FTD_KEY_LEN),
		      cfg->accepted) < 0)) ||
	    (p & FTU_BIT(FTDETECT_A_OBSERVERS) &&
	     nla_put_u8(msg, FTDETECT_A_OBSERVERS, cfg->observers) < 0) ||
	    (p & FTU_BIT(FTDETECT_A_QUORUM) &&
	     nla_put_u8(msg, FTDETECT_A_QUORUM, cfg->quorum) < 0) ||
	    (p & FTU_BIT(FTDETECT_A_RDMA_RAILS) &&
	     nla_put_u8(msg, FTDETECT_A_RDMA_RAILS, cfg->rdma_rails) < 0) ||
	    (p & FTU_BIT(FTDETECT_A_UP) &&
	     nla_put_u8(msg, FTDETECT_A_UP, cfg->up) < 0))
		return -ENOBUFS;
	return 0;
}

static int put_addr(struct nl_msg *msg, const struct ftu_addr *a)
{
	struct nlattr *nest = nest_start(msg, FTDETECT_A_ADDR);
	int err;

	if (!nest)
		return -ENOBUFS;
	if (a->family == AF_INET)
		/* s_addr is already in network byte order, as the __be32 wants. */
		err = nla_put(msg, FTDETECT_A_ADDR_INET, 4, &a->in.s_addr);
	else
		err = nla_put(msg, FTDETECT_A_ADDR_INET6, 16, &a->in6);
	if (err < 0)
		return -ENOBUFS;
	return nla_nest_end(msg, nest) < 0 ? -ENOBUFS : 0;
}

int ftu_msg_put_node(struct nl_msg *msg, uint32_t id,
		     const struct ftu_addr *addrs, unsigned int nr_addrs)
{
	struct nlattr *node, *list;

	/*
	 * No limit on the count here: the module enforces the uapi's (1 to
	 * FTD_MAX_RAILS addresses), and its tests must be able to send what
	 * it has to refuse. ftctl's config parser applies the limits first.
	 */
	for (unsigned int i = 0; i < nr_addrs; i++)
		if (addrs[i].family != AF_INET && addrs[i].family != AF_INET6)
			return -EINVAL;

	node = nest_start(msg, FTDETECT_A_NODE);
	if (!node || nla_put_u32(msg, FTDETECT_A_NODE_ID, id) < 0)
		return -ENOBUFS;
	list = nest_start(msg, FTDETECT_A_NODE_ADDRS);
	if (!list)
		return -ENOBUFS;
	for (unsigned int i = 0; i < nr_addrs; i++)
		if (put_addr(msg, &addrs[i]) < 0)
			return -ENOBUFS;
	/* keep_empty: zero addresses is sent as an empty ADDRS, not as none. */
	if (nla_nest_end_keep_empty(msg, list) < 0 || nla_nest_end(msg, node) < 0)
		return -ENOBUFS;
	return 0;
}

int ftu_msg_put_node_id(struct nl_msg *msg, uint32_t id)
{
	struct nlattr *node = nest_start(msg, FTDETECT_A_NODE);

	if (!node || nla_put_u32(msg, FTDETECT_A_NODE_ID, id) < 0 ||
	    nla_nest_end(msg, node) < 0)
		return -ENOBUFS;
	return 0;
}

int ftu_msg_cmd(struct nl_msg *msg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);

	if (!genlmsg_valid_hdr(nlh, 0))
		return -1;
	return genlmsg_hdr(nlh)->cmd;
}

/* Parse the top level of a genl message of the family. */
static int parse_top(struct nl_msg *msg, struct nlattr **tb)
{
	return genlmsg_parse(nlmsg_hdr(msg), 0, tb, FTDETECT_A_MAX, top_policy) < 0 ? -EPROTO : 0;
}

/* Parse the nest `type` of the top level; -EPROTO if absent or malformed. */
static int parse_top_nest(struct nl_msg *msg, int type, struct nlattr **tb,
			  int maxtype, const struct nla_policy *policy)
{
	struct nlattr *top[FTDETECT_A_MAX + 1];

	if (parse_top(msg, top) || !top[type] ||
	    nla_parse_nested(tb, maxtype, top[type], policy) < 0)
		return -EPROTO;
	return 0;
}

int ftu_msg_parse_config(struct nl_msg *msg, struct ftu_config *cfg)
{
	struct nlattr *tb[FTDETECT_A_MAX + 1];

	memset(cfg, 0, sizeof(*cfg));
	if (parse_top(msg, tb))
		return -EPROTO;
	for (int i = 0; i <= FTDETECT_A_MAX; i++)
		if (tb[i] && i != FTDETECT_A_PAD)
			cfg->present |= FTU_BIT(i);
	if (tb[FTDETECT_A_CLUSTER_ID])
		cfg->cluster = nla_get_u32(tb[FTDETECT_A_CLUSTER_ID]);
	if (tb[FTDETECT_A_LOCAL_NODE])
		cfg->node = nla_get_u32(tb[FTDETECT_A_LOCAL_NODE]);
	if (tb[FTDETECT_A_PORT])
		cfg->port = nla_get_u16(tb[FTDETECT_A_PORT]);
	if (tb[FTDETECT_A_PERIOD_NS])
		cfg->period_ns = nla_get_u64(tb[FTDETECT_A_PERIOD_NS]);
	if (tb[FTDETECT_A_TIMEOUT_NS])
		cfg->timeout_ns = nla_get_u64(tb[FTDETECT_A_TIMEOUT_NS]);
	if (tb[FTDETECT_A_KEY])
		nla_memcpy(cfg->key, tb[FTDETECT_A_KEY], FTD_KEY_LEN);
	if (tb[FTDETECT_A_UP])
		cfg->up = nla_get_u8(tb[FTDETECT_A_UP]) != 0;
	if (tb[FTDETECT_A_INCARNATION])
		cfg->incarnation = nla_get_u32(tb[FTDETECT_A_INCARNATION]);
	if (tb[FTDETECT_A_OBSERVERS])
		cfg->observers = nla_get_u8(tb[FTDETECT_A_OBSERVERS]);
	if (tb[FTDETECT_A_QUORUM])
		cfg->quorum = nla_get_u8(tb[FTDETECT_A_QUORUM]);
	if (tb[FTDETECT_A_RDMA_RAILS])
		cfg->rdma_rails = nla_get_u8(tb[FTDETECT_A_RDMA_RAILS]);
	if (tb[FTDETECT_A_KEY_ID])
		cfg->key_id = nla_get_u64(tb[FTDETECT_A_KEY_ID]);
	if (tb[FTDETECT_A_KEYS_ACCEPTED_IDS]) {
		int len = nla_len(tb[FTDETECT_A_KEYS_ACCEPTED_IDS]);

		if (len % sizeof(uint64_t))
			return -EPROTO;
		cfg->n_accepted_ids = (unsigned int)(len / sizeof(uint64_t));
		memcpy(cfg->accepted_ids, nla_data(tb[FTDETECT_A_KEYS_ACCEPTED_IDS]), len);
	}
	return 0;
}

/* An attribute of tb, its bit set in present; 0 if absent. */
static uint64_t get_u64(struct nlattr **tb, int type, uint64_t *present)
{
	if (!tb[type])
		return 0;
	*present |= FTU_BIT(type);
	return nla_get_u64(tb[type]);
}

static uint32_t get_u32(struct nlattr **tb, int type, uint64_t *present)
{
	if (!tb[type])
		return 0;
	*present |= FTU_BIT(type);
	return nla_get_u32(tb[type]);
}

static uint8_t get_u8(struct nlattr **tb, int type, uint64_t *present)
{
	if (!tb[type])
		return 0;
	*present |= FTU_BIT(type);
	return nla_get_u8(tb[type]);
}

static int parse_delay(struct nlattr *nest, struct ftu_delay *d)
{
	struct nlattr *tb[FTDETECT_A_DELAY_MAX + 1];

	memset(d, 0, sizeof(*d));
	if (nla_parse_nested(tb, FTDETECT_A_DELAY_MAX, nest, delay_policy) < 0)
		return -EPROTO;
	d->samples = get_u64(tb, FTDETECT_A_DELAY_SAMPLES, &d->present);
	d->min_ns = get_u64(tb, FTDETECT_A_DELAY_MIN_NS, &d->present);
	d->mean_ns = get_u64(tb, FTDETECT_A_DELAY_MEAN_NS, &d->present);
	d->max_ns = get_u64(tb, FTDETECT_A_DELAY_MAX_NS, &d->present);
	if (tb[FTDETECT_A_DELAY_HIST]) {
		/* The module's native-endian __u64 array; it may sit unaligned. */
		nla_memcpy(d->hist, tb[FTDETECT_A_DELAY_HIST], sizeof(d->hist));
		d->present |= FTU_BIT(FTDETECT_A_DELAY_HIST);
	}
	return 0;
}

static int parse_rdma(struct nlattr *nest, struct ftu_rdma *rd)
{
	struct nlattr *tb[FTDETECT_A_RDMA_MAX + 1];

	if (nla_parse_nested(tb, FTDETECT_A_RDMA_MAX, nest, rdma_policy) < 0 ||
	    !tb[FTDETECT_A_RDMA_DEVICE] || !tb[FTDETECT_A_RDMA_STATE])
		return -EPROTO;
	nla_strlcpy(rd->device, tb[FTDETECT_A_RDMA_DEVICE], sizeof(rd->device));
	rd->port = tb[FTDETECT_A_RDMA_PORT] ? nla_get_u32(tb[FTDETECT_A_RDMA_PORT]) : 0;
	rd->state = nla_get_u8(tb[FTDETECT_A_RDMA_STATE]);
	rd->heartbeats = tb[FTDETECT_A_RDMA_QPN] != NULL;
	rd->qpn = rd->heartbeats ? nla_get_u32(tb[FTDETECT_A_RDMA_QPN]) : 0;
	return 0;
}

static int parse_rail(struct nlattr *nest, struct ftu_rail *r)
{
	struct nlattr *tb[FTDETECT_A_ADDR_MAX + 1];

	memset(r, 0, sizeof(*r));
	if (nla_parse_nested(tb, FTDETECT_A_ADDR_MAX, nest, addr_policy) < 0)
		return -EPROTO;
	/* Exactly one of INET / INET6, as the header says. */
	if (!!tb[FTDETECT_A_ADDR_INET] == !!tb[FTDETECT_A_ADDR_INET6])
		return -EPROTO;
	if (tb[FTDETECT_A_ADDR_INET]) {
		r->addr.family = AF_INET;
		nla_memcpy(&r->addr.in, tb[FTDETECT_A_ADDR_INET], 4);
		r->present |= FTU_BIT(FTDETECT_A_ADDR_INET);
	} else {
		r->addr.family = AF_INET6;
		nla_memcpy(&r->addr.in6, tb[FTDETECT_A_ADDR_INET6], 16);
		r->present |= FTU_BIT(FTDETECT_A_ADDR_INET6);
	}
#define ADDR_GET(attr, name, type)	\
	r->name = get_##type(tb, FTDETECT_A_ADDR_##attr, &r->present);
	FTDETECT_ADDR_SCALARS(ADDR_GET)
#undef ADDR_GET
	if (tb[FTDETECT_A_ADDR_DELAY]) {
		if (parse_delay(tb[FTDETECT_A_ADDR_DELAY], &r->delay))
			return -EPROTO;
		r->present |= FTU_BIT(FTDETECT_A_ADDR_DELAY);
	}
	if (tb[FTDETECT_A_ADDR_RDMA]) {
		if (parse_rdma(tb[FTDETECT_A_ADDR_RDMA], &r->rdma))
			return -EPROTO;
		r->present |= FTU_BIT(FTDETECT_A_ADDR_RDMA);
	}
	return 0;
}

int ftu_msg_parse_node(struct nl_msg *msg, struct ftu_node *n)
{
	struct nlattr *tb[FTDETECT_A_NODE_MAX + 1], *pos;
	int rem;

	memset(n, 0, sizeof(*n));
	if (parse_top_nest(msg, FTDETECT_A_NODE, tb, FTDETECT_A_NODE_MAX, node_policy) ||
	    !tb[FTDETECT_A_NODE_ID])
		return -EPROTO;
	n->id = nla_get_u32(tb[FTDETECT_A_NODE_ID]);
	n->present |= FTU_BIT(FTDETECT_A_NODE_ID);

	if (tb[FTDETECT_A_NODE_ADDRS]) {
		n->present |= FTU_BIT(FTDETECT_A_NODE_ADDRS);
		nla_for_each_nested(pos, tb[FTDETECT_A_NODE_ADDRS], rem) {
			if (nla_type(pos) != FTDETECT_A_ADDR)
				continue;
			if (n->nr_rails == FTD_MAX_RAILS ||
			    parse_rail(pos, &n->rails[n->nr_rails]))
				return -EPROTO;
			n->nr_rails++;
		}
	}
#define NODE_GET(attr, name, type)	\
	n->name = get_##type(tb, FTDETECT_A_NODE_##attr, &n->present);
	FTDETECT_NODE_SCALARS(NODE_GET)
#undef NODE_GET
	return 0;
}

/* Each attribute a bit of `present`. */
_Static_assert(FTDETECT_A_STATS_MAX < 64, "struct ftu_stats.present needs more bits");

/* A latency histogram and its sum; the histogram only at the uapi's length. */
static void get_latency(struct nlattr **tb, int hist, int sum, struct ftu_latency *l,
			uint64_t *present)
{
	if (tb[hist] && nla_len(tb[hist]) == sizeof(l->hist)) {
		/* The module's native-endian __u64 array; it may sit unaligned. */
		memcpy(l->hist, nla_data(tb[hist]), sizeof(l->hist));
		*present |= FTU_BIT(hist);
	}
	l->sum_ns = get_u64(tb, sum, present);
}

int ftu_msg_parse_stats(struct nl_msg *msg, struct ftu_stats *st)
{
	struct nlattr *tb[FTDETECT_A_STATS_MAX + 1];

	memset(st, 0, sizeof(*st));
	if (parse_top_nest(msg, FTDETECT_A_STATS, tb, FTDETECT_A_STATS_MAX, stats_policy))
		return -EPROTO;
#define STATS_GET(attr, name, kind)	st->name = get_u64(tb, FTDETECT_A_STATS_##attr, &st->present);
	FTDETECT_STATS_U64(STATS_GET)
#undef STATS_GET
	if (tb[FTDETECT_A_STATS_EVENTS_BY_TYPE]) {
		struct nlattr *a = tb[FTDETECT_A_STATS_EVENTS_BY_TYPE];
		size_t n = (size_t)nla_len(a) / sizeof(uint64_t);

		/* Whole counters only, as many as both sides know; memset zeroed the rest. */
		if (n > sizeof(st->events_by_type) / sizeof(st->events_by_type[0]))
			n = sizeof(st->events_by_type) / sizeof(st->events_by_type[0]);
		memcpy(st->events_by_type, nla_data(a), n * sizeof(uint64_t));
		st->present |= FTU_BIT(FTDETECT_A_STATS_EVENTS_BY_TYPE);
	}
	get_latency(tb, FTDETECT_A_STATS_DECLARED_HIST, FTDETECT_A_STATS_DECLARED_SUM_NS,
		    &st->declared, &st->present);
	get_latency(tb, FTDETECT_A_STATS_TOLD_HIST, FTDETECT_A_STATS_TOLD_SUM_NS, &st->told,
		    &st->present);
	return 0;
}

uint64_t ftu_latency_count(const struct ftu_latency *l)
{
	uint64_t n = 0;

	for (unsigned int b = 0; b < FTD_LATENCY_BUCKETS; b++)
		n += l->hist[b];
	return n;
}

static uint32_t get_u32_or(struct nlattr **tb, int type, uint32_t dflt)
{
	return tb[type] ? nla_get_u32(tb[type]) : dflt;
}

int ftu_msg_parse_event(struct nl_msg *msg, struct ftd_event *ev)
{
	struct nlattr *tb[FTDETECT_A_EVENT_MAX + 1];
	uint64_t unused = 0;

	memset(ev, 0, sizeof(*ev));
	if (parse_top_nest(msg, FTDETECT_A_EVENT, tb, FTDETECT_A_EVENT_MAX, event_policy) ||
	    !tb[FTDETECT_A_EVENT_TYPE])
		return -EPROTO;
	ev->version = FTD_EVENT_VERSION;
	ev->size = sizeof(*ev);
	ev->type = nla_get_u16(tb[FTDETECT_A_EVENT_TYPE]);
	ev->seq = get_u64(tb, FTDETECT_A_EVENT_SEQ, &unused);
	ev->time_ns = get_u64(tb, FTDETECT_A_EVENT_TIME_NS, &unused);
	ev->mono_ns = get_u64(tb, FTDETECT_A_EVENT_MONO_NS, &unused);
	ev->node = get_u32_or(tb, FTDETECT_A_EVENT_NODE, FTD_NODE_NONE);
	ev->incarnation = get_u32_or(tb, FTDETECT_A_EVENT_INCARNATION, 0);
	ev->rail = get_u32_or(tb, FTDETECT_A_EVENT_RAIL, FTD_RAIL_NONE);
	ev->origin = get_u32_or(tb, FTDETECT_A_EVENT_ORIGIN, FTD_NODE_NONE);
	ev->job = get_u32_or(tb, FTDETECT_A_EVENT_JOB, 0);
	ev->rank = get_u32_or(tb, FTDETECT_A_EVENT_RANK, 0);
	ev->count = get_u32_or(tb, FTDETECT_A_EVENT_COUNT, 0);
	ev->uid = get_u32_or(tb, FTDETECT_A_EVENT_UID, FTD_UID_NONE);
	return 0;
}
