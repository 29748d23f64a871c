// SPDX-License-Identifier: GPL-2.0-only
#include "common/query.h"

#include <errno.h>
#include <stdlib.h>

#include <netlink/netlink.h>

static int config_reply(struct nl_msg *msg, void *arg)
{
	return ftu_msg_parse_config(msg, arg);
}

int ftu_get_config(struct ftu_nl *nl, struct ftu_config *cfg)
{
	struct nl_msg *msg = ftu_nl_msg(nl, FTDETECT_CMD_GET_CONFIG, 0);

	if (!msg)
		return -ENOMEM;
	*cfg = (struct ftu_config){ 0 };
	return ftu_nl_call(nl, msg, config_reply, cfg);
}

struct node_list {
	struct ftu_node *v;
	size_t n, cap;
};

static int node_reply(struct nl_msg *msg, void *arg)
{
	struct node_list *l = arg;

	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 32;
		struct ftu_node *v = reallocarray(l->v, cap, sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	if (ftu_msg_parse_node(msg, &l->v[l->n]))
		return -EPROTO;
	l->n++;
	return 0;
}

static int cmp_id(const void *a, const void *b)
{
	const struct ftu_node *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

void ftu_sort_nodes(struct ftu_node *nodes, size_t n)
{
	if (n)
		qsort(nodes, n, sizeof(*nodes), cmp_id);
}

int ftu_get_nodes(struct ftu_nl *nl, struct ftu_node **nodes, size_t *n)
{
	struct nl_msg *msg = ftu_nl_msg(nl, FTDETECT_CMD_GET_NODE, NLM_F_DUMP);
	struct node_list l = { 0 };
	int err;

	*nodes = NULL;
	*n = 0;
	if (!msg)
		return -ENOMEM;
	err = ftu_nl_call(nl, msg, node_reply, &l);
	if (err) {
		free(l.v);
		return err;
	}
	ftu_sort_nodes(l.v, l.n);
	*nodes = l.v;
	*n = l.n;
	return 0;
}

static int stats_reply(struct nl_msg *msg, void *arg)
{
	return ftu_msg_parse_stats(msg, arg);
}

int ftu_get_stats(struct ftu_nl *nl, struct ftu_stats *st)
{
	struct nl_msg *msg = ftu_nl_msg(nl, FTDETECT_CMD_GET_STATS, 0);

	if (!msg)
		return -ENOMEM;
	*st = (struct ftu_stats){ 0 };
	return ftu_nl_call(nl, msg, stats_reply, st);
}
