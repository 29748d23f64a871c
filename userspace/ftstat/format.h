/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ftstat's output: the node table (text and JSON) and event lines (text and
 * JSON Lines). Pure formatting of decoded structs, unit-tested without the
 * module; the netlink side is in nodes.c and watch.c.
 */
#ifndef FTSTAT_FORMAT_H
#define FTSTAT_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/ftdetect.h>

#include "common/msg.h"
#include "status.h"

/*
 * Node table, then one line about the instance; `rails`: a row per rail.
 * A STAMP column (where arrival times come from) appears when the module
 * reports it. With `eb`, a line says which interfaces carry the eBPF
 * programs, in which mode, when any does.
 */
void ftstat_print_nodes(FILE *f, const struct ftu_config *cfg,
			const struct ftu_node *nodes, size_t n, bool rails,
			const struct ftd_ebpf_status *eb);

/*
 * The same as one JSON object on one line; each rail carries "stamp" and
 * "driver_delay" when reported, and with `eb` an "ebpf" member says where
 * the programs are.
 */
void ftstat_print_nodes_json(FILE *f, const struct ftu_config *cfg,
			     const struct ftu_node *nodes, size_t n,
			     const struct ftd_ebpf_status *eb);

/*
 * ftstat --delays: per rail of every peer, the timestamp source and the
 * driver-to-module delay distribution (min/mean/max and the histogram's
 * non-empty buckets), then the instance and eBPF lines.
 */
void ftstat_print_delays(FILE *f, const struct ftu_config *cfg,
			 const struct ftu_node *nodes, size_t n,
			 const struct ftd_ebpf_status *eb);

/* "<1us", "1-2us", ..., ">=16384us": the histogram bucket's label. */
const char *ftstat_delay_bucket_label(unsigned int b, char *buf, size_t len);
/* The name of an enum ftd_rdma_state ("active"), or its number if newer. */
const char *ftstat_rdma_state_name(uint8_t state, char *buf, size_t len);

/*
 * One event, one line:
 *   2026-11-22T10:00:00.123456789Z NODE_DEAD node 3 incarnation 1 origin 1
 * Fields appear only where they mean something for the type.
 */
void ftstat_print_event(FILE *f, const struct ftd_event *ev);
void ftstat_print_event_json(FILE *f, const struct ftd_event *ev);

/* The event as text without its time: "NODE_DEAD node 3 incarnation 2 ...". */
void ftstat_print_event_text(FILE *f, const struct ftd_event *ev);

/*
 * The event as variables, "FTD_EVENT_JSON=<the JSON line>" first, then
 * "FTD_EVENT=NODE_DEAD", "FTD_NODE=3", ...: a hook's environment, the
 * journal's fields. NULL-terminated, in `buf` (`len` bytes) and `env` (`n`
 * pointers); -1 if they do not fit.
 */
int ftstat_event_vars(const struct ftd_event *ev, char *buf, size_t len, char **env, size_t n);

/*
 * Events were lost between the kernel and us (the socket's receive buffer
 * overran: ENOBUFS); how many is unknown. `now_ns` is CLOCK_REALTIME.
 */
void ftstat_print_overflow(FILE *f, uint64_t now_ns, bool json);

/*
 * Frames from its address came with a MAC none of our keys makes, and none
 * was accepted since ("(bad key)", bad_key).
 */
bool ftstat_node_bad_key(const struct ftu_node *n);

/* "2026-11-22T10:00:00.123456789Z" for a CLOCK_REALTIME time in ns. */
char *ftstat_format_time(uint64_t ns, char *buf, size_t len);

#define FTSTAT_TIME_BUFSZ 40

#endif /* FTSTAT_FORMAT_H */
