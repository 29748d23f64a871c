/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Names of the uapi enums as the tools print them. The event names are the
 * CIFTS FTB vocabulary documented in <linux/ftdetect.h>; scripts match on
 * them, so they never change once released.
 */
#ifndef FTU_NAMES_H
#define FTU_NAMES_H

#include <stddef.h>

/* "NODE_DEAD" for FTD_EV_NODE_DEAD; NULL for a type this build does not know. */
const char *ftu_event_name(unsigned int type);

/* Inverse of ftu_event_name(), case-insensitive; -1 if unknown. */
int ftu_event_type(const char *name);

/* "alive" for FTD_NODE_ALIVE; NULL for a state this build does not know. */
const char *ftu_node_state_name(unsigned int state);

/* "xdp" for FTD_STAMP_XDP ("none", "skb", "module"); NULL if unknown. */
const char *ftu_stamp_name(unsigned int source);
/* A rail mask (FTDETECT_A_RDMA_RAILS) as the config writes it: "0,1", or "none". */
#define FTU_RAILS_BUFSZ 16
const char *ftu_rails_format(unsigned int mask, char *buf, size_t len);

#endif /* FTU_NAMES_H */
