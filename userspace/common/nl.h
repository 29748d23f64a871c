/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The generic netlink socket to the ftdetect family: open and resolve,
 * send one request and run a callback for every reply, report the kernel's
 * errors with their extack message, join a multicast group.
 *
 * libnl 3.7 (Debian 12) has no extended-ACK support of its own: we turn on
 * NETLINK_EXT_ACK on the socket and read NLMSGERR_ATTR_MSG from the error
 * message ourselves, with libnl's nla_parse().
 */
#ifndef FTU_NL_H
#define FTU_NL_H

#include <stdint.h>

#include <netlink/netlink.h>

#define FTU_EXTACK_MAX 256

struct ftu_nl {
	struct nl_sock *sk;
	int family;
	/* Of the last failed ftu_nl_call(): */
	int nlerr;			/* libnl error (NLE_*), 0 if the kernel answered */
	char extack[FTU_EXTACK_MAX];	/* kernel's extack message, "" if none */
};

/*
 * Connect and resolve `family` (FTDETECT_GENL_NAME for the tools). Prints
 * the error and returns -errno on failure; -ENOENT means the family is not
 * registered, i.e. the module is not loaded.
 */
int ftu_nl_open(struct ftu_nl *nl, const char *family);
void ftu_nl_close(struct ftu_nl *nl);

/* A request message for `cmd` with a genl header; NULL when out of memory. */
struct nl_msg *ftu_nl_msg(struct ftu_nl *nl, uint8_t cmd, int flags);

/*
 * Called for each reply message (each part of a dump). Return 0, or -errno
 * to make ftu_nl_call() fail with it; the remaining replies are still read
 * (and ignored) so that the socket stays in step with the kernel.
 */
typedef int (*ftu_nl_reply_fn)(struct nl_msg *msg, void *arg);

/*
 * Send `msg` (consumed, even on error; NULL gives -ENOMEM, so the result
 * of ftu_nl_msg() can be passed directly), then read replies until the kernel's
 * ACK, the end of a dump, or an error. `fn` may be NULL. Returns 0 or
 * -errno; on error nl->extack and nl->nlerr describe it for ftu_nl_perror().
 */
int ftu_nl_call(struct ftu_nl *nl, struct nl_msg *msg, ftu_nl_reply_fn fn, void *arg);

/* Print "<prog>: <op>: <strerror>[: <extack>]" for an ftu_nl_call() error. */
void ftu_nl_perror(const struct ftu_nl *nl, const char *op, int err);

/*
 * Join the multicast group `group` of the family, for a socket that will
 * only listen from now on. Sequence checks are turned off in the socket's
 * default callbacks; a caller with its own struct nl_cb must also accept
 * any sequence number (NL_CB_SEQ_CHECK), multicast messages have 0.
 * Prints the error and returns -errno on failure.
 */
int ftu_nl_subscribe(struct ftu_nl *nl, const char *family, const char *group);

/*
 * Parse the extack message out of a NLMSG_ERROR (or NLMSG_DONE) message
 * `nlh` into buf ("" if there is none). Exposed for tests.
 */
void ftu_nl_extack(const struct nlmsghdr *nlh, char *buf, size_t len);

#endif /* FTU_NL_H */
