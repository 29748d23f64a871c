// SPDX-License-Identifier: GPL-2.0
#include <net/genetlink.h>
#include <net/ipv6.h>
#include <linux/ktime.h>
#include "genl.h"
#include "peer.h"
#include "members.h"
#include "bounds.h"
#include "majority.h"
#include "keys.h"
#include "rdma_ud.h"

static struct genl_family ftd_genl_family;

enum { FTD_MCGRP_EVENTS_ID };

static const struct genl_multicast_group ftd_mcgrps[] = {
	[FTD_MCGRP_EVENTS_ID] = { .name = FTDETECT_MCGRP_EVENTS },
};

/* ------------------------------------------------------------------ policy */

/* 6.1's policy macros take these as non-const pointers. */
static struct netlink_range_validation node_id_range = {
	.max = FTD_NODE_NONE - 1,
};
static struct netlink_range_validation period_range = {
	.min = FTD_MIN_PERIOD_NS,
	.max = FTD_MAX_PERIOD_NS,
};
static struct netlink_range_validation timeout_range = {
	.min = 2 * FTD_MIN_PERIOD_NS,
	.max = FTD_MAX_TIMEOUT_NS,
};

/* Attributes the kernel only reports are refused on input. */
static const struct nla_policy addr_policy[FTDETECT_A_ADDR_MAX + 1] = {
	[FTDETECT_A_ADDR_INET] = { .type = NLA_BE32 },
	[FTDETECT_A_ADDR_INET6] = NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
	[FTDETECT_A_ADDR_RX] = { .type = NLA_REJECT },
	[FTDETECT_A_ADDR_LOST] = { .type = NLA_REJECT },
	[FTDETECT_A_ADDR_AGE_NS] = { .type = NLA_REJECT },
	[FTDETECT_A_ADDR_STAMP] = { .type = NLA_REJECT },
	[FTDETECT_A_ADDR_DELAY] = { .type = NLA_REJECT },
	[FTDETECT_A_ADDR_RDMA] = { .type = NLA_REJECT },
};

static const struct nla_policy addrs_policy[FTDETECT_A_ADDRS_MAX + 1] = {
	[FTDETECT_A_ADDR] = NLA_POLICY_NESTED(addr_policy),
};

static const struct nla_policy node_policy[FTDETECT_A_NODE_MAX + 1] = {
	[FTDETECT_A_NODE_ID] = NLA_POLICY_FULL_RANGE(NLA_U32, &node_id_range),
	[FTDETECT_A_NODE_ADDRS] = NLA_POLICY_NESTED(addrs_policy),
	[FTDETECT_A_NODE_STATE] = { .type = NLA_REJECT },
	[FTDETECT_A_NODE_INCARNATION] = { .type = NLA_REJECT },
	[FTDETECT_A_NODE_AGE_NS] = { .type = NLA_REJECT },
	[FTDETECT_A_NODE_RX] = { .type = NLA_REJECT },
	[FTDETECT_A_NODE_LOST] = { .type = NLA_REJECT },
	[FTDETECT_A_NODE_IAT_MEAN_NS] = { .type = NLA_REJECT },
	[FTDETECT_A_NODE_IAT_JITTER_NS] = { .type = NLA_REJECT },
	[FTDETECT_A_NODE_TX] = { .type = NLA_REJECT },
	[FTDETECT_A_NODE_IAT_MAX_NS] = { .type = NLA_REJECT },
};

static const struct nla_policy ftd_policy[FTDETECT_A_MAX + 1] = {
	[FTDETECT_A_CLUSTER_ID] = { .type = NLA_U32 },
	[FTDETECT_A_LOCAL_NODE] = NLA_POLICY_FULL_RANGE(NLA_U32, &node_id_range),
	[FTDETECT_A_PORT] = NLA_POLICY_MIN(NLA_U16, 1),
	[FTDETECT_A_PERIOD_NS] = NLA_POLICY_FULL_RANGE(NLA_U64, &period_range),
	[FTDETECT_A_TIMEOUT_NS] = NLA_POLICY_FULL_RANGE(NLA_U64, &timeout_range),
	[FTDETECT_A_KEY] = NLA_POLICY_EXACT_LEN(FTD_KEY_LEN),
	/* A whole number of keys: checked in ftd_set_config(). */
	[FTDETECT_A_KEYS_ACCEPTED] = { .type = NLA_BINARY,
				       .len = FTD_KEYS_ACCEPTED_MAX * FTD_KEY_LEN },
	[FTDETECT_A_KEY_ID] = { .type = NLA_REJECT },
	[FTDETECT_A_KEYS_ACCEPTED_IDS] = { .type = NLA_REJECT },
	[FTDETECT_A_UP] = NLA_POLICY_MAX(NLA_U8, 1),
	[FTDETECT_A_OBSERVERS] = NLA_POLICY_RANGE(NLA_U8, 1, FTD_MAX_OBSERVERS),
	[FTDETECT_A_QUORUM] = NLA_POLICY_RANGE(NLA_U8, 1, FTD_MAX_OBSERVERS),
	[FTDETECT_A_RDMA_RAILS] = NLA_POLICY_MASK(NLA_U8, BIT(FTD_MAX_RAILS) - 1),
	[FTDETECT_A_INCARNATION] = { .type = NLA_REJECT },
	[FTDETECT_A_NODE] = NLA_POLICY_NESTED(node_policy),
	[FTDETECT_A_STATS] = { .type = NLA_REJECT },
	[FTDETECT_A_EVENT] = { .type = NLA_REJECT },
};

static struct ftd_net *info_fn(struct genl_info *info)
{
	return ftd_net(genl_info_net(info));
}

/* ------------------------------------------------------------------ config */

static int fill_key_ids(struct sk_buff *skb, const struct ftd_keyring *keys)
{
	if (nla_put_u64_64bit(skb, FTDETECT_A_KEY_ID, keys->id[0], FTDETECT_A_PAD))
		return -EMSGSIZE;
	if (keys->n > 1 && nla_put(skb, FTDETECT_A_KEYS_ACCEPTED_IDS,
				   (keys->n - 1) * sizeof(keys->id[0]), &keys->id[1]))
		return -EMSGSIZE;
	return 0;
}

static int fill_config(struct sk_buff *skb, struct ftd_net *fn)
{
	lockdep_assert_held(&fn->lock);
	if (fill_key_ids(skb, ftd_keys_locked(fn)) ||
	    nla_put_u32(skb, FTDETECT_A_CLUSTER_ID, fn->cfg.cluster) ||
	    nla_put_u32(skb, FTDETECT_A_LOCAL_NODE, fn->cfg.node) ||
	    nla_put_u16(skb, FTDETECT_A_PORT, fn->cfg.port) ||
	    nla_put_u64_64bit(skb, FTDETECT_A_PERIOD_NS, fn->cfg.period_ns, FTDETECT_A_PAD) ||
	    nla_put_u64_64bit(skb, FTDETECT_A_TIMEOUT_NS, fn->cfg.timeout_ns, FTDETECT_A_PAD) ||
	    nla_put_u8(skb, FTDETECT_A_UP, fn->up) ||
	    nla_put_u8(skb, FTDETECT_A_OBSERVERS, fn->cfg.observers) ||
	    nla_put_u8(skb, FTDETECT_A_QUORUM, fn->cfg.quorum) ||
	    nla_put_u8(skb, FTDETECT_A_RDMA_RAILS, fn->cfg.rdma_rails) ||
	    nla_put_u32(skb, FTDETECT_A_INCARNATION, fn->incarnation))
		return -EMSGSIZE;
	return 0;
}

static int ftd_get_config(struct sk_buff *skb, struct genl_info *info)
{
	struct ftd_net *fn = info_fn(info);
	struct sk_buff *msg;
	void *hdr;
	int ret;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &ftd_genl_family, 0, FTDETECT_CMD_GET_CONFIG);
	if (!hdr) {
		ret = -EMSGSIZE;
		goto err;
	}
	mutex_lock(&fn->lock);
	ret = fill_config(msg, fn);
	mutex_unlock(&fn->lock);
	if (ret)
		goto err;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
err:
	nlmsg_free(msg);
	return ret;
}

static int ftd_set_config(struct sk_buff *skb, struct genl_info *info)
{
	struct ftd_net *fn = info_fn(info);
	struct nlattr **a = info->attrs;
	enum ftd_up_change up = FTD_UP_KEEP;
	struct ftd_config cfg = {};
	u32 mask = 0;
	int ret;

	ret = ftd_config_allowed(fn, info->extack);
	if (ret)
		return ret;
	if (a[FTDETECT_A_NODE]) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[FTDETECT_A_NODE],
				    "nodes are added with FTDETECT_CMD_ADD_NODE");
		return -EINVAL;
	}
	if (a[FTDETECT_A_CLUSTER_ID]) {
		cfg.cluster = nla_get_u32(a[FTDETECT_A_CLUSTER_ID]);
		mask |= FTD_CFG_CLUSTER;
	}
	if (a[FTDETECT_A_LOCAL_NODE]) {
		cfg.node = nla_get_u32(a[FTDETECT_A_LOCAL_NODE]);
		mask |= FTD_CFG_NODE;
	}
	if (a[FTDETECT_A_PORT]) {
		cfg.port = nla_get_u16(a[FTDETECT_A_PORT]);
		mask |= FTD_CFG_PORT;
	}
	if (a[FTDETECT_A_PERIOD_NS]) {
		cfg.period_ns = nla_get_u64(a[FTDETECT_A_PERIOD_NS]);
		mask |= FTD_CFG_PERIOD;
	}
	if (a[FTDETECT_A_TIMEOUT_NS]) {
		cfg.timeout_ns = nla_get_u64(a[FTDETECT_A_TIMEOUT_NS]);
		mask |= FTD_CFG_TIMEOUT;
	}
	if (a[FTDETECT_A_KEY]) {
		nla_memcpy(cfg.key, a[FTDETECT_A_KEY], FTD_KEY_LEN);
		mask |= FTD_CFG_KEY;
	}
	if (a[FTDETECT_A_KEYS_ACCEPTED]) {
		int len = nla_len(a[FTDETECT_A_KEYS_ACCEPTED]);

		if (len % FTD_KEY_LEN) {
			NL_SET_ERR_MSG_ATTR(info->extack, a[FTDETECT_A_KEYS_ACCEPTED],
					    "accepted keys: a whole number of FTD_KEY_LEN-byte keys");
			ret = -EINVAL;
			goto out;
		}
		nla_memcpy(cfg.accepted, a[FTDETECT_A_KEYS_ACCEPTED], len);
		cfg.n_accepted = len / FTD_KEY_LEN;
		mask |= FTD_CFG_KEYS_ACCEPTED;
	}
	if (a[FTDETECT_A_OBSERVERS]) {
		cfg.observers = nla_get_u8(a[FTDETECT_A_OBSERVERS]);
		mask |= FTD_CFG_OBSERVERS;
	}
	if (a[FTDETECT_A_QUORUM]) {
		cfg.quorum = nla_get_u8(a[FTDETECT_A_QUORUM]);
		mask |= FTD_CFG_QUORUM;
	}
	if (a[FTDETECT_A_RDMA_RAILS]) {
		cfg.rdma_rails = nla_get_u8(a[FTDETECT_A_RDMA_RAILS]);
		mask |= FTD_CFG_RDMA_RAILS;
	}
	if (a[FTDETECT_A_UP])
		up = nla_get_u8(a[FTDETECT_A_UP]) ? FTD_UP_UP : FTD_UP_DOWN;
	ret = ftd_net_configure(fn, &cfg, mask, up, info->extack);
out:
	memzero_explicit(&cfg, sizeof(cfg));	/* it held the keys */
	return ret;
}

static int ftd_down(struct sk_buff *skb, struct genl_info *info)
{
	int ret = ftd_config_allowed(info_fn(info), info->extack);

	if (!ret)
		ftd_net_down(info_fn(info));
	return ret;
}

/* ------------------------------------------------------------------ nodes */

static bool addr_usable(const union ftd_addr *addr)
{
	if (addr->sa.sa_family == AF_INET) {
		__be32 a = addr->sin.sin_addr.s_addr;

		return !ipv4_is_zeronet(a) && !ipv4_is_multicast(a) && !ipv4_is_lbcast(a);
	}
	return !ipv6_addr_any(&addr->sin6.sin6_addr) &&
	       !ipv6_addr_is_multicast(&addr->sin6.sin6_addr) &&
	       !ipv6_addr_v4mapped(&addr->sin6.sin6_addr);
}

static int parse_addr(const struct nlattr *nest, union ftd_addr *addr,
		      struct netlink_ext_ack *extack)
{
	struct nlattr *tb[FTDETECT_A_ADDR_MAX + 1];
	int ret;

	ret = nla_parse_nested(tb, FTDETECT_A_ADDR_MAX, nest, addr_policy, extack);
	if (ret)
		return ret;
	memset(addr, 0, sizeof(*addr));
	if (!!tb[FTDETECT_A_ADDR_INET] == !!tb[FTDETECT_A_ADDR_INET6]) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "an address needs exactly one of INET and INET6");
		return -EINVAL;
	}
	if (tb[FTDETECT_A_ADDR_INET]) {
		addr->sin.sin_family = AF_INET;
		addr->sin.sin_addr.s_addr = nla_get_in_addr(tb[FTDETECT_A_ADDR_INET]);
	} else {
		addr->sin6.sin6_family = AF_INET6;
		addr->sin6.sin6_addr = nla_get_in6_addr(tb[FTDETECT_A_ADDR_INET6]);
	}
	if (!addr_usable(addr)) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "not a unicast address (any, multicast, broadcast or v4-mapped)");
		return -EINVAL;
	}
	return 0;
}

static int parse_node(struct genl_info *info, struct nlattr **tb, bool need_addrs,
		      union ftd_addr *addrs, u8 *nrails)
{
	struct netlink_ext_ack *extack = info->extack;
	const struct nlattr *a;
	int rem, ret, i, j;

	if (GENL_REQ_ATTR_CHECK(info, FTDETECT_A_NODE)) {
		NL_SET_ERR_MSG_MOD(extack, "a node nest (FTDETECT_A_NODE) is required");
		return -EINVAL;
	}
	ret = nla_parse_nested(tb, FTDETECT_A_NODE_MAX, info->attrs[FTDETECT_A_NODE],
			       node_policy, extack);
	if (ret)
		return ret;
	if (NL_REQ_ATTR_CHECK(extack, info->attrs[FTDETECT_A_NODE], tb, FTDETECT_A_NODE_ID)) {
		NL_SET_ERR_MSG_MOD(extack, "the node id (FTDETECT_A_NODE_ID) is required");
		return -EINVAL;
	}
	if (!need_addrs)
		return 0;
	if (NL_REQ_ATTR_CHECK(extack, info->attrs[FTDETECT_A_NODE], tb, FTDETECT_A_NODE_ADDRS)) {
		NL_SET_ERR_MSG_MOD(extack, "the node's addresses (FTDETECT_A_NODE_ADDRS) are required");
		return -EINVAL;
	}

	*nrails = 0;
	nla_for_each_nested(a, tb[FTDETECT_A_NODE_ADDRS], rem) {
		if (nla_type(a) != FTDETECT_A_ADDR) {
			NL_SET_ERR_MSG_ATTR(extack, a, "ADDRS holds only ADDR entries");
			return -EINVAL;
		}
		if (*nrails == FTD_MAX_RAILS) {
			NL_SET_ERR_MSG_ATTR(extack, a, "too many addresses (rails) for one node");
			return -E2BIG;
		}
		ret = parse_addr(a, &addrs[*nrails], extack);
		if (ret)
			return ret;
		for (j = 0, i = *nrails; j < i; j++) {
			if (ftd_addr_equal(&addrs[i], &addrs[j])) {
				NL_SET_ERR_MSG_ATTR(extack, a, "the same address twice");
				return -EINVAL;
			}
		}
		(*nrails)++;
	}
	if (!*nrails) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FTDETECT_A_NODE_ADDRS], "a node needs an address");
		return -EINVAL;
	}
	return 0;
}

static int ftd_add_node(struct sk_buff *skb, struct genl_info *info)
{
	struct ftd_net *fn = info_fn(info);
	struct nlattr *tb[FTDETECT_A_NODE_MAX + 1];
	union ftd_addr addrs[FTD_MAX_RAILS];
	u8 nrails;
	int ret;

	ret = ftd_config_allowed(fn, info->extack);
	if (ret)
		return ret;
	ret = parse_node(info, tb, true, addrs, &nrails);
	if (ret)
		return ret;
	mutex_lock(&fn->lock);
	ret = ftd_peer_add(fn, nla_get_u32(tb[FTDETECT_A_NODE_ID]), addrs, nrails,
			   info->extack);
	mutex_unlock(&fn->lock);
	return ret;
}

static int ftd_del_node(struct sk_buff *skb, struct genl_info *info)
{
	struct ftd_net *fn = info_fn(info);
	struct nlattr *tb[FTDETECT_A_NODE_MAX + 1];
	u32 id;
	int ret;

	ret = ftd_config_allowed(fn, info->extack);
	if (ret)
		return ret;
	ret = parse_node(info, tb, false, NULL, NULL);
	if (ret)
		return ret;
	id = nla_get_u32(tb[FTDETECT_A_NODE_ID]);
	mutex_lock(&fn->lock);
	if (fn->up && id == fn->cfg.node) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[FTDETECT_A_NODE_ID],
				    "cannot remove the local node while up");
		ret = -EBUSY;
	} else {
		ret = ftd_peer_del(fn, id);
		if (ret == -ENOENT)
			NL_SET_ERR_MSG_ATTR(info->extack, tb[FTDETECT_A_NODE_ID], "no such node");
	}
	mutex_unlock(&fn->lock);
	return ret;
}

static int put_age(struct sk_buff *skb, int type, int pad, u64 last_heard, u64 now)
{
	if (!last_heard)
		return 0;
	return nla_put_u64_64bit(skb, type, now > last_heard ? now - last_heard : 0, pad);
}

static int fill_delay(struct sk_buff *skb, const struct ftd_delay *d)
{
	struct nlattr *nest;

	if (!d->samples)
		return 0;
	nest = nla_nest_start(skb, FTDETECT_A_ADDR_DELAY);
	if (!nest ||
	    nla_put_u64_64bit(skb, FTDETECT_A_DELAY_SAMPLES, d->samples, FTDETECT_A_DELAY_PAD) ||
	    nla_put_u64_64bit(skb, FTDETECT_A_DELAY_MIN_NS, d->min_ns, FTDETECT_A_DELAY_PAD) ||
	    nla_put_u64_64bit(skb, FTDETECT_A_DELAY_MEAN_NS, ftd_delay_mean(d), FTDETECT_A_DELAY_PAD) ||
	    nla_put_u64_64bit(skb, FTDETECT_A_DELAY_MAX_NS, d->max_ns, FTDETECT_A_DELAY_PAD) ||
	    nla_put(skb, FTDETECT_A_DELAY_HIST, sizeof(d->hist), d->hist))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* The RDMA port behind one of our own rails, if one was seen. */
static int fill_rdma(struct sk_buff *skb, const struct ftd_rdma_port *rp)
{
	struct nlattr *nest;

	if (!rp || rp->state == FTD_RDMA_NONE)
		return 0;
	nest = nla_nest_start(skb, FTDETECT_A_ADDR_RDMA);
	if (!nest ||
	    nla_put_string(skb, FTDETECT_A_RDMA_DEVICE, rp->device) ||
	    nla_put_u32(skb, FTDETECT_A_RDMA_PORT, rp->port) ||
	    nla_put_u8(skb, FTDETECT_A_RDMA_STATE, rp->state) ||
	    (rp->ud && nla_put_u32(skb, FTDETECT_A_RDMA_QPN, rp->qpn)))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int fill_rail(struct sk_buff *skb, const struct ftd_rail *r, u64 now,
		     const struct ftd_rdma_port *rp)
{
	struct nlattr *nest = nla_nest_start(skb, FTDETECT_A_ADDR);

	/* Every scalar of the enum is put below (the list in the uapi header). */
#define ADDR_ONE(attr, name, type)	+ 1
	BUILD_BUG_ON(0 FTDETECT_ADDR_SCALARS(ADDR_ONE) + FTDETECT_ADDR_NOT_SCALAR !=
		     __FTDETECT_A_ADDR_MAX);
#undef ADDR_ONE
	if (!nest)
		return -EMSGSIZE;
	if ((r->addr.sa.sa_family == AF_INET &&
	     nla_put_in_addr(skb, FTDETECT_A_ADDR_INET, r->addr.sin.sin_addr.s_addr)) ||
	    (r->addr.sa.sa_family == AF_INET6 &&
	     nla_put_in6_addr(skb, FTDETECT_A_ADDR_INET6, &r->addr.sin6.sin6_addr)) ||
	    nla_put_u64_64bit(skb, FTDETECT_A_ADDR_RX, r->rx, FTDETECT_A_ADDR_PAD) ||
	    nla_put_u64_64bit(skb, FTDETECT_A_ADDR_LOST, r->lost, FTDETECT_A_ADDR_PAD) ||
	    put_age(skb, FTDETECT_A_ADDR_AGE_NS, FTDETECT_A_ADDR_PAD, r->last_heard_ns, now) ||
	    nla_put_u8(skb, FTDETECT_A_ADDR_STAMP, r->stamp) ||
	    (r->timing && fill_delay(skb, &r->timing->driver_delay)) ||
	    fill_rdma(skb, rp)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* The figures of the first rail that has heard anything stand for the node. */
static const struct ftd_iat *node_iat(const struct ftd_peer *p)
{
	static const struct ftd_iat none;
	int i;

	for (i = 0; i < p->nrails; i++)
		if (p->rails[i].timing && p->rails[i].timing->iat.samples)
			return &p->rails[i].timing->iat;
	return &none;
}

/* rdma: for our own node, the RDMA ports behind its rails (else NULL). */
static int fill_node_locked(struct sk_buff *skb, const struct ftd_peer *p, u64 now,
			    u64 timeout, const struct ftd_rdma_port *rdma)
{
	const struct ftd_iat *iat = node_iat(p);
	struct nlattr *node, *addrs;
	u64 rx = 0, lost = 0;
	int i;

	/* Every scalar of the enum is put below (the list in the uapi header). */
#define NODE_ONE(attr, name, type)	+ 1
	BUILD_BUG_ON(0 FTDETECT_NODE_SCALARS(NODE_ONE) + FTDETECT_NODE_NOT_SCALAR !=
		     __FTDETECT_A_NODE_MAX);
#undef NODE_ONE

	for (i = 0; i < p->nrails; i++) {
		rx += p->rails[i].rx;
		lost += p->rails[i].lost;
	}
	node = nla_nest_start(skb, FTDETECT_A_NODE);
	if (!node)
		return -EMSGSIZE;
	if (nla_put_u32(skb, FTDETECT_A_NODE_ID, p->id))
		goto err;
	addrs = nla_nest_start(skb, FTDETECT_A_NODE_ADDRS);
	if (!addrs)
		goto err;
	for (i = 0; i < p->nrails; i++)
		if (fill_rail(skb, &p->rails[i], now, rdma ? &rdma[i] : NULL))
			goto err;
	nla_nest_end(skb, addrs);
	if (nla_put_u8(skb, FTDETECT_A_NODE_STATE, p->state) ||
	    nla_put_u32(skb, FTDETECT_A_NODE_INCARNATION, p->incarnation) ||
	    put_age(skb, FTDETECT_A_NODE_AGE_NS, FTDETECT_A_NODE_PAD, p->last_heard_ns, now) ||
	    nla_put_u64_64bit(skb, FTDETECT_A_NODE_RX, rx, FTDETECT_A_NODE_PAD) ||
	    nla_put_u64_64bit(skb, FTDETECT_A_NODE_LOST, lost, FTDETECT_A_NODE_PAD) ||
	    nla_put_u64_64bit(skb, FTDETECT_A_NODE_IAT_MEAN_NS, iat->mean_ns, FTDETECT_A_NODE_PAD) ||
	    nla_put_u64_64bit(skb, FTDETECT_A_NODE_IAT_JITTER_NS, iat->jitter_ns,
			      FTDETECT_A_NODE_PAD) ||
	    nla_put_u64_64bit(skb, FTDETECT_A_NODE_IAT_MAX_NS, iat->max_ns, FTDETECT_A_NODE_PAD) ||
	    nla_put_u64_64bit(skb, FTDETECT_A_NODE_TX, READ_ONCE(p->tx), FTDETECT_A_NODE_PAD) ||
	    nla_put_u64_64bit(skb, FTDETECT_A_NODE_RX_BADMAC, READ_ONCE(p->rx_badmac),
			      FTDETECT_A_NODE_PAD) ||
	    nla_put_u64_64bit(skb, FTDETECT_A_NODE_RX_STALE, READ_ONCE(p->rx_stale),
			      FTDETECT_A_NODE_PAD) ||
	    nla_put_u64_64bit(skb, FTDETECT_A_NODE_RX_REPLAY, READ_ONCE(p->rx_replay),
			      FTDETECT_A_NODE_PAD) ||
	    nla_put_u64_64bit(skb, FTDETECT_A_NODE_RX_UNPROVEN, READ_ONCE(p->rx_unproven),
			      FTDETECT_A_NODE_PAD) ||
	    nla_put_u32(skb, FTDETECT_A_NODE_PROVEN, p->fresh.incarnation) ||
	    nla_put_u64_64bit(skb, FTDETECT_A_NODE_SLOW_NS,
			      ftd_health_deadline(&p->slow, NULL, timeout, now) - timeout,
			      FTDETECT_A_NODE_PAD) ||
	    (READ_ONCE(p->key_id) &&
	     nla_put_u64_64bit(skb, FTDETECT_A_NODE_KEY_ID, READ_ONCE(p->key_id),
			       FTDETECT_A_NODE_PAD)) ||
	    put_age(skb, FTDETECT_A_NODE_BADMAC_AGE_NS, FTDETECT_A_NODE_PAD,
		    READ_ONCE(p->badmac_ns), now))
		goto err;
	nla_nest_end(skb, node);
	return 0;
err:
	nla_nest_cancel(skb, node);
	return -EMSGSIZE;
}

static int fill_node_msg(struct sk_buff *skb, struct ftd_net *fn, struct ftd_peer *p,
			 u32 portid, u32 seq, int flags)
{
	struct ftd_rdma_port rdma[FTD_MAX_RAILS];
	void *hdr;
	int ret;

	hdr = genlmsg_put(skb, portid, seq, &ftd_genl_family, flags, FTDETECT_CMD_GET_NODE);
	if (!hdr)
		return -EMSGSIZE;
	if (p->self) {
		int i;

		spin_lock_bh(&fn->rdma_lock);
		memcpy(rdma, fn->rdma, sizeof(rdma));
		spin_unlock_bh(&fn->rdma_lock);
		for (i = 0; i < FTD_MAX_RAILS; i++) {
			rdma[i].ud = fn->cfg.rdma_rails & BIT(i);
			rdma[i].qpn = ftd_ud_qpn(fn, i);
		}
	}
	spin_lock_bh(&p->lock);
	ret = fill_node_locked(skb, p, ktime_get_ns(), READ_ONCE(fn->cfg.timeout_ns),
			       p->self ? rdma : NULL);
	spin_unlock_bh(&p->lock);
	if (ret) {
		genlmsg_cancel(skb, hdr);
		return ret;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static int ftd_get_node_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ftd_net *fn = info_fn(info);
	struct nlattr *tb[FTDETECT_A_NODE_MAX + 1];
	struct ftd_peer *peer;
	struct sk_buff *msg;
	int ret;

	ret = parse_node(info, tb, false, NULL, NULL);
	if (ret)
		return ret;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	rcu_read_lock();
	peer = ftd_peer_find(fn, nla_get_u32(tb[FTDETECT_A_NODE_ID]));
	if (!peer) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[FTDETECT_A_NODE_ID], "no such node");
		ret = -ENOENT;
	} else {
		ret = fill_node_msg(msg, fn, peer, info->snd_portid, info->snd_seq, 0);
	}
	rcu_read_unlock();
	if (ret) {
		nlmsg_free(msg);
		return ret;
	}
	return genlmsg_reply(msg, info);
}

/* cb->args[0]: id of the next node to dump. */
static int ftd_get_node_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct ftd_net *fn = ftd_net(sock_net(skb->sk));
	unsigned long id = cb->args[0];
	struct ftd_peer *peer;
	int ret = 0;

	rcu_read_lock();
	xa_for_each_start(&fn->peers, id, peer, cb->args[0]) {
		ret = fill_node_msg(skb, fn, peer, NETLINK_CB(cb->skb).portid,
				    cb->nlh->nlmsg_seq, NLM_F_MULTI);
		if (ret)
			break;
		cb->args[0] = id + 1;
	}
	rcu_read_unlock();
	/* A full message ends this part of the dump; the next resumes at args[0]. */
	if (ret == -EMSGSIZE && skb->len)
		return skb->len;
	return ret ? ret : skb->len;
}

/* ------------------------------------------------------------------ stats */

/*
 * The reply, sized rather than hoped for (the arrays alone take 0.6 KiB):
 * every attribute as a padded u64, plus the arrays' payloads on top.
 */
static size_t stats_msg_size(void)
{
	return nla_total_size(0) +					/* STATS nest */
	       (FTDETECT_A_STATS_MAX - FTDETECT_A_STATS_PAD) * nla_total_size_64bit(sizeof(u64)) +
	       sizeof(u64) * (__FTD_EV_MAX + 2 * FTD_LATENCY_BUCKETS);	/* the arrays */
}

/* An array of counters as the uapi's __u64[n]: each read once, not all at once. */
static int put_counters(struct sk_buff *skb, int type, const atomic64_t *c, unsigned int n)
{
	struct nlattr *a = nla_reserve(skb, type, n * sizeof(u64));
	u64 *v;

	if (!a)
		return -EMSGSIZE;
	v = nla_data(a);
	while (n--)
		v[n] = atomic64_read(&c[n]);
	return 0;
}

static int put_latency(struct sk_buff *skb, int hist, int sum, const struct ftd_latency_hist *h)
{
	return put_counters(skb, hist, h->hist, FTD_LATENCY_BUCKETS) ||
	       nla_put_u64_64bit(skb, sum, atomic64_read(&h->sum_ns), FTDETECT_A_STATS_PAD);
}

/* A gauge of FTDETECT_STATS_U64: a state computed now, or a high-water mark. */
static u64 stats_gauge(struct ftd_net *fn, const struct ftd_peer_memory *mem, int attr)
{
	switch (attr) {
	case FTDETECT_A_STATS_TICK_LATE_MAX_NS:
		return atomic64_read(&fn->stats.tick_late_max_ns);
	case FTDETECT_A_STATS_MINORITY:
		return ftd_majority_minority_of(fn);
	case FTDETECT_A_STATS_MEM_NODES:
		return mem->nodes;
	case FTDETECT_A_STATS_MEM_RANKS:
		return mem->ranks;
	case FTDETECT_A_STATS_ROUTE_CACHES:
		return READ_ONCE(fn->routes_held);
	}
	WARN_ONCE(1, "ftdetect: stats gauge %d has no source\n", attr);
	return 0;
}

/*
 * The node table's memory is a walk over every node, a lock each: only
 * for a caller who may configure the instance, not for any user in a loop.
 */
static bool stats_shown(int attr, bool admin)
{
	return admin || (attr != FTDETECT_A_STATS_MEM_NODES && attr != FTDETECT_A_STATS_MEM_RANKS);
}

#define STATS_VALUE_counter(fn, attr, name)	atomic64_read(&(fn)->stats.name)
#define STATS_VALUE_gauge(fn, attr, name)	stats_gauge(fn, &mem, FTDETECT_A_STATS_##attr)
#define STATS_PUT(attr, name, kind)						\
	(stats_shown(FTDETECT_A_STATS_##attr, admin) &&				\
	 nla_put_u64_64bit(msg, FTDETECT_A_STATS_##attr, STATS_VALUE_##kind(fn, attr, name), \
			   FTDETECT_A_STATS_PAD)) ||
#define STATS_ONE(attr, name, kind)	+ 1

/* Every u64 of FTDETECT_STATS_U64, in its order. */
static int put_stats_u64(struct sk_buff *msg, struct ftd_net *fn, bool admin)
{
	struct ftd_peer_memory mem = {};

	/* Every attribute of the enum is in the list or one of the others. */
	BUILD_BUG_ON(0 FTDETECT_STATS_U64(STATS_ONE) + FTDETECT_STATS_NOT_U64 !=
		     __FTDETECT_A_STATS_MAX);
	if (admin)
		ftd_peer_memory(fn, &mem);
	return FTDETECT_STATS_U64(STATS_PUT) 0 ? -EMSGSIZE : 0;
}

static int ftd_get_stats(struct sk_buff *skb, struct genl_info *info)
{
	struct ftd_net *fn = info_fn(info);
	struct ftd_stats *s = &fn->stats;
	struct nlattr *nest;
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(stats_msg_size(), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &ftd_genl_family, 0, FTDETECT_CMD_GET_STATS);
	if (!hdr)
		goto err;
	nest = nla_nest_start(msg, FTDETECT_A_STATS);
	if (!nest ||
	    put_stats_u64(msg, fn, netlink_ns_capable(skb, fn->net->user_ns, CAP_NET_ADMIN)) ||
	    put_counters(msg, FTDETECT_A_STATS_EVENTS_BY_TYPE, s->events_by_type,
			 ARRAY_SIZE(s->events_by_type)) ||
	    put_latency(msg, FTDETECT_A_STATS_DECLARED_HIST, FTDETECT_A_STATS_DECLARED_SUM_NS,
			&s->declared) ||
	    put_latency(msg, FTDETECT_A_STATS_TOLD_HIST, FTDETECT_A_STATS_TOLD_SUM_NS, &s->told))
		goto err;
	nla_nest_end(msg, nest);
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
err:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

/* ------------------------------------------------------------------ events */

static size_t event_msg_size(void)
{
	return nla_total_size(0) +				/* EVENT nest */
	       nla_total_size(sizeof(u16)) +			/* TYPE */
	       3 * nla_total_size_64bit(sizeof(u64)) +		/* SEQ, TIME, MONO */
	       8 * nla_total_size(sizeof(u32));			/* the rest */
}

static int fill_event(struct sk_buff *skb, const struct ftd_event *ev)
{
	struct nlattr *nest = nla_nest_start(skb, FTDETECT_A_EVENT);

	if (!nest ||
	    nla_put_u16(skb, FTDETECT_A_EVENT_TYPE, ev->type) ||
	    nla_put_u64_64bit(skb, FTDETECT_A_EVENT_SEQ, ev->seq, FTDETECT_A_EVENT_PAD) ||
	    nla_put_u64_64bit(skb, FTDETECT_A_EVENT_TIME_NS, ev->time_ns, FTDETECT_A_EVENT_PAD) ||
	    nla_put_u64_64bit(skb, FTDETECT_A_EVENT_MONO_NS, ev->mono_ns, FTDETECT_A_EVENT_PAD) ||
	    (ev->node != FTD_NODE_NONE && nla_put_u32(skb, FTDETECT_A_EVENT_NODE, ev->node)) ||
	    nla_put_u32(skb, FTDETECT_A_EVENT_INCARNATION, ev->incarnation) ||
	    (ev->rail != FTD_RAIL_NONE && nla_put_u32(skb, FTDETECT_A_EVENT_RAIL, ev->rail)) ||
	    (ev->origin != FTD_NODE_NONE && nla_put_u32(skb, FTDETECT_A_EVENT_ORIGIN, ev->origin)) ||
	    nla_put_u32(skb, FTDETECT_A_EVENT_JOB, ev->job) ||
	    nla_put_u32(skb, FTDETECT_A_EVENT_RANK, ev->rank) ||
	    nla_put_u32(skb, FTDETECT_A_EVENT_COUNT, ev->count) ||
	    (ev->uid != FTD_UID_NONE && nla_put_u32(skb, FTDETECT_A_EVENT_UID, ev->uid)))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

void ftd_genl_event(struct ftd_net *fn, const struct ftd_event *ev)
{
	struct sk_buff *skb;
	void *hdr;

	if (!genl_has_listeners(&ftd_genl_family, fn->net, FTD_MCGRP_EVENTS_ID))
		return;
	skb = genlmsg_new(event_msg_size(), GFP_ATOMIC);
	if (!skb)
		return;
	hdr = genlmsg_put(skb, 0, 0, &ftd_genl_family, 0, FTDETECT_CMD_EVENT);
	if (!hdr || fill_event(skb, ev)) {
		nlmsg_free(skb);
		return;
	}
	genlmsg_end(skb, hdr);
	genlmsg_multicast_netns(&ftd_genl_family, fn->net, skb, 0, FTD_MCGRP_EVENTS_ID,
				GFP_ATOMIC);
}

/* ------------------------------------------------------------------ family */

static const struct genl_ops ftd_genl_ops[] = {
	{
		.cmd = FTDETECT_CMD_GET_CONFIG,
		.doit = ftd_get_config,
	}, {
		.cmd = FTDETECT_CMD_SET_CONFIG,
		.doit = ftd_set_config,
		.flags = GENL_UNS_ADMIN_PERM,
	}, {
		.cmd = FTDETECT_CMD_DOWN,
		.doit = ftd_down,
		.flags = GENL_UNS_ADMIN_PERM,
	}, {
		.cmd = FTDETECT_CMD_ADD_NODE,
		.doit = ftd_add_node,
		.flags = GENL_UNS_ADMIN_PERM,
	}, {
		.cmd = FTDETECT_CMD_DEL_NODE,
		.doit = ftd_del_node,
		.flags = GENL_UNS_ADMIN_PERM,
	}, {
		.cmd = FTDETECT_CMD_GET_NODE,
		.doit = ftd_get_node_doit,
		.dumpit = ftd_get_node_dumpit,
	}, {
		.cmd = FTDETECT_CMD_GET_STATS,
		.doit = ftd_get_stats,
	},
};

static struct genl_family ftd_genl_family __ro_after_init = {
	.name = FTDETECT_GENL_NAME,
	.version = FTDETECT_GENL_VERSION,
	.maxattr = FTDETECT_A_MAX,
	.policy = ftd_policy,
	.netnsok = true,
	.module = THIS_MODULE,
	.ops = ftd_genl_ops,
	.n_ops = ARRAY_SIZE(ftd_genl_ops),
	.resv_start_op = FTDETECT_CMD_UNSPEC + 1,	/* strict validation for every command */
	.mcgrps = ftd_mcgrps,
	.n_mcgrps = ARRAY_SIZE(ftd_mcgrps),
};

int __init ftd_genl_init(void)
{
	return genl_register_family(&ftd_genl_family);
}

void ftd_genl_exit(void)
{
	genl_unregister_family(&ftd_genl_family);
}
