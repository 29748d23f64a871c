/* SPDX-License-Identifier: GPL-2.0 */
/* The generic netlink family "ftdetect": configuration, dumps, events. */
#ifndef FTD_GENL_H
#define FTD_GENL_H

#include "net.h"

int ftd_genl_init(void);
void ftd_genl_exit(void);

/* Multicast ev on the "events" group of fn's namespace. Any context. */
void ftd_genl_event(struct ftd_net *fn, const struct ftd_event *ev);

#endif
