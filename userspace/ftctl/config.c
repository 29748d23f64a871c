// SPDX-License-Identifier: GPL-2.0-only
/*
 * Config file parser. The format is deliberately small and strict: every
 * mistake an admin can make in a hostfile (a typo in a key, a node listed
 * twice, an address reused, a timeout shorter than two periods) is an error
 * that names the file and line, because a cluster that half-applies a wrong
 * config produces false failure reports, which are worse than no detector.
 *
 * Strictness is also what keeps the format extensible: an unknown key is an
 * error today, so giving it a meaning tomorrow breaks no existing file.
 */
#define _GNU_SOURCE
#include "ftctl/config.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/duration.h"

enum ckey { K_ID, K_PORT, K_PERIOD, K_TIMEOUT, K_KEY, K_NODE, K_OBSERVERS, K_QUORUM, K_XDP, K_TC,
	    K_KEYFILE, K_ACCEPT_KEY, K_RDMA, NKEYS };

static const char *const key_names[NKEYS] = {
	[K_ID] = "id",
	[K_PORT] = "port",
	[K_PERIOD] = "period",
	[K_TIMEOUT] = "timeout",
	[K_KEY] = "key",
	[K_NODE] = "node",
	[K_OBSERVERS] = "observers",
	[K_QUORUM] = "quorum",
	[K_XDP] = "xdp",
	[K_TC] = "tc",
	[K_KEYFILE] = "keyfile",
	[K_ACCEPT_KEY] = "accept_key",
	[K_RDMA] = "rdma",
};

static const char *const xdp_names[] = {
	[FTCTL_XDP_OFF] = "off",
	[FTCTL_XDP_AUTO] = "auto",
	[FTCTL_XDP_NATIVE] = "native",
	[FTCTL_XDP_GENERIC] = "generic",
};

const char *ftctl_conf_xdp_name(enum ftctl_conf_xdp x)
{
	return (unsigned int)x < sizeof(xdp_names) / sizeof(xdp_names[0]) ? xdp_names[x] : "?";
}

enum section { SEC_NONE, SEC_CLUSTER, SEC_NODES };

struct parser {
	const char *name;
	unsigned int line;
	char *err;
	size_t errlen;
	struct ftctl_conf *c;
	enum section sec;
	unsigned int key_line[NKEYS];	/* where each key was set; 0: not set */
};

static const char *shown(const char *s, char *buf, size_t len);
static int hexval(char c);

/*
 * Record "name:line: message" (line 0: "name: message"); returns -1. The
 * message withholds every run of 16 or more hex digits (see shown()):
 * whatever a message quotes (a node id, an address, a section name...)
 * may be a key pasted in the wrong place.
 */
__attribute__((format(printf, 3, 4)))
static int fail(struct parser *p, unsigned int line, const char *fmt, ...)
{
	char msg[FTCTL_CONF_ERRSZ];
	va_list ap;
	int n, m;

	if (line)
		n = snprintf(p->err, p->errlen, "%s:%u: ", p->name, line);
	else
		n = snprintf(p->err, p->errlen, "%s: ", p->name);
	if (n < 0 || (size_t)n >= p->errlen)
		return -1;
	va_start(ap, fmt);
	m = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* Cut short: a run of hex digits at the cut may be a key's first
	 * 15 or fewer digits, too short to be withheld below. Drop it. */
	if (m >= (int)sizeof(msg)) {
		size_t end = strlen(msg);

		while (end && hexval(msg[end - 1]) >= 0)
			end--;
		msg[end] = '\0';
	}
	shown(msg, p->err + n, p->errlen - (size_t)n);
	explicit_bzero(msg, sizeof(msg));
	return -1;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

static char *trim(char *s)
{
	char *end;

	while (is_space(*s))
		s++;
	end = s + strlen(s);
	while (end > s && is_space(end[-1]))
		*--end = '\0';
	return s;
}

/* Strict unsigned decimal: digits only, no sign, no base prefix. */
static int parse_u32(const char *s, uint32_t *v)
{
	uint64_t x = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		x = x * 10 + (uint64_t)(*s - '0');
		if (x > UINT32_MAX)
			return -1;
	}
	*v = (uint32_t)x;
	return 0;
}

static int parse_node_id(const char *s, uint32_t *v)
{
	/* FTD_NODE_NONE means "no node" in the uapi; it cannot name one. */
	return parse_u32(s, v) || *v == FTD_NODE_NONE ? -1 : 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int ftctl_parse_key(const char *s, uint8_t key[FTD_KEY_LEN])
{
	if (strlen(s) != 2 * FTD_KEY_LEN)
		return -1;
	for (int i = 0; i < FTD_KEY_LEN; i++) {
		int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		key[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

/* Add one accepted key (hex at s) to c; a message for fail() if it cannot be. */
static const char *accept_key(struct ftctl_conf *c, const char *s)
{
	uint8_t k[FTD_KEY_LEN];

	if (ftctl_parse_key(s, k))
		return "bad key: expected 32 hex digits (16 bytes)";
	if (c->has_key && !memcmp(k, c->key, FTD_KEY_LEN))
		return "an accepted key equal to the key itself";
	for (unsigned int i = 0; i < c->n_accepted; i++)
		if (!memcmp(k, c->accepted[i], FTD_KEY_LEN))
			return "the same accepted key twice";
	if (c->n_accepted == FTD_KEYS_ACCEPTED_MAX)
		return "more than 3 accepted keys";
	memcpy(c->accepted[c->n_accepted++], k, FTD_KEY_LEN);
	return NULL;
}

/*
 * The keys of a keyfile: one per line (blank lines and # comments aside),
 * the first signs, the others are accepted. It must be a regular file that
 * only its owner, root or the caller, can read or write: it is the
 * cluster's secret, and anyone who reads it can forge any node.
 */
static int load_keyfile(struct parser *p, const char *v)
{
	char path[4096], *line = NULL, *hash;
	unsigned int nr = 0, keys = 0;
	const char *slash = strrchr(p->name, '/'), *why;
	struct ftctl_conf *c = p->c;
	size_t cap = 0;
	struct stat st;
	int fd, ret = -1;
	FILE *f;

	if (v[0] != '/' && slash)
		snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - p->name), p->name, v);
	else
		snprintf(path, sizeof(path), "%s", v);
	/* Not blocking: a FIFO named here must not hang apply. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0 && errno == ELOOP)
		return fail(p, p->line, "keyfile %s is a symbolic link: name the file itself "
			    "(a link's target could change under a checked name)", path);
	if (fd < 0)
		return fail(p, p->line, "keyfile %s: %s", path, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return fail(p, p->line, "keyfile %s is not a regular file", path);
	}
	if (st.st_mode & (S_IRWXG | S_IRWXO)) {
		close(fd);
		return fail(p, p->line, "keyfile %s is open to its group or others "
			    "(mode %03o): chmod 600 %s", path, st.st_mode & 0777, path);
	}
	if (st.st_uid != 0 && st.st_uid != geteuid()) {
		close(fd);
		return fail(p, p->line, "keyfile %s belongs to uid %u, not to root or to us",
			    path, (unsigned int)st.st_uid);
	}
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return fail(p, p->line, "keyfile %s: %s", path, strerror(errno));
	}
	while (getline(&line, &cap, f) >= 0) {
		char *k;

		nr++;
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		k = trim(line);
		if (!*k)
			continue;
		if (!keys) {
			if (ftctl_parse_key(k, c->key)) {
				fail(p, p->line, "keyfile %s:%u: bad key: expected 32 hex digits "
				     "(16 bytes; ftctl genkey makes one)", path, nr);
				goto out;
			}
			c->has_key = true;
		} else if ((why = accept_key(c, k))) {
			fail(p, p->line, "keyfile %s:%u: %s", path, nr, why);
			goto out;
		}
		keys++;
	}
	if (ferror(f))
		fail(p, p->line, "keyfile %s: read error", path);
	else if (!keys)
		fail(p, p->line, "keyfile %s holds no key (ftctl genkey makes one)", path);
	else
		ret = 0;
	c->keyfile = !ret;
out:
	/* Not left in freed memory: it is the secret. */
	if (line)
		explicit_bzero(line, cap);
	free(line);
	fclose(f);
	return ret;
}

/*
 * An error message may quote the file: a run of 16 or more hex digits (a
 * key, or most of one) is withheld, so that a misplaced key never prints
 * the cluster's secret on a terminal or into a log.
 */
static const char *shown(const char *s, char *buf, size_t len)
{
	static const char held[] = "[hex withheld]";
	size_t o = 0;

	if (!len)
		return buf;
	/* Filled up to len - 1 exactly: a short buffer gets a prefix of the
	 * message a long one gets (fuzz_config checks it). */
	while (*s && o < len - 1) {
		const char *from = s;
		size_t run = 0, n;

		while (hexval(s[run]) >= 0)
			run++;
		if (run >= 16) {
			from = held;
			n = sizeof(held) - 1;
		} else {
			run = run ? run : 1;
			n = run;
		}
		if (n > len - 1 - o)
			n = len - 1 - o;
		memcpy(buf + o, from, n);
		o += n;
		s += run;
	}
	buf[o] = '\0';
	return buf;
}

static int parse_period(struct parser *p, const char *key, const char *v, uint64_t *ns,
			uint64_t min, uint64_t max)
{
	char a[FTU_DURATION_BUFSZ], b[FTU_DURATION_BUFSZ];
	const char *why;

	if (ftu_duration_parse(v, ns, &why))
		return fail(p, p->line, "bad %s '%s': %s", key, v, why);
	if (*ns < min || *ns > max)
		return fail(p, p->line, "%s %s out of range (%s..%s)", key, v,
			    ftu_duration_format(min, a, sizeof(a)),
			    ftu_duration_format(max, b, sizeof(b)));
	return 0;
}

/* An RDMA device name as rdma-core writes them ("mlx5_0", "rxe0"). */
static bool rdma_device_name(const char *s)
{
	size_t n = strlen(s);

	if (!n || n >= sizeof(((struct ftctl_conf_rdma *)0)->device))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_.-", *s))
			return false;
	return true;
}

/*
 * "rdma = 1" or "rdma = 0, 1": rail numbers; "none": no rail. A rail may
 * name the RDMA device, and port, it must be on: "1@mlx5_1" or "1@mlx5_1/1".
 */
static int parse_rdma_rails(struct parser *p, char *v)
{
	char *tok, *save = NULL, *dev, *port;
	uint32_t r, pn;

	p->c->rdma_rails = 0;
	if (!strcmp(v, "none"))
		return 0;
	for (tok = strtok_r(v, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
		dev = strchr(tok, '@');
		if (dev)
			*dev++ = '\0';
		if (parse_u32(tok, &r) || r >= FTD_MAX_RAILS)
			return fail(p, p->line, "bad rdma rail '%s' (expected rail numbers "
				    "0..%d, comma-separated, or none)", tok, FTD_MAX_RAILS - 1);
		if (p->c->rdma_rails & (1U << r))
			return fail(p, p->line, "rdma: rail %u given twice", r);
		p->c->rdma_rails |= (uint8_t)(1U << r);
		if (!dev)
			continue;
		port = strchr(dev, '/');
		if (port)
			*port++ = '\0';
		if (!rdma_device_name(dev))
			return fail(p, p->line, "rdma: rail %u: bad RDMA device name '%s' "
				    "(expected RAIL@DEVICE or RAIL@DEVICE/PORT, e.g. 1@mlx5_0/1)",
				    r, dev);
		if (port && (parse_u32(port, &pn) || pn < 1 || pn > 255))
			return fail(p, p->line, "rdma: rail %u: bad port '%s' of %s "
				    "(expected 1..255)", r, port, dev);
		strcpy(p->c->rdma_dev[r].device, dev);
		p->c->rdma_dev[r].port = port ? pn : 0;
	}
	if (!p->c->rdma_rails)
		return fail(p, p->line, "rdma: no rail given (rail numbers, or none)");
	return 0;
}

static int cluster_line(struct parser *p, char *s)
{
	struct ftctl_conf *c = p->c;
	char *eq = strchr(s, '='), *k, *v;
	uint32_t u;
	int i;

	if (!eq)
		return fail(p, p->line, "expected 'key = value' in [cluster], got '%s'", s);
	*eq = '\0';
	k = trim(s);
	v = trim(eq + 1);
	if (!*k)
		return fail(p, p->line, "missing key before '='");
	for (i = 0; i < NKEYS; i++)
		if (!strcmp(k, key_names[i]))
			break;
	if (i == NKEYS)
		return fail(p, p->line, "unknown key '%s' in [cluster]", k);
	if (p->key_line[i])
		return fail(p, p->line, "duplicate key '%s' (first set on line %u)", k,
			    p->key_line[i]);
	if (!*v)
		return fail(p, p->line, "missing value for '%s'", k);
	p->key_line[i] = p->line;

	switch (i) {
	case K_ID:
		if (parse_u32(v, &c->cluster))
			return fail(p, p->line, "bad cluster id '%s' (expected 0..%u)", v,
				    UINT32_MAX);
		return 0;
	case K_PORT:
		if (parse_u32(v, &u) || u < 1 || u > 65535)
			return fail(p, p->line, "bad port '%s' (expected 1..65535)", v);
		c->port = (uint16_t)u;
		return 0;
	case K_PERIOD:
		return parse_period(p, k, v, &c->period_ns, FTD_MIN_PERIOD_NS,
				    FTD_MAX_PERIOD_NS);
	case K_TIMEOUT:
		/* The lower bound depends on the period: checked at the end. */
		return parse_period(p, k, v, &c->timeout_ns, 2 * FTD_MIN_PERIOD_NS,
				    FTD_MAX_TIMEOUT_NS);
	case K_KEY:
		if (p->key_line[K_KEYFILE])
			return fail(p, p->line, "both key and keyfile (line %u): set one",
				    p->key_line[K_KEYFILE]);
		if (!strcmp(v, "none")) {
			c->key_none = true;
			return 0;
		}
		if (ftctl_parse_key(v, c->key))
			return fail(p, p->line, "bad key: expected %d hex digits (%d bytes; "
				    "ftctl genkey makes one), or none", 2 * FTD_KEY_LEN, FTD_KEY_LEN);
		c->has_key = true;
		return 0;
	case K_KEYFILE:
		if (p->key_line[K_KEY])
			return fail(p, p->line, "both key (line %u) and keyfile: set one",
				    p->key_line[K_KEY]);
		if (p->key_line[K_ACCEPT_KEY])
			return fail(p, p->line, "accept_key (line %u) with a keyfile: list "
				    "accepted keys in the keyfile, after its first key",
				    p->key_line[K_ACCEPT_KEY]);
		return load_keyfile(p, v);
	case K_ACCEPT_KEY: {
		char *save, *tok;
		const char *why;

		if (p->key_line[K_KEYFILE])
			return fail(p, p->line, "accept_key with a keyfile (line %u): list "
				    "accepted keys in the keyfile, after its first key",
				    p->key_line[K_KEYFILE]);
		for (tok = strtok_r(v, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save))
			if ((why = accept_key(c, tok)))
				return fail(p, p->line, "accept_key: %s", why);
		return 0;
	}
	case K_NODE:
		if (parse_node_id(v, &c->node))
			return fail(p, p->line, "bad node id '%s' (expected 0..%u)", v,
				    FTD_NODE_NONE - 1);
		c->has_node = true;
		return 0;
	case K_OBSERVERS:
		if (parse_u32(v, &u) || u < 1 || u > FTD_MAX_OBSERVERS)
			return fail(p, p->line, "bad observers '%s' (expected 1..%d)", v,
				    FTD_MAX_OBSERVERS);
		c->observers = u;
		return 0;
	case K_QUORUM:
		if (parse_u32(v, &u) || u < 1 || u > FTD_MAX_OBSERVERS)
			return fail(p, p->line, "bad quorum '%s' (expected 1..%d)", v,
				    FTD_MAX_OBSERVERS);
		c->quorum = u;
		return 0;
	case K_XDP:
		for (unsigned int x = 0; x < sizeof(xdp_names) / sizeof(xdp_names[0]); x++) {
			if (!strcmp(v, xdp_names[x])) {
				c->xdp = (enum ftctl_conf_xdp)x;
				return 0;
			}
		}
		return fail(p, p->line, "bad xdp '%s' (expected off, auto, native or generic)", v);
	case K_TC:
		if (strcmp(v, "on") && strcmp(v, "off"))
			return fail(p, p->line, "bad tc '%s' (expected on or off)", v);
		c->tc = !strcmp(v, "on");
		return 0;
	case K_RDMA:
		return parse_rdma_rails(p, v);
	}
	return 0;
}

/* Why `a` cannot be a heartbeat address, or NULL if it can. */
static const char *addr_problem(const struct ftu_addr *a)
{
	if (!ftu_addr_is_unicast(a))
		return "is not a unicast address";
	if (a->family == AF_INET) {
		/* 0.0.0.0/8 means "this network"; the module refuses it too. */
		if ((ntohl(a->in.s_addr) >> 24) == 0)
			return "is in 0.0.0.0/8, which is not a usable destination";
		return NULL;
	}
	if (IN6_IS_ADDR_V4MAPPED(&a->in6))
		return "is IPv4-mapped; write the plain IPv4 address";
	if (IN6_IS_ADDR_LINKLOCAL(&a->in6))
		return "is IPv6 link-local, which needs an interface scope the config "
		       "cannot express; use a global or unique-local address";
	return NULL;
}

static int add_node(struct parser *p, const struct ftctl_conf_node *n)
{
	struct ftctl_conf *c = p->c;

	if (c->nr_nodes == c->cap_nodes) {
		size_t cap = c->cap_nodes ? 2 * c->cap_nodes : 16;
		struct ftctl_conf_node *nodes = reallocarray(c->nodes, cap, sizeof(*nodes));

		if (!nodes)
			return fail(p, p->line, "out of memory");
		c->nodes = nodes;
		c->cap_nodes = cap;
	}
	c->nodes[c->nr_nodes++] = *n;
	return 0;
}

static int nodes_line(struct parser *p, char *s)
{
	struct ftctl_conf_node n = { .line = p->line };
	char buf[FTU_ADDR_BUFSZ], *save, *tok;

	tok = strtok_r(s, " \t", &save);
	if (parse_node_id(tok, &n.id))
		return fail(p, p->line, "bad node id '%s' (expected 0..%u, then addresses)",
			    tok, FTD_NODE_NONE - 1);
	while ((tok = strtok_r(NULL, " \t", &save))) {
		struct ftu_addr a;
		const char *why;

		if (n.nr_addrs == FTD_MAX_RAILS)
			return fail(p, p->line, "node %u has more than %d addresses (one per rail)",
				    n.id, FTD_MAX_RAILS);
		if (ftu_addr_parse(tok, &a))
			return fail(p, p->line, "bad address '%s' for node %u "
				    "(expected an IPv4 or IPv6 address)", tok, n.id);
		why = addr_problem(&a);
		if (why)
			return fail(p, p->line, "address %s of node %u %s", tok, n.id, why);
		for (unsigned int i = 0; i < n.nr_addrs; i++)
			if (!ftu_addr_cmp(&a, &n.addrs[i]))
				return fail(p, p->line, "address %s listed twice for node %u",
					    ftu_addr_format(&a, buf, sizeof(buf)), n.id);
		n.addrs[n.nr_addrs++] = a;
	}
	if (!n.nr_addrs)
		return fail(p, p->line, "node %u has no address", n.id);
	return add_node(p, &n);
}

static int section_line(struct parser *p, char *s)
{
	size_t len = strlen(s);
	char *name;

	if (s[len - 1] != ']')
		return fail(p, p->line, "expected ']' at the end of the section header");
	s[len - 1] = '\0';
	name = trim(s + 1);
	if (!strcmp(name, "cluster"))
		p->sec = SEC_CLUSTER;
	else if (!strcmp(name, "nodes"))
		p->sec = SEC_NODES;
	else
		return fail(p, p->line, "unknown section '[%s]' (expected [cluster] or [nodes])",
			    name);
	return 0;
}

static int parse_line(struct parser *p, char *line)
{
	char *hash = strchr(line, '#');
	char *s;

	if (hash)
		*hash = '\0';
	s = trim(line);
	if (!*s)
		return 0;
	if (*s == '[')
		return section_line(p, s);
	switch (p->sec) {
	case SEC_CLUSTER:
		return cluster_line(p, s);
	case SEC_NODES:
		return nodes_line(p, s);
	default:
		return fail(p, p->line, "'%s' is outside any section "
			    "(start with [cluster] or [nodes])", s);
	}
}

/* For duplicate detection by sorting: O(n log n) at 100k nodes. */
struct addr_ref {
	const struct ftu_addr *addr;
	const struct ftctl_conf_node *node;
};

static int cmp_node_id(const void *a, const void *b)
{
	const struct ftctl_conf_node *x = *(const struct ftctl_conf_node *const *)a;
	const struct ftctl_conf_node *y = *(const struct ftctl_conf_node *const *)b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int cmp_addr_ref(const void *a, const void *b)
{
	const struct addr_ref *x = a, *y = b;
	int r = ftu_addr_cmp(x->addr, y->addr);

	if (r)
		return r;
	return x->node->line < y->node->line ? -1 : x->node->line > y->node->line;
}

/*
 * Report the duplicate that appears first in the file, so that fixing
 * errors top to bottom works as with every other error.
 */
static int check_duplicates(struct parser *p)
{
	const struct ftctl_conf *c = p->c;
	const struct ftctl_conf_node **byid = NULL, *dup = NULL, *orig = NULL;
	struct addr_ref *refs = NULL, *adup = NULL, *aorig = NULL;
	size_t nrefs = 0;
	int ret = -1;

	byid = calloc(c->nr_nodes, sizeof(*byid));
	refs = calloc(c->nr_nodes * FTD_MAX_RAILS, sizeof(*refs));
	if (!byid || !refs) {
		fail(p, 0, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < c->nr_nodes; i++) {
		byid[i] = &c->nodes[i];
		for (unsigned int r = 0; r < c->nodes[i].nr_addrs; r++)
			refs[nrefs++] = (struct addr_ref){ &c->nodes[i].addrs[r], &c->nodes[i] };
	}
	qsort(byid, c->nr_nodes, sizeof(*byid), cmp_node_id);
	for (size_t i = 1; i < c->nr_nodes; i++)
		if (byid[i]->id == byid[i - 1]->id && (!dup || byid[i]->line < dup->line)) {
			dup = byid[i];
			/* The first occurrence: walk back over the run of equal ids. */
			for (size_t j = i; j-- > 0 && byid[j]->id == dup->id;)
				orig = byid[j];
		}
	qsort(refs, nrefs, sizeof(*refs), cmp_addr_ref);
	for (size_t i = 1; i < nrefs; i++)
		if (!ftu_addr_cmp(refs[i].addr, refs[i - 1].addr) &&
		    (!adup || refs[i].node->line < adup->node->line)) {
			adup = &refs[i];
			for (size_t j = i; j-- > 0 && !ftu_addr_cmp(refs[j].addr, adup->addr);)
				aorig = &refs[j];
		}

	if (dup && (!adup || dup->line <= adup->node->line)) {
		fail(p, dup->line, "duplicate node id %u (first on line %u)", dup->id, orig->line);
	} else if (adup) {
		char buf[FTU_ADDR_BUFSZ];

		fail(p, adup->node->line, "address %s of node %u is already used by node %u (line %u)",
		     ftu_addr_format(adup->addr, buf, sizeof(buf)), adup->node->id,
		     aorig->node->id, aorig->node->line);
	} else {
		ret = 0;
	}
out:
	free(byid);
	free(refs);
	return ret;
}

/*
 * Rail i of a node talks to rail i of the others (parallel fabrics), so a
 * rail index must be one address family across the cluster.
 */
static int check_rail_families(struct parser *p)
{
	const struct ftctl_conf *c = p->c;
	int family[FTD_MAX_RAILS] = { 0 };
	unsigned int first[FTD_MAX_RAILS] = { 0 };
	size_t i;
	unsigned int r;

	for (i = 0; i < c->nr_nodes; i++) {
		const struct ftctl_conf_node *n = &c->nodes[i];

		for (r = 0; r < n->nr_addrs; r++) {
			if (!family[r]) {
				family[r] = n->addrs[r].family;
				first[r] = n->line;
			} else if (family[r] != n->addrs[r].family) {
				/* Rails count from 0, as in ftstat and the JSON. */
				return fail(p, n->line, "rail %u of node %u is IPv%d, but IPv%d on line %u: "
					    "address i of every node must be of one family",
					    r, n->id, n->addrs[r].family == AF_INET ? 4 : 6,
					    family[r] == AF_INET ? 4 : 6, first[r]);
			}
		}
	}
	return 0;
}

static int check_whole(struct parser *p)
{
	struct ftctl_conf *c = p->c;
	char a[FTU_DURATION_BUFSZ], b[FTU_DURATION_BUFSZ];

	if (!p->key_line[K_ID])
		return fail(p, 0, "no cluster id: add 'id = N' under [cluster]");
	if (!c->nr_nodes)
		return fail(p, 0, "no nodes: list them under [nodes]");
	if (check_duplicates(p) || check_rail_families(p))
		return -1;
	if (c->quorum > c->observers)
		return fail(p, p->key_line[K_QUORUM], "quorum %u exceeds observers %u: "
			    "a node cannot get more votes than it has observers",
			    c->quorum, c->observers);
	if (c->has_node && !ftctl_conf_find(c, c->node))
		return fail(p, p->key_line[K_NODE], "node %u is not listed in [nodes]", c->node);
	for (unsigned int r = 0; r < FTD_MAX_RAILS; r++) {
		bool on_some = false;

		for (size_t i = 0; i < c->nr_nodes; i++)
			on_some |= r < c->nodes[i].nr_addrs;
		if ((c->rdma_rails & (1U << r)) && !on_some)
			return fail(p, p->key_line[K_RDMA], "rdma: rail %u, but no node has %u "
				    "addresses (rails are numbered from 0)", r, r + 1);
	}
	/*
	 * A node is suspected after `timeout` of silence: with less than two
	 * periods, one late heartbeat would be a false suspicion.
	 */
	if (c->timeout_ns / 2 < c->period_ns)
		return fail(p, p->key_line[K_TIMEOUT] ? p->key_line[K_TIMEOUT] : p->key_line[K_PERIOD],
			    "timeout %s%s must be at least twice the period (%s)",
			    ftu_duration_format(c->timeout_ns, a, sizeof(a)),
			    p->key_line[K_TIMEOUT] ? "" : " (the default)",
			    ftu_duration_format(c->period_ns, b, sizeof(b)));
	if (!c->has_key && !c->key_none)
		return fail(p, 0, "no key: add 'key = <32 hex digits>' (ftctl genkey makes one) "
			    "or 'keyfile = PATH' under [cluster]; 'key = none' runs without "
			    "authentication, so that anyone on the network can forge heartbeats");
	for (unsigned int i = 0; i < c->n_accepted; i++) {
		static const uint8_t none[FTD_KEY_LEN];

		if (c->has_key && !memcmp(c->accepted[i], c->key, FTD_KEY_LEN))
			return fail(p, p->key_line[K_ACCEPT_KEY],
				    "an accepted key equal to the key itself");
		/* key = none sends with the all-zero key: accepting it again is a slip. */
		if (c->key_none && !memcmp(c->accepted[i], none, FTD_KEY_LEN))
			return fail(p, p->key_line[K_ACCEPT_KEY],
				    "an accepted key equal to the key itself ('key = none' "
				    "is the all-zero key)");
	}
	return 0;
}

int ftctl_conf_parse(FILE *f, const char *name, struct ftctl_conf *conf,
		     char *err, size_t errlen)
{
	struct parser p = { .name = name, .err = err, .errlen = errlen, .c = conf };
	char *line = NULL;
	size_t cap = 0;
	int ret = 0;

	*conf = (struct ftctl_conf){
		.port = FTD_DEFAULT_PORT,
		.period_ns = FTD_DEFAULT_PERIOD_NS,
		.observers = FTD_DEFAULT_OBSERVERS,
		.quorum = 1,
		.timeout_ns = FTD_DEFAULT_TIMEOUT_NS,
	};
	if (errlen)
		err[0] = '\0';
	errno = 0;
	while (getline(&line, &cap, f) >= 0) {
		p.line++;
		ret = parse_line(&p, line);
		if (ret)
			break;
	}
	if (!ret && ferror(f))
		ret = fail(&p, 0, "read error: %s", strerror(errno ? errno : EIO));
	free(line);
	if (!ret)
		ret = check_whole(&p);
	if (ret)
		ftctl_conf_free(conf);
	return ret;
}

int ftctl_conf_load(const char *path, struct ftctl_conf *conf, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	int ret;

	if (!f) {
		*conf = (struct ftctl_conf){ 0 };
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	ret = ftctl_conf_parse(f, path, conf, err, errlen);
	fclose(f);
	return ret;
}

void ftctl_conf_free(struct ftctl_conf *conf)
{
	/* The keys are secrets: not left in freed or reused memory. */
	explicit_bzero(conf->key, sizeof(conf->key));
	explicit_bzero(conf->accepted, sizeof(conf->accepted));
	free(conf->nodes);
	conf->nodes = NULL;
	conf->nr_nodes = conf->cap_nodes = 0;
}

const struct ftctl_conf_node *ftctl_conf_find(const struct ftctl_conf *conf, uint32_t id)
{
	for (size_t i = 0; i < conf->nr_nodes; i++)
		if (conf->nodes[i].id == id)
			return &conf->nodes[i];
	return NULL;
}
