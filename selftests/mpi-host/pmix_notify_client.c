// SPDX-License-Identifier: GPL-2.0
/*
 * pmix-notify-client: the client side of test_pmix_notify. The test's PMIx
 * server starts it with the environment PMIx_server_setup_fork() gave.
 *
 *   pmix-notify-client notify RANK...   report RANK... failed through
 *                                       ftd_pmix_notify_failed(): exit 0 when
 *                                       the server took it
 *   pmix-notify-client no-server        expect ftd_pmix_open() to say -ENOENT
 *                                       (no PMIx server in the environment)
 *
 * Exit 0 on success; anything else is explained on stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpi/pmix_notify.h"

static int notify(int argc, char **argv)
{
	struct ftd_pmix p;
	uint32_t ranks[1024];
	size_t n = 0;
	int err, i;

	for (i = 0; i < argc && n < 1024; i++)
		ranks[n++] = (uint32_t)strtoul(argv[i], NULL, 0);
	err = ftd_pmix_open(&p);
	if (err) {
		fprintf(stderr, "client: ftd_pmix_open: %s (%s)\n", strerror(-err),
			ftd_pmix_status_string(&p));
		return 2;
	}
	err = ftd_pmix_notify_failed(&p, ranks, n, 10000);
	if (err)
		fprintf(stderr, "client: ftd_pmix_notify_failed: %s (%s)\n", strerror(-err),
			ftd_pmix_status_string(&p));
	ftd_pmix_close(&p);
	return err ? 3 : 0;
}

int main(int argc, char **argv)
{
	struct ftd_pmix p;
	int err;

	if (argc >= 3 && !strcmp(argv[1], "notify"))
		return notify(argc - 2, argv + 2);
	if (argc == 2 && !strcmp(argv[1], "no-server")) {
		err = ftd_pmix_open(&p);
		if (err == -ENOENT)
			return 0;
		fprintf(stderr, "client: ftd_pmix_open without a server: %d, expected -ENOENT\n", err);
		if (!err)
			ftd_pmix_close(&p);
		return 1;
	}
	fprintf(stderr, "usage: %s notify RANK... | no-server\n", argv[0]);
	return 64;
}
