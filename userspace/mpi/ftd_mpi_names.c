// SPDX-License-Identifier: LGPL-2.1 OR MIT
/*
 * libftdetect_mpi: the names and messages of its enums and errors, and
 * what this build can do.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "ftd_mpi_internal.h"

const char *ftd_mpi_cause_name(enum ftd_mpi_cause cause)
{
	switch (cause) {
	case FTD_MPI_CAUSE_PROC:
		return "PROC_DEAD";
	case FTD_MPI_CAUSE_NODE:
		return "NODE_DEAD";
	case FTD_MPI_CAUSE_FENCED:
		return "FENCED";
	case FTD_MPI_CAUSE_LOST:
		return "LOST";
	}
	return "UNKNOWN";
}

const char *ftd_mpi_action_name(enum ftd_mpi_action action)
{
	static const char *const names[] = {
		[FTD_MPI_ACT_NONE] = "none",
		[FTD_MPI_ACT_DONE] = "done",
		[FTD_MPI_ACT_DEFERRED] = "deferred",
		[FTD_MPI_ACT_OTHERS] = "others",
		[FTD_MPI_ACT_UNAVAILABLE] = "unavailable",
		[FTD_MPI_ACT_DISABLED] = "disabled",
		[FTD_MPI_ACT_FAILED] = "failed",
	};

	if ((unsigned int)action < sizeof(names) / sizeof(names[0]))
		return names[action];
	return "unknown";
}

const char *ftd_mpi_strerror(int err)
{
	switch (-err) {
	case ENOENT:
		return "no /dev/ftdetect (is the ftdetect module loaded?), or not attached";
	case ENETDOWN:
		return "this node's ftdetect instance is not configured or not up (ftctl apply)";
	case EALREADY:
		return "the communicator is already attached";
	case EBUSY:
		return "this process is already registered";
	case EDEADLK:
		return "not allowed from a failure callback";
	case ENOTUNIQ:
		return "two members registered under the same identity (FTD_MPI_JOB or "
		       "ftd_mpi_register() inconsistent?)";
	case EIO:
		return "an MPI call failed";
	case EINVAL:
		return "invalid argument (flags, an intercommunicator, MPI not initialised?)";
	default:
		return ftd_strerror(err);
	}
}

unsigned int ftd_mpi_features(void)
{
	unsigned int f = 0;

	if (FTD_MPI_HAVE_ULFM)
		f |= FTD_MPI_FEATURE_ULFM;
	if (FTD_HAVE_PMIX)
		f |= FTD_MPI_FEATURE_PMIX;
	ftdm_lock();
	if (ftdm_proc.open && !ftdm_proc.pmix_err)
		f |= FTD_MPI_FEATURE_PMIX_ACTIVE;
	ftdm_unlock();
	return f;
}
