// SPDX-License-Identifier: GPL-2.0-only
/*
 * Request/response over the ftdetect generic netlink family, with libnl.
 *
 * Every request is sent with NLM_F_ACK (libnl's auto-ACK), so the end of an
 * exchange is always explicit: an ACK, an error, or NLMSG_DONE for a dump.
 * ftu_nl_call() reads until then, whatever the reply callback says, so that
 * a failed callback never leaves stale replies behind on the socket.
 */
#define _GNU_SOURCE
#include "common/nl.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/socket.h>

#include <linux/ftdetect.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

/* Events are multicast in bursts (a node death reaches every observer at
 * once); a roomy receive buffer makes ENOBUFS rare. It is never silent. */
#define EVENT_RCVBUF (1 << 20)

__attribute__((format(printf, 1, 2)))
static void report(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", program_invocation_short_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int ftu_nl_open(struct ftu_nl *nl, const char *family)
{
	int one = 1, err;

	memset(nl, 0, sizeof(*nl));
	nl->sk = nl_socket_alloc();
	if (!nl->sk) {
		report("out of memory");
		return -ENOMEM;
	}
	err = genl_connect(nl->sk);
	if (err < 0) {
		report("cannot open a generic netlink socket: %s", nl_geterror(err));
		ftu_nl_close(nl);
		return -EIO;
	}
	/*
	 * Ask for the extack message on errors, and for errors that do not
	 * echo our whole request back. Both exist since Linux 4.12/4.3; if
	 * the kernel is older we only lose the message text.
	 */
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));

	nl->family = genl_ctrl_resolve(nl->sk, family);
	if (nl->family < 0) {
		err = nl->family;
		if (err == -NLE_OBJ_NOTFOUND && !strcmp(family, FTDETECT_GENL_NAME))
			report("%s module not loaded (modprobe %s)", family, family);
		else if (err == -NLE_OBJ_NOTFOUND)
			report("generic netlink family '%s' not found", family);
		else
			report("cannot resolve generic netlink family '%s': %s", family,
			       nl_geterror(err));
		ftu_nl_close(nl);
		return err == -NLE_OBJ_NOTFOUND ? -ENOENT : -EIO;
	}
	return 0;
}

void ftu_nl_close(struct ftu_nl *nl)
{
	nl_socket_free(nl->sk);	/* NULL-safe */
	nl->sk = NULL;
}

struct nl_msg *ftu_nl_msg(struct ftu_nl *nl, uint8_t cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (msg && !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0, flags,
				cmd, FTDETECT_GENL_VERSION)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return msg;
}

void ftu_nl_extack(const struct nlmsghdr *nlh, char *buf, size_t len)
{
	static const struct nla_policy policy[NLMSGERR_ATTR_MAX + 1] = {
		[NLMSGERR_ATTR_MSG] = { .type = NLA_STRING },
	};
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	char *data = nlmsg_data(nlh);
	int datalen = nlmsg_datalen(nlh);
	size_t off;

	if (len)
		buf[0] = '\0';
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	/*
	 * The TLVs follow the fixed part: for NLMSG_DONE an int (the dump's
	 * error code); for NLMSG_ERROR a struct nlmsgerr plus, unless the
	 * kernel capped it (NETLINK_CAP_ACK), the payload of our request.
	 */
	if (nlh->nlmsg_type == NLMSG_DONE) {
		off = sizeof(int);
	} else {
		const struct nlmsgerr *e = (const struct nlmsgerr *)data;

		if (datalen < (int)sizeof(*e))
			return;
		off = sizeof(*e);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED) && e->msg.nlmsg_len > NLMSG_HDRLEN)
			off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	}
	off = NLMSG_ALIGN(off);
	if (off >= (size_t)datalen)
		return;
	if (nla_parse(tb, NLMSGERR_ATTR_MAX, (struct nlattr *)(data + off),
		      datalen - (int)off, policy) < 0)
		return;
	if (tb[NLMSGERR_ATTR_MSG])
		nla_strlcpy(buf, tb[NLMSGERR_ATTR_MSG], len);
}

struct call {
	struct ftu_nl *nl;
	ftu_nl_reply_fn fn;
	void *arg;
	int err;	/* first error: kernel's or the callback's */
	bool done;
	bool bad_reply;	/* the callback could not decode a reply */
};

static int on_valid(struct nl_msg *msg, void *arg)
{
	struct call *c = arg;

	if (c->fn && !c->err) {
		int err = c->fn(msg, c->arg);

		if (err < 0) {
			c->err = err;
			c->bad_reply = err == -EPROTO;
		}
	}
	return NL_OK;
}

static int on_ack(struct nl_msg *msg, void *arg)
{
	struct call *c = arg;

	(void)msg;
	c->done = true;
	return NL_STOP;
}

/* End of a dump; since Linux 4.x its payload is the dump's error code. */
static int on_finish(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct call *c = arg;
	int err;

	if (nlmsg_datalen(nlh) >= (int)sizeof(err)) {
		memcpy(&err, nlmsg_data(nlh), sizeof(err));
		if (err < 0 && !c->err) {
			c->err = err;
			ftu_nl_extack(nlh, c->nl->extack, sizeof(c->nl->extack));
		}
	}
	c->done = true;
	return NL_STOP;
}

static int on_error(struct sockaddr_nl *who, struct nlmsgerr *e, void *arg)
{
	/* libnl hands us the payload of the NLMSG_ERROR message; its header
	 * (with the NLM_F_ACK_TLVS flag) sits right before it. */
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	struct call *c = arg;

	(void)who;
	if (!c->err) {
		c->err = e->error < 0 ? e->error : -EPROTO;
		ftu_nl_extack(nlh, c->nl->extack, sizeof(c->nl->extack));
	}
	c->done = true;
	return NL_STOP;
}

int ftu_nl_call(struct ftu_nl *nl, struct nl_msg *msg, ftu_nl_reply_fn fn, void *arg)
{
	struct call c = { .nl = nl, .fn = fn, .arg = arg };
	struct nl_cb *cb;
	int err;

	nl->nlerr = 0;
	nl->extack[0] = '\0';
	if (!msg) {		/* so that ftu_nl_call(nl, ftu_nl_msg(...), ...) is safe */
		nl->nlerr = NLE_NOMEM;
		return -ENOMEM;
	}

	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb) {
		nlmsg_free(msg);
		nl->nlerr = NLE_NOMEM;
		return -ENOMEM;
	}
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, &c);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, &c);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_finish, &c);
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, &c);

	err = nl_send_auto(nl->sk, msg);
	nlmsg_free(msg);
	if (err < 0) {
		nl->nlerr = -err;
		c.err = -EIO;
		goto out;
	}
	while (!c.done) {
		err = nl_recvmsgs(nl->sk, cb);
		/* After on_error() libnl returns the kernel's error, already
		 * recorded; any other failure is libnl's own. */
		if (err < 0 && !c.done) {
			nl->nlerr = -err;
			c.err = err == -NLE_NOMEM ? -ENOMEM : -EIO;
			break;
		}
	}
out:
	nl_cb_put(cb);
	if (c.bad_reply && !nl->nlerr)
		snprintf(nl->extack, sizeof(nl->extack),
			 "malformed reply (module and tools built from different ftdetect.h?)");
	return c.err;
}

void ftu_nl_perror(const struct ftu_nl *nl, const char *op, int err)
{
	if (nl->nlerr)
		fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name, op,
			nl_geterror(nl->nlerr));
	else if (nl->extack[0])
		fprintf(stderr, "%s: %s: %s: %s\n", program_invocation_short_name, op,
			strerror(-err), nl->extack);
	else
		fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name, op,
			strerror(-err));
}

int ftu_nl_subscribe(struct ftu_nl *nl, const char *family, const char *group)
{
	int grp, err;

	grp = genl_ctrl_resolve_grp(nl->sk, family, group);
	if (grp < 0) {
		if (grp == -NLE_OBJ_NOTFOUND)
			report("family '%s' has no multicast group '%s'", family, group);
		else
			report("cannot resolve multicast group '%s': %s", group, nl_geterror(grp));
		return grp == -NLE_OBJ_NOTFOUND ? -ENOENT : -EIO;
	}
	/* Events are not replies to anything we sent. */
	nl_socket_disable_seq_check(nl->sk);
	err = nl_socket_add_membership(nl->sk, grp);
	if (err < 0) {
		report("cannot join multicast group '%s': %s", group, nl_geterror(err));
		return -EIO;
	}
	/* Past net.core.rmem_max needs CAP_NET_ADMIN; try that first. */
	if (setsockopt(nl_socket_get_fd(nl->sk), SOL_SOCKET, SO_RCVBUFFORCE,
		       &(int){ EVENT_RCVBUF }, sizeof(int)))
		setsockopt(nl_socket_get_fd(nl->sk), SOL_SOCKET, SO_RCVBUF,
			   &(int){ EVENT_RCVBUF }, sizeof(int));
	return 0;
}
