// SPDX-License-Identifier: GPL-2.0
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/poll.h>
#include <linux/uaccess.h>
#include <linux/nsproxy.h>
#include <linux/sched.h>
#include "chardev.h"
#include "event.h"
#include "proc.h"
#include "stab.h"

static int ftd_open(struct inode *inode, struct file *file)
{
	/* The opener's network namespace selects the instance; the file pins it. */
	struct net *net = get_net(current->nsproxy->net_ns);
	struct ftd_reader *r = ftd_reader_create(ftd_net(net));

	if (IS_ERR(r)) {
		put_net(net);
		return PTR_ERR(r);
	}
	file->private_data = r;
	return nonseekable_open(inode, file);
}

static int ftd_release(struct inode *inode, struct file *file)
{
	struct ftd_reader *r = file->private_data;
	struct net *net = r->fn->net;

	ftd_proc_release(r);
	ftd_reader_destroy(r);
	put_net(net);
	return 0;
}

static int ftd_flush(struct file *file, fl_owner_t id)
{
	ftd_proc_flush(file->private_data);
	return 0;
}

static ssize_t ftd_read(struct file *file, char __user *buf, size_t count, loff_t *ppos)
{
	struct ftd_reader *r = file->private_data;
	struct ftd_event ev;
	size_t done = 0;
	int ret;

	if (count < sizeof(ev))
		return -EINVAL;

	for (;;) {
		if (mutex_lock_interruptible(&r->read_lock))
			return -ERESTARTSYS;
		while (done + sizeof(ev) <= count && ftd_reader_next(r, &ev)) {
			if (copy_to_user(buf + done, &ev, sizeof(ev))) {
				ftd_reader_unread(r);
				mutex_unlock(&r->read_lock);
				return done ? done : -EFAULT;
			}
			done += sizeof(ev);
		}
		mutex_unlock(&r->read_lock);
		if (done)
			return done;
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		ret = wait_event_interruptible(*ftd_reader_wait(r), ftd_reader_readable(r));
		if (ret)
			return ret;
	}
}

static __poll_t ftd_poll(struct file *file, poll_table *wait)
{
	struct ftd_reader *r = file->private_data;

	poll_wait(file, ftd_reader_wait(r), wait);
	return ftd_reader_readable(r) ? EPOLLIN | EPOLLRDNORM : 0;
}

/* The read-only status table, see stab.h. */
static int ftd_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct ftd_reader *r = file->private_data;

	return ftd_status_mmap(r->fn, vma);
}

static long ftd_ioctl_info(struct ftd_reader *r, void __user *arg)
{
	struct ftd_net *fn = r->fn;
	struct ftd_info info = {
		.version = FTD_EVENT_VERSION,
		.event_size = sizeof(struct ftd_event),
	};

	mutex_lock(&fn->lock);
	info.node = fn->cfg.node;
	info.cluster = fn->cfg.cluster;
	info.incarnation = fn->incarnation;
	info.up = fn->up;
	mutex_unlock(&fn->lock);
	return copy_to_user(arg, &info, sizeof(info)) ? -EFAULT : 0;
}

static long ftd_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct ftd_reader *r = file->private_data;
	void __user *uarg = (void __user *)arg;
	struct ftd_rank_reg reg;
	struct ftd_scope scope;
	unsigned int expected;

	if (_IOC_TYPE(cmd) != FTD_IOC_MAGIC)
		return -ENOTTY;
	switch (_IOC_NR(cmd)) {
	case _IOC_NR(FTD_IOC_REGISTER):
		expected = FTD_IOC_REGISTER;
		break;
	case _IOC_NR(FTD_IOC_DEREGISTER):
		expected = FTD_IOC_DEREGISTER;
		break;
	case _IOC_NR(FTD_IOC_INFO):
		expected = FTD_IOC_INFO;
		break;
	case _IOC_NR(FTD_IOC_SCOPE):
		expected = FTD_IOC_SCOPE;
		break;
	default:
		return -ENOTTY;
	}
	/* A known request with another size or direction: a caller built
	 * against a different header.
	 */
	if (cmd != expected)
		return -EINVAL;

	switch (cmd) {
	case FTD_IOC_REGISTER:
		if (copy_from_user(&reg, uarg, sizeof(reg)))
			return -EFAULT;
		return ftd_proc_register(r, &reg);
	case FTD_IOC_DEREGISTER:
		return ftd_proc_deregister(r);
	case FTD_IOC_INFO:
		return ftd_ioctl_info(r, uarg);
	case FTD_IOC_SCOPE:
		if (copy_from_user(&scope, uarg, sizeof(scope)))
			return -EFAULT;
		return ftd_proc_scope(r, &scope);
	}
	return -ENOTTY;
}

static const struct file_operations ftd_fops = {
	.owner = THIS_MODULE,
	.open = ftd_open,
	.release = ftd_release,
	.flush = ftd_flush,
	.read = ftd_read,
	.poll = ftd_poll,
	.mmap = ftd_mmap,
	.unlocked_ioctl = ftd_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static struct miscdevice ftd_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "ftdetect",
	.fops = &ftd_fops,
	/* Reading and registering need no privilege; configuration is netlink. */
	.mode = 0666,
};

int ftd_chardev_init(void)
{
	return misc_register(&ftd_misc);
}

void ftd_chardev_exit(void)
{
	misc_deregister(&ftd_misc);
}
