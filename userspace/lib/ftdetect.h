/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/*
 * libftdetect: the MPI-side view of /dev/ftdetect, with no MPI dependency.
 *
 *   struct ftd_handle *h = ftd_open(NULL);        // this network namespace's instance
 *   ftd_register(h, job, rank);                   // this process is (job, rank)
 *   poll on ftd_fd(h), then ftd_next_event(h, &ev, FTD_NONBLOCK) until -EAGAIN
 *   ftd_deregister(h); ftd_close(h);              // clean exit: PROC_EXIT, not PROC_DEAD
 *
 * Functions return 0 or a negative errno; ftd_strerror() explains it in the
 * context of the last call on the handle. A handle may be used from several
 * threads; events are delivered once, to whichever thread reads them.
 */
#ifndef FTDETECT_LIB_H
#define FTDETECT_LIB_H

#include <stdint.h>
#include <linux/ftdetect.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FTD_DEVICE_PATH "/dev/ftdetect"

struct ftd_handle;

enum ftd_flags {
	FTD_NONBLOCK = 1 << 0,	/* ftd_next_event: -EAGAIN instead of waiting */
};

/* Open path (NULL: FTD_DEVICE_PATH). Returns NULL with errno set. */
struct ftd_handle *ftd_open(const char *path);
void ftd_close(struct ftd_handle *h);
/* For poll/epoll: readable when an event is pending. */
int ftd_fd(const struct ftd_handle *h);

int ftd_register(struct ftd_handle *h, uint32_t job, uint32_t rank);
int ftd_deregister(struct ftd_handle *h);
int ftd_info(struct ftd_handle *h, struct ftd_info *info);

/* Next event into ev; flags FTD_NONBLOCK. -EAGAIN when none (non-blocking). */
int ftd_next_event(struct ftd_handle *h, struct ftd_event *ev, unsigned int flags);

/* "NODE_DEAD" etc.; "UNKNOWN" for a type this library does not know. */
const char *ftd_event_name(uint16_t type);

/* A message for err (negative errno) as returned by this library. */
const char *ftd_strerror(int err);

#ifdef __cplusplus
}
#endif
#endif
