/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The cluster config file (see ftdetect.conf(5)):
 *
 *   [cluster]
 *   id = 42
 *   port = 7061
 *   period = 10ms
 *   timeout = 50ms
 *   key = 00112233445566778899aabbccddeeff   # or: keyfile = PATH, or: key = none
 *   accept_key = 0123456789abcdef0123456789abcdef   # during a key change only
 *   node = 1
 *   xdp = auto          # off (default), auto, native, generic
 *   tc = on             # off (default), on
 *   rdma = 1@mlx5_1/1   # rail 1's heartbeats over RDMA, on that device and port
 *
 *   [nodes]
 *   1 192.0.2.1
 *   2 192.0.2.2 198.51.100.2
 *
 * Pure parsing and validation; nothing here talks to the kernel, so it is
 * unit-tested on its own (selftests/unit/test_config.c).
 */
#ifndef FTCTL_CONFIG_H
#define FTCTL_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/ftdetect.h>

#include "common/addr.h"

struct ftctl_conf_node {
	uint32_t id;
	unsigned int nr_addrs;
	struct ftu_addr addrs[FTD_MAX_RAILS];	/* rail order */
	unsigned int line;
};

/* `xdp =`: whether and how apply attaches the XDP program (docs/ebpf.md). */
enum ftctl_conf_xdp {
	FTCTL_XDP_OFF,		/* default: attach nothing, detach what ftdetect attached */
	FTCTL_XDP_AUTO,		/* native where the driver has it, else generic */
	FTCTL_XDP_NATIVE,
	FTCTL_XDP_GENERIC,
};

struct ftctl_conf {
	uint32_t cluster;
	uint16_t port;
	uint64_t period_ns;
	uint64_t timeout_ns;
	uint32_t observers;		/* k */
	uint32_t quorum;		/* q */
	bool has_key;			/* a key, from "key =" or "keyfile =" */
	bool key_none;			/* "key = none": no authentication, on purpose */
	bool keyfile;			/* the keys came from "keyfile =" */
	uint8_t key[FTD_KEY_LEN];	/* signs what this node sends */
	/* "accept_key =" or the keyfile's further lines: accepted too, never sent. */
	uint8_t accepted[FTD_KEYS_ACCEPTED_MAX][FTD_KEY_LEN];
	unsigned int n_accepted;
	bool has_node;			/* "node =": the local node */
	uint32_t node;
	enum ftctl_conf_xdp xdp;	/* "xdp =" */
	bool tc;			/* "tc = on": TC egress transmit stamps */
	uint8_t rdma_rails;		/* "rdma =": bit i, rail i's heartbeats over RDMA */
	/* "rdma = RAIL@DEVICE[/PORT]": the RDMA port that rail must be on. */
	struct ftctl_conf_rdma {
		char device[64];	/* "": not named */
		uint32_t port;		/* 0: any of the device's */
	} rdma_dev[FTD_MAX_RAILS];
	struct ftctl_conf_node *nodes;	/* file order */
	size_t nr_nodes;
	size_t cap_nodes;
};

/* Enough for "<path>:<line>: <message>" with a long path. */
#define FTCTL_CONF_ERRSZ 512

/*
 * Parse a whole config from `f`; `name` is how errors refer to the file.
 * On error returns -1 with "name:line: message" (or "name: message" for
 * whole-file problems) in err; *conf is then empty and needs no free.
 */
int ftctl_conf_parse(FILE *f, const char *name, struct ftctl_conf *conf,
		     char *err, size_t errlen);

/*
 * ftctl_conf_parse() on the file at `path`. A relative "keyfile =" is
 * found from the directory of `name` (of `path`).
 */
int ftctl_conf_load(const char *path, struct ftctl_conf *conf, char *err, size_t errlen);

void ftctl_conf_free(struct ftctl_conf *conf);

/* "off", "auto", "native", "generic". */
const char *ftctl_conf_xdp_name(enum ftctl_conf_xdp x);

/* The node with this id, or NULL. */
const struct ftctl_conf_node *ftctl_conf_find(const struct ftctl_conf *conf, uint32_t id);

/* A key as the file writes it: exactly 32 hex digits. 0, or -1. */
int ftctl_parse_key(const char *s, uint8_t key[FTD_KEY_LEN]);

#endif /* FTCTL_CONFIG_H */
