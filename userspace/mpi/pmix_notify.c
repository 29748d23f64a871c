// SPDX-License-Identifier: LGPL-2.1 OR MIT
/*
 * PMIx failure reports (see pmix_notify.h). Built with FTD_HAVE_PMIX=1 when
 * libpmix-dev is found; without it every call says -ENOTSUP and the rest of
 * the library carries on without PMIx.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "pmix_notify.h"

uint32_t ftd_pmix_job_id(const char *nspace)
{
	uint32_t h = 2166136261U;	/* FNV-1a, 32 bits */

	for (; *nspace; nspace++) {
		h ^= (unsigned char)*nspace;
		h *= 16777619U;
	}
	return h ? h : 1;
}

#if FTD_HAVE_PMIX

#include <pthread.h>
#include <stdbool.h>
#include <time.h>
#include <pmix.h>

int ftd_pmix_open(struct ftd_pmix *p)
{
	pmix_proc_t me;
	pmix_status_t rc;

	memset(p, 0, sizeof(*p));
	/*
	 * Only a process a PMIx server launched may initialise: elsewhere
	 * PMIx_Init would make it a singleton of its own namespace, and a
	 * report there would reach nobody.
	 */
	if (!PMIx_Initialized() && !getenv("PMIX_NAMESPACE"))
		return -ENOENT;
	rc = PMIx_Init(&me, NULL, 0);
	if (rc != PMIX_SUCCESS) {
		p->status = rc;
		/* a singleton of an MPI that initialises PMIx itself (Open MPI 5) */
		return rc == PMIX_ERR_UNREACH ? -ENOENT : -EIO;
	}
	memcpy(p->nspace, me.nspace, sizeof(p->nspace) - 1);
	p->nspace[sizeof(p->nspace) - 1] = '\0';
	p->rank = me.rank;
	p->active = 1;
	return 0;
}

void ftd_pmix_close(struct ftd_pmix *p)
{
	if (!p->active)
		return;
	/* PMIx_Init counts: this drops only our reference. */
	PMIx_Finalize(NULL, 0);
	p->active = 0;
}

const char *ftd_pmix_status_string(const struct ftd_pmix *p)
{
	return PMIx_Error_string(p->status);
}

/*
 * The server acknowledges a notification through a callback that may come
 * after we gave up waiting: the request (and the info array PMIx may still
 * read) is freed by whichever side lets go last.
 */
struct notify_req {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int refs;
	bool done;
	pmix_status_t status;
	pmix_info_t *info;
	size_t ninfo;
};

static void req_put(struct notify_req *r)
{
	bool last;

	pthread_mutex_lock(&r->lock);
	last = --r->refs == 0;
	pthread_mutex_unlock(&r->lock);
	if (!last)
		return;
	PMIX_INFO_FREE(r->info, r->ninfo);
	pthread_cond_destroy(&r->cond);
	pthread_mutex_destroy(&r->lock);
	free(r);
}

static void notify_done(pmix_status_t status, void *cbdata)
{
	struct notify_req *r = cbdata;

	pthread_mutex_lock(&r->lock);
	r->status = status;
	r->done = true;
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
	req_put(r);
}

static struct notify_req *req_new(size_t ninfo)
{
	struct notify_req *r = calloc(1, sizeof(*r));
	pthread_condattr_t ca;

	if (!r)
		return NULL;
	PMIX_INFO_CREATE(r->info, ninfo);
	if (!r->info) {
		free(r);
		return NULL;
	}
	r->ninfo = ninfo;
	r->refs = 2;		/* ours and the callback's */
	pthread_mutex_init(&r->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&r->cond, &ca);
	pthread_condattr_destroy(&ca);
	return r;
}

/* Wait for the acknowledgement: 0 when it came in time, else -ETIMEDOUT. */
static int req_wait(struct notify_req *r, unsigned int timeout_ms, pmix_status_t *status)
{
	struct timespec until;
	int err = 0;

	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += timeout_ms / 1000;
	until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&r->lock);
	while (!r->done && err != ETIMEDOUT)
		err = pthread_cond_timedwait(&r->cond, &r->lock, &until);
	*status = r->status;
	err = r->done ? 0 : -ETIMEDOUT;
	pthread_mutex_unlock(&r->lock);
	return err;
}

int ftd_pmix_notify_failed(struct ftd_pmix *p, const uint32_t *ranks, size_t n,
			   unsigned int timeout_ms)
{
	pmix_proc_t me, proc, everyone;
	pmix_data_array_t range = { .type = PMIX_PROC, .size = 1, .array = &everyone };
	struct notify_req *r;
	pmix_status_t rc;
	bool yes = true;
	size_t i;
	int err;

	if (!p->active || !n)
		return -EINVAL;
	r = req_new(n + 2);
	if (!r)
		return -ENOMEM;
	/* PMIx_Info_load copies each value, the data array included. */
	for (i = 0; i < n; i++) {
		PMIX_LOAD_PROCID(&proc, p->nspace, ranks[i]);
		PMIX_INFO_LOAD(&r->info[i], PMIX_EVENT_AFFECTED_PROC, &proc, PMIX_PROC);
	}
	PMIX_LOAD_PROCID(&everyone, p->nspace, PMIX_RANK_WILDCARD);
	PMIX_INFO_LOAD(&r->info[n], PMIX_EVENT_CUSTOM_RANGE, &range, PMIX_DATA_ARRAY);
	PMIX_INFO_LOAD(&r->info[n + 1], PMIX_EVENT_NON_DEFAULT, &yes, PMIX_BOOL);
	PMIX_LOAD_PROCID(&me, p->nspace, p->rank);

	rc = PMIx_Notify_event(PMIX_ERR_PROC_ABORTED, &me, PMIX_RANGE_CUSTOM, r->info, r->ninfo,
			       notify_done, r);
	if (rc != PMIX_SUCCESS) {
		/* The callback will not run: drop its reference too. */
		req_put(r);
		req_put(r);
		p->status = rc;
		return rc == PMIX_OPERATION_SUCCEEDED ? 0 : -EIO;
	}
	err = req_wait(r, timeout_ms, &rc);
	req_put(r);
	if (err)
		return err;
	p->status = rc;
	return rc == PMIX_SUCCESS || rc == PMIX_OPERATION_SUCCEEDED ? 0 : -EIO;
}

#else /* !FTD_HAVE_PMIX */

int ftd_pmix_open(struct ftd_pmix *p)
{
	memset(p, 0, sizeof(*p));
	return -ENOTSUP;
}

void ftd_pmix_close(struct ftd_pmix *p)
{
	p->active = 0;
}

int ftd_pmix_notify_failed(struct ftd_pmix *p, const uint32_t *ranks, size_t n,
			   unsigned int timeout_ms)
{
	return -ENOTSUP;
}

const char *ftd_pmix_status_string(const struct ftd_pmix *p)
{
	return "built without PMIx";
}

#endif /* FTD_HAVE_PMIX */
