// SPDX-License-Identifier: LGPL-2.1 OR MIT
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "ftdetect.h"

struct ftd_handle {
	int fd;
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
	static const char *const names[] = {
		[FTD_EV_NODE_ALIVE] = "NODE_ALIVE",
		[FTD_EV_NODE_SUSPECT] = "NODE_SUSPECT",
		[FTD_EV_NODE_DEAD] = "NODE_DEAD",
		[FTD_EV_NODE_LEFT] = "NODE_LEFT",
		[FTD_EV_NODE_RESTORED] = "NODE_RESTORED",
		[FTD_EV_RANKS_DEAD] = "RANKS_DEAD",
		[FTD_EV_PROC_DEAD] = "PROC_DEAD",
		[FTD_EV_PROC_EXIT] = "PROC_EXIT",
		[FTD_EV_IFACE_DEAD] = "IFACE_DEAD",
		[FTD_EV_IFACE_RESTORED] = "IFACE_RESTORED",
		[FTD_EV_FENCED] = "FENCED",
		[FTD_EV_OVERFLOW] = "OVERFLOW",
	};

	if (type < sizeof(names) / sizeof(names[0]) && names[type])
		return names[type];
	return "UNKNOWN";
}

const char *ftd_strerror(int err)
{
	switch (-err) {
	case ENOENT:
		return "no /dev/ftdetect (is the ftdetect module loaded?), or not registered";
	case EBUSY:
		return "this handle already has a rank registered";
	case ENOTTY:
		return "the device does not know this request (module and library versions differ?)";
	case EPROTO:
		return "event record of an unknown version (module and library versions differ?)";
	default:
		return strerror(-err);
	}
}
