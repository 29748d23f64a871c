// SPDX-License-Identifier: GPL-2.0-only
/*
 * ftctl apply. The steps, and why they are in this order:
 *
 *   1. GET_CONFIG. Cluster id, local node, port and RDMA rails are fixed
 *      while the instance is up. If the file changes one of them, the
 *      instance has to go down (CMD_DOWN) first; its peers are told it
 *      left (NODE_LEFT, not NODE_DEAD). Otherwise it stays up:
 *      re-applying a file to add a node must not stop heartbeats, or
 *      every observer of this node would report a false failure. The
 *      keys cannot be read back: they are sent every time, and the module
 *      takes new ones live.
 *   2. SET_CONFIG without UP: cluster id, node and port (if down), key,
 *      period and timeout (they change live).
 *   3. DEL_NODE for every node the kernel has and the file does not list,
 *      then ADD_NODE ("add or replace") for every node in the file. Deleting
 *      first frees the addresses of removed nodes, so that a file that moves
 *      an address from an old node to a new one applies.
 *   4. SET_CONFIG with UP=1.
 *   5. The eBPF programs (ftctl/ebpf.c): attach what `xdp =` and `tc =` ask
 *      for to the heartbeat interfaces, detach ftdetect's programs elsewhere,
 *      and write port, cluster and members into their maps. After step 4:
 *      the module must be up before frames are stamped for it.
 */
#define _GNU_SOURCE
#include "ftctl/apply.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/duration.h"
#include "common/keyid.h"
#include "common/names.h"
#include "common/nl.h"
#include "common/query.h"
#include "ftctl/ebpf.h"
#include "ftctl/rdma.h"

/* A duration for --dry-run: short when exact, else in nanoseconds. */
static const char *exact_duration(uint64_t ns, char *buf, size_t len)
{
	const char *why;
	uint64_t back;

	ftu_duration_format(ns, buf, len);
	if (ftu_duration_parse(buf, &back, &why) || back != ns)
		snprintf(buf, len, "%" PRIu64 "ns", ns);
	return buf;
}

void ftctl_print_set_config(FILE *f, const struct ftu_config *req)
{
	char buf[FTU_DURATION_BUFSZ];

	fputs("set-config", f);
	if (FTU_HAS(req, FTDETECT_A_CLUSTER_ID))
		fprintf(f, " cluster %" PRIu32, req->cluster);
	if (FTU_HAS(req, FTDETECT_A_LOCAL_NODE))
		fprintf(f, " node %" PRIu32, req->node);
	if (FTU_HAS(req, FTDETECT_A_PORT))
		fprintf(f, " port %u", req->port);
	if (FTU_HAS(req, FTDETECT_A_PERIOD_NS))
		fprintf(f, " period %s", exact_duration(req->period_ns, buf, sizeof(buf)));
	if (FTU_HAS(req, FTDETECT_A_TIMEOUT_NS))
		fprintf(f, " timeout %s", exact_duration(req->timeout_ns, buf, sizeof(buf)));
	if (FTU_HAS(req, FTDETECT_A_OBSERVERS))
		fprintf(f, " observers %u", req->observers);
	if (FTU_HAS(req, FTDETECT_A_QUORUM))
		fprintf(f, " quorum %u", req->quorum);
	if (FTU_HAS(req, FTDETECT_A_RDMA_RAILS) && req->rdma_rails) {
		char rails[FTU_RAILS_BUFSZ];

		fprintf(f, " rdma-rails %s", ftu_rails_format(req->rdma_rails, rails, sizeof(rails)));
	}
	if (FTU_HAS(req, FTDETECT_A_KEY)) {
		char id[FTU_KEYID_BUFSZ];

		fprintf(f, " key %s", ftu_key_id_format(ftu_key_id(req->key), id));
	}
	if (FTU_HAS(req, FTDETECT_A_KEYS_ACCEPTED)) {
		fputs(" accept", f);
		if (!req->n_accepted)
			fputs(" none", f);
		for (unsigned int i = 0; i < req->n_accepted; i++) {
			char id[FTU_KEYID_BUFSZ];

			fprintf(f, "%s%s", i ? "," : " ",
				ftu_key_id_format(ftu_key_id(req->accepted[i]), id));
		}
	}
	if (FTU_HAS(req, FTDETECT_A_UP))
		fputs(req->up ? " up" : " down", f);
	fputc('\n', f);
}

void ftctl_print_add_node(FILE *f, const struct ftctl_conf_node *n)
{
	char buf[FTU_ADDR_BUFSZ];

	fprintf(f, "add-node %" PRIu32, n->id);
	for (unsigned int i = 0; i < n->nr_addrs; i++)
		fprintf(f, " %s", ftu_addr_format(&n->addrs[i], buf, sizeof(buf)));
	fputc('\n', f);
}

void ftctl_config_request(const struct ftctl_conf *conf, uint32_t local, bool fixed,
			  struct ftu_config *req)
{
	*req = (struct ftu_config){
		.present = FTU_BIT(FTDETECT_A_PERIOD_NS) | FTU_BIT(FTDETECT_A_TIMEOUT_NS) |
			   FTU_BIT(FTDETECT_A_KEY) | FTU_BIT(FTDETECT_A_KEYS_ACCEPTED) |
			   FTU_BIT(FTDETECT_A_OBSERVERS) | FTU_BIT(FTDETECT_A_QUORUM),
		.period_ns = conf->period_ns,
		.timeout_ns = conf->timeout_ns,
		.observers = conf->observers,
		.quorum = conf->quorum,
	};
	/* Always sent, so that a key removed from the file leaves the kernel
	 * too: "key = none" is the all-zero key, and no accept_key none.
	 */
	if (conf->has_key)
		memcpy(req->key, conf->key, FTD_KEY_LEN);
	memcpy(req->accepted, conf->accepted, sizeof(req->accepted));
	req->n_accepted = conf->n_accepted;
	if (fixed) {
		req->present |= FTU_BIT(FTDETECT_A_CLUSTER_ID) | FTU_BIT(FTDETECT_A_LOCAL_NODE) |
				FTU_BIT(FTDETECT_A_PORT) | FTU_BIT(FTDETECT_A_RDMA_RAILS);
		req->cluster = conf->cluster;
		req->node = local;
		req->port = conf->port;
		req->rdma_rails = conf->rdma_rails;
	}
}

static int dry_run(const struct ftctl_conf *conf, uint32_t local,
		   const struct ftctl_apply_opts *opts)
{
	struct ftu_config req;

	puts("get-config");
	if (opts->restart)
		puts("down                  # --restart: if the instance is up");
	else
		puts("down                  # only if up with another cluster id, node, port or rdma");
	ftctl_config_request(conf, local, true, &req);
	ftctl_print_set_config(stdout, &req);
	puts("del-node ...          # every node of the instance that the file does not list");
	for (size_t i = 0; i < conf->nr_nodes; i++)
		ftctl_print_add_node(stdout, &conf->nodes[i]);
	req = (struct ftu_config){ .present = FTU_BIT(FTDETECT_A_UP), .up = true };
	ftctl_print_set_config(stdout, &req);
	return 0;
}

struct applier {
	struct ftu_nl nl;
	const struct ftctl_apply_opts *opts;
	bool changed;	/* a request that changes state went through */
};

/* Send one request that expects only an ACK; print why it failed; -errno. */
static int send_req(struct applier *a, struct nl_msg *msg, int put_err, const char *op)
{
	int err;

	if (put_err || !msg) {
		nlmsg_free(msg);	/* NULL-safe */
		err = put_err ? put_err : -ENOMEM;
		fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name, op, strerror(-err));
		return err;
	}
	err = ftu_nl_call(&a->nl, msg, NULL, NULL);
	if (err) {
		ftu_nl_perror(&a->nl, op, err);
		return err;
	}
	a->changed = true;
	return 0;
}

static int set_config(struct applier *a, const struct ftu_config *req, const char *op)
{
	struct nl_msg *msg = ftu_nl_msg(&a->nl, FTDETECT_CMD_SET_CONFIG, 0);

	if (a->opts->verbose)
		ftctl_print_set_config(stdout, req);
	return send_req(a, msg, msg ? ftu_msg_put_config(msg, req) : 0, op);
}

static int down(struct applier *a)
{
	if (a->opts->verbose)
		puts("down");
	return send_req(a, ftu_nl_msg(&a->nl, FTDETECT_CMD_DOWN, 0), 0, "down");
}

static int del_node(struct applier *a, uint32_t id)
{
	struct nl_msg *msg = ftu_nl_msg(&a->nl, FTDETECT_CMD_DEL_NODE, 0);
	char op[32];

	snprintf(op, sizeof(op), "del-node %" PRIu32, id);
	if (a->opts->verbose)
		puts(op);
	return send_req(a, msg, msg ? ftu_msg_put_node_id(msg, id) : 0, op);
}

static int add_node(struct applier *a, const struct ftctl_conf_node *n)
{
	struct nl_msg *msg = ftu_nl_msg(&a->nl, FTDETECT_CMD_ADD_NODE, 0);
	char op[32];

	snprintf(op, sizeof(op), "add-node %" PRIu32, n->id);
	if (a->opts->verbose)
		ftctl_print_add_node(stdout, n);
	return send_req(a, msg, msg ? ftu_msg_put_node(msg, n->id, n->addrs, n->nr_addrs) : 0, op);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Step 3: delete the nodes the file does not list, add/replace the others. */
static int sync_nodes(struct applier *a, const struct ftctl_conf *conf)
{
	struct ftu_node *cur = NULL;
	uint32_t *ids = NULL;
	size_t ncur;
	int err, ret = -1;

	err = ftu_get_nodes(&a->nl, &cur, &ncur);
	if (err) {
		ftu_nl_perror(&a->nl, "get-node", err);
		return -1;
	}
	ids = calloc(conf->nr_nodes, sizeof(*ids));
	if (!ids) {
		fprintf(stderr, "%s: out of memory\n", program_invocation_short_name);
		goto out;
	}
	for (size_t i = 0; i < conf->nr_nodes; i++)
		ids[i] = conf->nodes[i].id;
	qsort(ids, conf->nr_nodes, sizeof(*ids), cmp_u32);
	for (size_t i = 0; i < ncur; i++)
		if (!bsearch(&cur[i].id, ids, conf->nr_nodes, sizeof(*ids), cmp_u32) &&
		    del_node(a, cur[i].id))
			goto out;
	for (size_t i = 0; i < conf->nr_nodes; i++)
		if (add_node(a, &conf->nodes[i]))
			goto out;
	ret = 0;
out:
	free(ids);
	free(cur);
	return ret;
}

static int run(struct applier *a, const struct ftctl_conf *conf, uint32_t local)
{
	struct ftu_config cur, req;
	bool up;
	int err;

	err = ftu_get_config(&a->nl, &cur);
	if (err) {
		ftu_nl_perror(&a->nl, "get-config", err);
		return -1;
	}
	up = cur.up;
	if (up && (a->opts->restart || cur.cluster != conf->cluster || cur.node != local ||
		   cur.port != conf->port || cur.rdma_rails != conf->rdma_rails)) {
		if (down(a))
			return -1;
		up = false;
	}

	ftctl_config_request(conf, local, !up, &req);
	/* A module older than accepted keys reports no key id, and would
	 * refuse the attribute: leave it out when there is nothing to say. */
	if (!FTU_HAS(&cur, FTDETECT_A_KEY_ID) && !req.n_accepted)
		req.present &= ~FTU_BIT(FTDETECT_A_KEYS_ACCEPTED);
	/* Likewise a module older than RDMA rails. */
	if (!FTU_HAS(&cur, FTDETECT_A_RDMA_RAILS) && !req.rdma_rails)
		req.present &= ~FTU_BIT(FTDETECT_A_RDMA_RAILS);
	err = set_config(a, &req, "set-config");
	if (err || sync_nodes(a, conf))
		return -1;
	req = (struct ftu_config){ .present = FTU_BIT(FTDETECT_A_UP), .up = true };
	return set_config(a, &req, "up");
}

int ftctl_apply(const struct ftctl_conf *conf, uint32_t local,
		const struct ftctl_apply_opts *opts)
{
	const struct ftctl_conf_node *me = ftctl_conf_find(conf, local);
	struct applier a = { .opts = opts };
	char why[FTCTL_CONF_ERRSZ];
	int ret;

	/* The RDMA ports the file names, before anything changes. */
	if (me && ftctl_rdma_check(conf, me, why, sizeof(why))) {
		fprintf(stderr, "%s: %s\n", program_invocation_short_name, why);
		return 1;
	}
	if (opts->dry_run)
		return dry_run(conf, local, opts) ||
		       ftctl_apply_ebpf(conf, local, true, opts->verbose);
	if (ftu_nl_open(&a.nl, FTDETECT_GENL_NAME))
		return 1;
	ret = run(&a, conf, local);
	ftu_nl_close(&a.nl);
	if (ret && a.changed) {
		fprintf(stderr, "%s: apply stopped there; the instance may be partly "
			"configured (see 'ftctl show')\n", program_invocation_short_name);
		return 1;
	}
	/* 5. The eBPF programs (xdp =, tc =), once the instance runs. */
	return ret ? 1 : ftctl_apply_ebpf(conf, local, false, opts->verbose);
}
