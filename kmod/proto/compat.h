/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The protocol core (this directory) is plain C compiled twice: into the
 * module and into user-space tests, fuzzers and the simulator. This header is
 * its only window onto either environment, so the core itself never includes
 * a kernel or libc header directly.
 */
#ifndef FTD_PROTO_COMPAT_H
#define FTD_PROTO_COMPAT_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/kernel.h>
#include <linux/errno.h>
#include <asm/barrier.h>
#else
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;
#endif

/*
 * Stores that a reader in another context (user space mapping the status
 * table, a lockless fast path) checks: ftd_store_once() is one untorn
 * store and ftd_load_once() its untorn load; ftd_wmb() orders the stores
 * before it ahead of those after it.
 */
#ifdef __KERNEL__
#define ftd_store_once(x, v)	WRITE_ONCE(x, v)
#define ftd_load_once(x)	READ_ONCE(x)
#define ftd_wmb()		smp_wmb()
#else
#define ftd_store_once(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define ftd_load_once(x)	__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define ftd_wmb()		__atomic_thread_fence(__ATOMIC_RELEASE)
#endif

/* Byte-wise big-endian access: frames are never assumed aligned. */
static inline u16 ftd_get_be16(const u8 *p)
{
	return (u16)(p[0] << 8 | p[1]);
}

static inline u32 ftd_get_be32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

static inline u64 ftd_get_be64(const u8 *p)
{
	return (u64)ftd_get_be32(p) << 32 | ftd_get_be32(p + 4);
}

static inline void ftd_put_be16(u8 *p, u16 v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static inline void ftd_put_be32(u8 *p, u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static inline void ftd_put_be64(u8 *p, u64 v)
{
	ftd_put_be32(p, v >> 32);
	ftd_put_be32(p + 4, (u32)v);
}

#endif /* FTD_PROTO_COMPAT_H */
