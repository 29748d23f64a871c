// SPDX-License-Identifier: LGPL-2.1 OR MIT
/*
 * libftdetect_mpi's diagnostics: FTD_MPI_DEBUG lines on stderr, FTD_MPI_JSON
 * lines for tests and tools, and the environment that tunes the library
 * (ftdetect_mpi(3), ENVIRONMENT).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftd_mpi_internal.h"

struct ftdm_env ftdm_env = { .json_fd = -1 };

void ftdm_debug(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	if (!ftdm_env.debug)
		return;
	/* one write per line: ranks and threads share the terminal */
	n = snprintf(buf, sizeof(buf), "ftd_mpi[%d]: ", ftdm_proc.world_rank);
	va_start(ap, fmt);
	n += vsnprintf(buf + n, sizeof(buf) - n, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(STDERR_FILENO, buf, n) < 0)
		return;
}

uint64_t ftdm_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

unsigned long ftdm_env_ulong(const char *name, unsigned long def)
{
	const char *v = getenv(name);
	char *end;
	unsigned long x;

	if (!v || !*v)
		return def;
	errno = 0;
	x = strtoul(v, &end, 0);
	if (errno || *end) {
		fprintf(stderr, "ftd_mpi: ignoring %s=%s: not a number\n", name, v);
		return def;
	}
	return x;
}

/* FTD_MPI_JSON: stderr (or 1), stdout, or a file appended to (%p: pid, %r: rank). */
static int json_open(const char *spec)
{
	char path[PATH_MAX];
	size_t o = 0;
	int fd;

	if (!strcmp(spec, "1") || !strcmp(spec, "stderr"))
		return dup(STDERR_FILENO);
	if (!strcmp(spec, "stdout"))
		return dup(STDOUT_FILENO);
	for (; *spec && o < sizeof(path) - 16; spec++) {
		if (spec[0] == '%' && spec[1] == 'p') {
			o += snprintf(path + o, sizeof(path) - o, "%d", (int)getpid());
			spec++;
		} else if (spec[0] == '%' && spec[1] == 'r') {
			o += snprintf(path + o, sizeof(path) - o, "%d", ftdm_proc.world_rank);
			spec++;
		} else {
			path[o++] = *spec;
		}
	}
	path[o] = '\0';
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		fprintf(stderr, "ftd_mpi: FTD_MPI_JSON: %s: %s\n", path, strerror(errno));
	return fd;
}

void ftdm_env_read(void)
{
	const char *v;

	if (ftdm_env.read)
		return;
	ftdm_env.read = true;
	MPI_Comm_rank(MPI_COMM_WORLD, &ftdm_proc.world_rank);
	v = getenv("FTD_MPI_DEBUG");
	ftdm_env.debug = v && *v && strcmp(v, "0");
	v = getenv("FTD_MPI_JSON");
	if (v && *v && strcmp(v, "0"))
		ftdm_env.json_fd = json_open(v);
	ftdm_env.device = getenv("FTD_MPI_DEVICE");
	v = getenv("FTD_MPI_THREAD");
	ftdm_env.no_thread = v && !strcmp(v, "0");
	v = getenv("FTD_MPI_PMIX");
	ftdm_env.pmix = v && *v ? !!strcmp(v, "0") : -1;
	v = getenv("FTD_MPI_REVOKE");
	ftdm_env.revoke = v && *v ? !!strcmp(v, "0") : -1;
	v = getenv("FTD_MPI_SIGPIPE");
	ftdm_env.keep_sigpipe = v && !strcmp(v, "keep");
	ftdm_env.reporters = (int)ftdm_env_ulong("FTD_MPI_PMIX_REPORTERS", 2);
	ftdm_env.pmix_timeout_ms = (unsigned int)ftdm_env_ulong("FTD_MPI_PMIX_TIMEOUT_MS", 5000);
	ftdm_env.fence_grace_ms = (unsigned int)ftdm_env_ulong("FTD_MPI_FENCE_GRACE_MS", 1000);
	ftdm_env.revoke_wait_ms = (unsigned int)ftdm_env_ulong("FTD_MPI_REVOKE_WAIT_MS", 2000);
}

/* One JSON line, "ftd_mpi WHAT: {...}", written at once. */
void ftdm_json(const char *what, const char *fmt, ...)
{
	char *buf = NULL;
	size_t len = 0;
	va_list ap;
	FILE *f;

	if (ftdm_env.json_fd < 0)
		return;
	f = open_memstream(&buf, &len);
	if (!f)
		return;
	fprintf(f, "ftd_mpi %s: {\"pid\":%d,\"world_rank\":%d,\"local_node\":%u,\"job\":%u,"
		"\"id_rank\":%u,", what, (int)getpid(), ftdm_proc.world_rank, ftdm_proc.info.node, ftdm_proc.job, ftdm_proc.rank);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputs("}\n", f);
	if (fclose(f) == 0 && write(ftdm_env.json_fd, buf, len) < 0)
		ftdm_debug("FTD_MPI_JSON: write: %s", strerror(errno));
	free(buf);
}

/* The clean exit: no JSON line after it. */
void ftdm_json_close(void)
{
	if (ftdm_env.json_fd >= 0) {
		close(ftdm_env.json_fd);
		ftdm_env.json_fd = -1;
	}
}
