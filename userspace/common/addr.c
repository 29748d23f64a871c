// SPDX-License-Identifier: GPL-2.0-only
#include "common/addr.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

int ftu_addr_parse(const char *s, struct ftu_addr *a)
{
	memset(a, 0, sizeof(*a));
	if (inet_pton(AF_INET, s, &a->in) == 1) {
		a->family = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, s, &a->in6) == 1) {
		a->family = AF_INET6;
		return 0;
	}
	return -1;
}

const char *ftu_addr_format(const struct ftu_addr *a, char *buf, size_t len)
{
	const void *src = a->family == AF_INET ? (const void *)&a->in : (const void *)&a->in6;

	if ((a->family != AF_INET && a->family != AF_INET6) ||
	    !inet_ntop(a->family, src, buf, (socklen_t)len))
		snprintf(buf, len, "?");
	return buf;
}

int ftu_addr_cmp(const struct ftu_addr *a, const struct ftu_addr *b)
{
	if (a->family != b->family)
		return a->family < b->family ? -1 : 1;
	if (a->family == AF_INET)
		return memcmp(&a->in, &b->in, sizeof(a->in));
	return memcmp(&a->in6, &b->in6, sizeof(a->in6));
}

bool ftu_addr_is_unicast(const struct ftu_addr *a)
{
	if (a->family == AF_INET) {
		uint32_t h = ntohl(a->in.s_addr);

		return h != INADDR_ANY && h != INADDR_BROADCAST && !IN_MULTICAST(h);
	}
	return !IN6_IS_ADDR_UNSPECIFIED(&a->in6) && !IN6_IS_ADDR_MULTICAST(&a->in6);
}

int ftu_addr_from_sockaddr(const struct sockaddr *sa, struct ftu_addr *a)
{
	memset(a, 0, sizeof(*a));
	if (sa->sa_family == AF_INET) {
		a->family = AF_INET;
		a->in = ((const struct sockaddr_in *)sa)->sin_addr;
		return 0;
	}
	if (sa->sa_family == AF_INET6) {
		a->family = AF_INET6;
		a->in6 = ((const struct sockaddr_in6 *)sa)->sin6_addr;
		return 0;
	}
	return -1;
}
