// SPDX-License-Identifier: LGPL-2.1 OR MIT
/*
 * libftdetect_mpi's registration scope (the uapi header's "Scoped
 * registrations"): this process registers scoped, so that no other node
 * is told, and the nodes of every communicator it attaches are where its
 * end goes. A job start then costs no frame; a rank's end, one to each
 * node of the communicators it was in (their ranks on a node that ends
 * together, one frame). Their node deaths the job's ranks learn from
 * NODE_DEAD with the node map of the attach.
 *
 * FTD_MPI_SCOPE=0 registers unscoped: every node is told of the rank and
 * of its end (ftstat shows the job's ranks at every node). A module
 * without scoped registrations is used the same way.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftd_mpi_internal.h"

static struct {
	bool scoped;		/* the registration is scoped */
	bool everywhere;	/* its scope outgrew FTD_SCOPE_MAX: its end to every node */
	uint32_t *nodes;	/* the scope given to the kernel, sorted */
	uint32_t n;
} scope;

int ftdm_scope_register(uint32_t job, uint32_t rank)
{
	int err;

	scope.scoped = false;
	if (ftdm_env.scope) {
		err = ftd_register_scoped(ftdm_proc.dev, job, rank);
		if (err != -EINVAL) {
			scope.scoped = !err;
			return err;
		}
		ftdm_debug("this ftdetect module has no scoped registrations: every node is told "
			   "of this rank");
	}
	return ftd_register(ftdm_proc.dev, job, rank);
}

void ftdm_scope_add(const struct ftd_group *g)
{
	uint32_t before = scope.n;
	int err;

	if (!scope.scoped || scope.everywhere || !ftdm_proc.registered)
		return;
	if (ftd_group_scope_merge(g, &scope.nodes, &scope.n)) {
		ftdm_debug("no memory for the scope: this rank's end goes to every node");
		scope.everywhere = true;
	} else if (scope.n == before) {
		return;		/* no new node: the kernel has them all */
	} else if (scope.n > FTD_SCOPE_MAX) {
		ftdm_debug("this rank's communicators span %u nodes, more than FTD_SCOPE_MAX (%u): "
			   "its end goes to every node", scope.n, FTD_SCOPE_MAX);
		scope.everywhere = true;
	}
	err = scope.everywhere ? ftd_scope(ftdm_proc.dev, NULL, 0) :
				 ftd_scope(ftdm_proc.dev, scope.nodes, scope.n);
	if (err && !scope.everywhere) {
		/*
		 * The kernel kept the scope it had, without the new nodes: take
		 * it away (that allocates nothing), so that its end goes to every
		 * node rather than miss them.
		 */
		scope.everywhere = true;
		err = ftd_scope(ftdm_proc.dev, NULL, 0);
		ftdm_debug("giving this rank's scope to ftdetect failed: its end goes to every node");
	}
	if (err)
		fprintf(stderr, "ftd_mpi[%d]: cannot give this rank's scope to ftdetect (%s): "
			"nodes that joined it may not learn of its end\n", ftdm_proc.world_rank,
			strerror(-err));
}

void ftdm_scope_json(struct ftu_json *j)
{
	ftu_json_kv_bool(j, "scoped", scope.scoped && !scope.everywhere);
	ftu_json_kv_s64(j, "scope_nodes", scope.scoped && !scope.everywhere ? (int64_t)scope.n : -1);
}

void ftdm_scope_forget(void)
{
	free(scope.nodes);
	memset(&scope, 0, sizeof(scope));
}
