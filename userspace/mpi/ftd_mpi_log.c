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
	v = getenv("FTD_MPI_SCOPE");
	ftdm_env.scope = !(v && !strcmp(v, "0"));
	ftdm_env.reporters = (int)ftdm_env_ulong("FTD_MPI_PMIX_REPORTERS", 2);
	ftdm_env.pmix_timeout_ms = (unsigned int)ftdm_env_ulong("FTD_MPI_PMIX_TIMEOUT_MS", 5000);
	ftdm_env.fence_grace_ms = (unsigned int)ftdm_env_ulong("FTD_MPI_FENCE_GRACE_MS", 1000);
	ftdm_env.revoke_wait_ms = (unsigned int)ftdm_env_ulong("FTD_MPI_REVOKE_WAIT_MS", 2000);
}

struct ftu_json *ftdm_json_begin(struct ftdm_json_line *l, const char *what)
{
	*l = (struct ftdm_json_line){ 0 };
	if (ftdm_env.json_fd < 0)
		return NULL;
	l->f = open_memstream(&l->buf, &l->len);
	if (!l->f)
		return NULL;
	fprintf(l->f, "ftd_mpi %s: ", what);
	ftu_json_init(&l->j, l->f);
	ftu_json_object_begin(&l->j);
	ftu_json_kv_s64(&l->j, "pid", getpid());
	ftu_json_kv_s64(&l->j, "world_rank", ftdm_proc.world_rank);
	ftu_json_kv_u64(&l->j, "local_node", ftdm_proc.info.node);
	ftu_json_kv_u64(&l->j, "job", ftdm_proc.job);
	ftu_json_kv_u64(&l->j, "id_rank", ftdm_proc.rank);
	return &l->j;
}

void ftdm_json_end(struct ftdm_json_line *l)
{
	if (!l->f)
		return;
	ftu_json_object_end(&l->j);
	fputc('\n', l->f);
	if (fclose(l->f) == 0 && write(ftdm_env.json_fd, l->buf, l->len) < 0)
		ftdm_debug("FTD_MPI_JSON: write: %s", strerror(errno));
	free(l->buf);
	l->f = NULL;
}

/* The clean exit: no JSON line after it. */
void ftdm_json_close(void)
{
	if (ftdm_env.json_fd >= 0) {
		close(ftdm_env.json_fd);
		ftdm_env.json_fd = -1;
	}
}
