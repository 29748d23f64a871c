/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A node's rail address: IPv4 or IPv6, as the config file, the netlink
 * family (FTDETECT_A_ADDR_INET / _INET6) and the host's interfaces know it.
 */
#ifndef FTU_ADDR_H
#define FTU_ADDR_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>

struct ftu_addr {
	int family;			/* AF_INET or AF_INET6 */
	union {
		struct in_addr in;	/* network byte order, as on the wire */
		struct in6_addr in6;
	};
};

/* INET6_ADDRSTRLEN covers both families. */
#define FTU_ADDR_BUFSZ INET6_ADDRSTRLEN

/* Parse a numeric IPv4 or IPv6 address (inet_pton); 0 or -1. */
int ftu_addr_parse(const char *s, struct ftu_addr *a);

/* Print an address in its canonical text form; returns buf. */
const char *ftu_addr_format(const struct ftu_addr *a, char *buf, size_t len);

/* Total order (family first) for sorting and duplicate detection. */
int ftu_addr_cmp(const struct ftu_addr *a, const struct ftu_addr *b);

/* A usable heartbeat destination: not unspecified, multicast or broadcast. */
bool ftu_addr_is_unicast(const struct ftu_addr *a);

/* Fill *a from a sockaddr of family AF_INET/AF_INET6; -1 for other families. */
int ftu_addr_from_sockaddr(const struct sockaddr *sa, struct ftu_addr *a);

#endif /* FTU_ADDR_H */
