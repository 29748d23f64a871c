// SPDX-License-Identifier: LGPL-2.1 OR MIT
/*
 * libftdetect_mpi's watcher: read /dev/ftdetect's events (on the watcher
 * thread, or in ftd_mpi_progress()), turn each into verdicts for the
 * attached groups, and act on them (ftd_mpi_act.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "ftd_mpi_internal.h"

struct ftdm_watcher ftdm_watch = { .wake_fd = -1 };

/* ------------------------------------------------------------ dispatch */

static void dispatch(const struct ftd_event *ev, bool app_thread)
{
	enum ftd_mpi_cause cause = ev->type == FTD_EV_PROC_DEAD ? FTD_MPI_CAUSE_PROC :
				   FTD_MPI_CAUSE_NODE;
	struct attachment *a;
	bool failed = false;
	int i;

	ftdm_debug("event %s seq %llu node %u origin %u job %u rank %u", ftd_event_name(ev->type),
	      (unsigned long long)ev->seq, ev->node, ev->origin, ev->job, ev->rank);
	if (ev->type == FTD_EV_FENCED)
		ftdm_fence(ev);
	for (a = ftdm.list; a; a = a->next) {
		a->verdict = FTD_VERDICT_NONE;
		if (a->gone)
			continue;
		a->verdict = ftd_group_apply(&a->group, ev, a->ranks, &a->n);
		a->pmix = a->revoke = FTD_MPI_ACT_NONE;
		if (a->verdict == FTD_VERDICT_FAILED)
			failed = true;
		else if (a->verdict == FTD_VERDICT_EXITED)
			ftdm_debug("%s rank %d exited cleanly", a->name, a->ranks[0]);
	}
	if (failed)
		ftdm_report_pmix();
	ftdm_watch.dispatching = true;
	ftdm_watch.dispatcher = pthread_self();
	for (a = ftdm.list; a; a = a->next) {
		if (a->gone)
			continue;
		switch (a->verdict) {
		case FTD_VERDICT_FAILED:
			a->revoke = ftdm_revoke(a, app_thread);
			for (i = 0; i < a->n; i++)
				ftdm_debug("%s rank %d failed (%s)", a->name, a->ranks[i],
				      ftd_mpi_cause_name(cause));
			ftdm_call(a, cause, ev);
			break;
		case FTD_VERDICT_LOST:
			fprintf(stderr, "ftd_mpi[%d]: %u ftdetect events were lost: failures on %s "
				"are now taken from the status table\n", ftdm_proc.world_rank, ev->count,
				a->name);
			ftdm_call(a, FTD_MPI_CAUSE_LOST, ev);
			break;
		default:
			break;
		}
	}
	ftdm_watch.dispatching = false;
	ftdm_sweep();
}

/*
 * The kernel dropped events this process did not read in time (OVERFLOW):
 * the status table it keeps (libftdetect's ftd_rank_status()) still knows
 * which registrations ended, and which nodes died. Every member still
 * believed alive is looked up there, and each one found dead or exited, or
 * whose node is gone (ftd_group_node_gone: a scoped rank's node holds no
 * entry of it elsewhere), is acted on as if its event had come, timed by
 * the OVERFLOW record (the table keeps no time).
 */
static void resync(const struct ftd_event *of, bool app_thread)
{
	struct { uint32_t job, rank, uid, node, inc; bool gone; } *ids = NULL;
	struct ftd_node_status ns;
	struct ftd_rank_status rs;
	struct ftd_event ev;
	struct attachment *a;
	size_t n = 0, cap = 0, i;
	int r, found = 0;

	for (a = ftdm.list; a; a = a->next) {
		for (r = 0; r < a->group.size && !a->gone; r++) {
			const struct ftd_member *m = &a->group.m[r];

			if (r == a->group.self || m->state != FTD_MEMBER_ALIVE)
				continue;
			if (n == cap) {
				void *p = realloc(ids, (cap ? 2 * cap : 16) * sizeof(*ids));

				if (!p)
					break;
				ids = p;
				cap = cap ? 2 * cap : 16;
			}
			ids[n].job = m->job;
			ids[n].uid = a->group.uid;
			ids[n].rank = m->rank;
			ids[n].node = m->node;
			/* the incarnation its members were attached at: later ones are not it */
			ids[n].inc = m->incarnation;
			ids[n++].gone = !ftd_node_status(ftdm_proc.dev, m->node, &ns) &&
					ftd_group_node_gone(&a->group, r, ns.state, ns.incarnation);
		}
	}
	/* dispatch() may free attachments: act only once the walk is over */
	for (i = 0; i < n; i++) {
		if (ids[i].gone) {
			ev = (struct ftd_event){
				.version = FTD_EVENT_VERSION, .size = sizeof(ev),
				.type = FTD_EV_NODE_DEAD, .time_ns = of->time_ns,
				.mono_ns = of->mono_ns, .node = ids[i].node,
				.incarnation = ids[i].inc, .origin = FTD_NODE_NONE,
				.rail = FTD_RAIL_NONE, .uid = FTD_UID_NONE,
			};
			dispatch(&ev, app_thread);	/* its node's other members too */
			found++;
			continue;
		}
		if (ftd_rank_status_of(ftdm_proc.dev, ids[i].job, ids[i].rank, ids[i].uid, &rs))
			continue;	/* not known here: still believed alive */
		if (rs.state != FTD_RANK_DEAD && rs.state != FTD_RANK_EXITED)
			continue;
		ev = (struct ftd_event){
			.version = FTD_EVENT_VERSION, .size = sizeof(ev),
			.type = rs.state == FTD_RANK_EXITED ? FTD_EV_PROC_EXIT :
				rs.cause == FTD_EV_RANKS_DEAD ? FTD_EV_RANKS_DEAD : FTD_EV_PROC_DEAD,
			.seq = rs.event_seq, .time_ns = of->time_ns, .mono_ns = of->mono_ns,
			.node = rs.node, .incarnation = rs.incarnation, .origin = FTD_NODE_NONE,
			.rail = FTD_RAIL_NONE, .job = ids[i].job, .rank = ids[i].rank,
			.uid = ids[i].uid,
		};
		dispatch(&ev, app_thread);
		found++;
	}
	free(ids);
	ftdm_debug("after %u lost events: %d member(s) found dead or exited in the status table",
	      of->count, found);
}

/* Read and act on every pending event; how many, or a negative errno. */
int ftdm_drain(bool app_thread)
{
	struct ftd_event ev;
	int n = 0, err;

	if (!ftdm_proc.dev)
		return 0;
	while ((err = ftd_next_event(ftdm_proc.dev, &ev, FTD_NONBLOCK)) == 0) {
		dispatch(&ev, app_thread);
		if (ev.type == FTD_EV_OVERFLOW)
			resync(&ev, app_thread);
		n++;
	}
	return err == -EAGAIN ? n : err;
}

static void *watcher(void *unused)
{
	struct pollfd p[2] = {
		{ .fd = ftd_fd(ftdm_proc.dev), .events = POLLIN },
		{ .fd = ftdm_watch.wake_fd, .events = POLLIN },
	};
	uint64_t v;
	int err;

	for (;;) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "ftd_mpi[%d]: watcher: poll: %s\n", ftdm_proc.world_rank,
				strerror(errno));
			break;
		}
		if (p[1].revents && read(p[1].fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
			break;
		ftdm_lock();
		if (ftdm_watch.stop) {
			ftdm_unlock();
			break;
		}
		err = ftdm_drain(false);
		ftdm_unlock();
		if (err < 0) {
			fprintf(stderr, "ftd_mpi[%d]: watcher: reading events: %s\n", ftdm_proc.world_rank,
				ftd_strerror(err));
			break;
		}
	}
	return NULL;
}

/* The watcher blocks every signal: they are the application's. */
int ftdm_watcher_start(void)
{
	sigset_t all, old;
	int err;

	ftdm_watch.wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (ftdm_watch.wake_fd < 0)
		return -errno;
	ftdm_watch.stop = false;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&ftdm_watch.thread, NULL, watcher, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		close(ftdm_watch.wake_fd);
		ftdm_watch.wake_fd = -1;
		return -err;
	}
	ftdm_watch.running = true;
	return 0;
}

/*
 * Under ftdm.lock: a watcher stopped and not joined yet, handed over to be
 * joined (its thread, its wake file to close); false if none.
 */
bool ftdm_watcher_take_zombie(pthread_t *thread, int *wake_fd)
{
	if (!ftdm_watch.zombie)
		return false;
	ftdm_watch.zombie = false;
	*thread = ftdm_watch.zombie_thread;
	*wake_fd = ftdm_watch.zombie_fd;
	return true;
}

/* Under ftdm.lock: tell the watcher to end; the outermost ftdm_unlock() joins it. */
void ftdm_watcher_stop(void)
{
	uint64_t one = 1;

	if (!ftdm_watch.running)
		return;
	ftdm_watch.stop = true;
	if (write(ftdm_watch.wake_fd, &one, sizeof(one)) < 0)
		ftdm_debug("waking the watcher: %s", strerror(errno));
	ftdm_watch.zombie = true;
	ftdm_watch.zombie_thread = ftdm_watch.thread;
	ftdm_watch.zombie_fd = ftdm_watch.wake_fd;
	ftdm_watch.running = false;
	ftdm_watch.wake_fd = -1;
}
