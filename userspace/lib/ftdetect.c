// SPDX-License-Identifier: LGPL-2.1 OR MIT
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include "ftdetect.h"
#include "names.h"
#include "status.h"

struct ftd_handle {
	int fd;
	/* The status table once mapped: set once (compare and swap), never
	 * changed until ftd_close. */
	struct ftd__stab *stab;
};

struct ftd_handle *ftd_open(const char *path)
{
	struct ftd_handle *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->fd = open(path ? path : FTD_DEVICE_PATH, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (h->fd < 0) {
		int err = errno;

		free(h);
		errno = err;
		return NULL;
	}
	return h;
}

void ftd_close(struct ftd_handle *h)
{
	if (!h)
		return;
	if (h->stab) {
		munmap((void *)h->stab->base, h->stab->size);
		free(h->stab);
	}
	close(h->fd);
	free(h);
}

int ftd_fd(const struct ftd_handle *h)
{
	return h->fd;
}

static int ioctl_ret(int ret)
{
	return ret < 0 ? -errno : 0;
}

int ftd_register(struct ftd_handle *h, uint32_t job, uint32_t rank)
{
	struct ftd_rank_reg reg = { .job = job, .rank = rank };

	return ioctl_ret(ioctl(h->fd, FTD_IOC_REGISTER, &reg));
}

int ftd_register_scoped(struct ftd_handle *h, uint32_t job, uint32_t rank)
{
	struct ftd_rank_reg reg = { .job = job, .rank = rank, .flags = FTD_REG_F_SCOPED };

	return ioctl_ret(ioctl(h->fd, FTD_IOC_REGISTER, &reg));
}

int ftd_scope(struct ftd_handle *h, const uint32_t *nodes, uint32_t count)
{
	struct ftd_scope s = { .count = count, .nodes = (uintptr_t)nodes };

	return ioctl_ret(ioctl(h->fd, FTD_IOC_SCOPE, &s));
}

int ftd_deregister(struct ftd_handle *h)
{
	return ioctl_ret(ioctl(h->fd, FTD_IOC_DEREGISTER));
}

int ftd_info(struct ftd_handle *h, struct ftd_info *info)
{
	return ioctl_ret(ioctl(h->fd, FTD_IOC_INFO, info));
}

int ftd_next_event(struct ftd_handle *h, struct ftd_event *ev, unsigned int flags)
{
	struct pollfd pfd = { .fd = h->fd, .events = POLLIN };
	ssize_t n;

	/* The fd stays non-blocking so that threads sharing it never block
	 * each other inside read(2); blocking callers wait in poll instead.
	 */
	for (;;) {
		n = read(h->fd, ev, sizeof(*ev));
		if (n == (ssize_t)sizeof(*ev)) {
			if (ev->version != FTD_EVENT_VERSION || ev->size != sizeof(*ev))
				return -EPROTO;
			return 0;
		}
		if (n >= 0)
			return -EPROTO;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN || (flags & FTD_NONBLOCK))
			return -errno;
		if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
			return -errno;
	}
}

const char *ftd_event_name(uint16_t type)
{
	if (type < sizeof(ftd__event_names) / sizeof(ftd__event_names[0]) && ftd__event_names[type])
		return ftd__event_names[type];
	return "UNKNOWN";
}

const char *ftd_strerror(int err)
{
	switch (-err) {
	case 0:
		return "success";
	case ENOENT:
		return "not found: no /dev/ftdetect (is the ftdetect module loaded?), "
		       "no rank registered on this handle, or no such node or rank in the status table";
	case EBUSY:
		return "this handle already has a rank registered";
	case ENOTTY:
		return "the device does not know this request (module and library versions differ?)";
	case EPROTO:
		return "event record or status table of an unknown format "
		       "(module and library versions differ?)";
	case ENODEV:
		return "this ftdetect module has no status table to map (older than the library?)";
	case EOVERFLOW:
		return "not in the status table, which has been full: unknown "
		       "(raise the module's status_nodes/status_ranks)";
	case EAGAIN:
		return "nothing to read yet, or the status table kept changing while read";
	default:
		return strerror(-err);
	}
}

/* ------------------------------------------------------------------ status table */

static int status_map(struct ftd_handle *h, const struct ftd__stab **out)
{
	long page = sysconf(_SC_PAGESIZE);
	struct ftd__stab *s, *expected = NULL;
	const struct ftd_status_hdr *hdr;
	size_t size;
	void *p;
	int ret;

	/* The header first, for the size of the whole. */
	p = mmap(NULL, (size_t)page, PROT_READ, MAP_SHARED, h->fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	hdr = p;
	size = hdr->magic == FTD_STATUS_MAGIC ? hdr->size : 0;
	munmap(p, (size_t)page);
	if (size < (size_t)page)
		return -EPROTO;
	p = mmap(NULL, size, PROT_READ, MAP_SHARED, h->fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	s = malloc(sizeof(*s));
	if (!s) {
		munmap(p, size);
		return -ENOMEM;
	}
	ret = ftd__stab_open(s, p, size);
	if (ret) {
		munmap(p, size);
		free(s);
		return ret;
	}
	/* Two threads may map at once: the first to publish wins. */
	if (!__atomic_compare_exchange_n(&h->stab, &expected, s, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		munmap(p, size);
		free(s);
		s = expected;
	}
	*out = s;
	return 0;
}

static int status_of(struct ftd_handle *h, const struct ftd__stab **out)
{
	const struct ftd__stab *s = __atomic_load_n(&h->stab, __ATOMIC_ACQUIRE);

	if (s) {
		*out = s;
		return 0;
	}
	return status_map(h, out);
}

int ftd_status_map(struct ftd_handle *h)
{
	const struct ftd__stab *s;

	return status_of(h, &s);
}

int64_t ftd_status_changes(struct ftd_handle *h)
{
	const struct ftd__stab *s;
	int ret = status_of(h, &s);

	return ret ? ret : ftd__stab_changes(s);
}

int ftd_status_info(struct ftd_handle *h, struct ftd_status_info *out)
{
	const struct ftd__stab *s;
	int ret = status_of(h, &s);

	return ret ? ret : ftd__stab_info(s, out);
}

int ftd_node_status(struct ftd_handle *h, uint32_t node, struct ftd_node_status *out)
{
	const struct ftd__stab *s;
	int ret = status_of(h, &s);

	return ret ? ret : ftd__stab_node(s, node, out);
}

int ftd_rank_status(struct ftd_handle *h, uint32_t job, uint32_t rank,
		    struct ftd_rank_status *out)
{
	const struct ftd__stab *s;
	int ret = status_of(h, &s);

	return ret ? ret : ftd__stab_rank(s, job, rank, FTD_UID_NONE, out);
}

int ftd_rank_status_of(struct ftd_handle *h, uint32_t job, uint32_t rank, uint32_t uid,
		       struct ftd_rank_status *out)
{
	const struct ftd__stab *s;
	int ret = status_of(h, &s);

	return ret ? ret : ftd__stab_rank(s, job, rank, uid, out);
}

int ftd_status_snapshot(struct ftd_handle *h, struct ftd_status_snapshot **out)
{
	const struct ftd__stab *s;
	int ret = status_of(h, &s);

	return ret ? ret : ftd__stab_snapshot(s, out);
}

const char *ftd_node_state_name(unsigned int state)
{
	return state < __FTD_NODE_STATE_MAX ? ftd__node_state_names[state] : "UNKNOWN";
}

const char *ftd_rank_state_name(unsigned int state)
{
	return state < __FTD_RANK_STATE_MAX ? ftd__rank_state_names[state] : "UNKNOWN";
}
