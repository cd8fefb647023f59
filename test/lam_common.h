/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lam_common.h - helpers shared by the LAM guest tests: raw arch_prctl
 * calls, tagging, fault probes, /proc parsing.  No expectations here: those
 * live in lam_expect.h only.
 */
#ifndef LAM_COMMON_H
#define LAM_COMMON_H

#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/types.h>

#include "lam_expect.h"

#ifndef __x86_64__
# error This test is 64-bit only
#endif

#define ARCH_GET_UNTAG_MASK	0x4001
#define ARCH_ENABLE_TAGGED_ADDR	0x4002
#define ARCH_GET_MAX_TAG_BITS	0x4003

#define PAGE_SZ		4096UL
#define LOW_ADDR	(0x1UL << 30)
#define HIGH_ADDR	(0x3UL << 48)	/* above 47 bits: 5-level paging only */
#define HIGH_HINT	(0x1UL << 50)

/*
 * arch_prctl() as a raw syscall: -errno or 0, errno untouched.  The only
 * way to call it in a vfork child, which may store to memory and make raw
 * syscalls, nothing else.
 */
static inline long raw_arch_prctl(int option, unsigned long arg)
{
	long ret;

	asm volatile ("syscall"
		      : "=a" (ret)
		      : "0" ((long)SYS_arch_prctl), "D" ((long)option), "S" (arg)
		      : "rcx", "r11", "memory");
	return ret;
}

/* 0 on success, else errno */
static inline int lam_enable(unsigned long nbits)
{
	return syscall(SYS_arch_prctl, ARCH_ENABLE_TAGGED_ADDR, nbits) ? errno : 0;
}

static inline int lam_get_mask(unsigned long *mask)
{
	return syscall(SYS_arch_prctl, ARCH_GET_UNTAG_MASK, mask) ? errno : 0;
}

static inline int lam_get_max_bits(unsigned long *bits)
{
	return syscall(SYS_arch_prctl, ARCH_GET_MAX_TAG_BITS, bits) ? errno : 0;
}

/*
 * Current untag mask; ~0 if the call fails.  It cannot tell a failing call
 * from "no LAM": the guest tests do not use it (they check the call's errno
 * with lam_mask_is() or EXPECT_UNTAG_MASK()); test/crosscheck/ still does.
 */
static inline unsigned long lam_mask_now(void)
{
	unsigned long m = LAM_MASK_NONE;

	if (lam_get_mask(&m))
		return LAM_MASK_NONE;
	return m;
}

/*
 * ARCH_GET_UNTAG_MASK as the table predicts it: the call returns the errno
 * exp_get_mask_rc() (EINVAL on a CONFIG_X86_LAM=n kernel), and when it
 * succeeds the mask is @want.  For code outside the harness's macros
 * (children, threads); *@rc and *@mask (may be NULL) report what was seen.
 */
static inline bool lam_mask_is(unsigned long want, int *rc, unsigned long *mask)
{
	unsigned long m = 0x5a5a5a5aUL;	/* not a mask the kernel can report */
	int r = lam_get_mask(&m);

	if (rc)
		*rc = r;
	if (mask)
		*mask = m;
	return r == exp_get_mask_rc() && (r != 0 || m == want);
}

/*
 * The same inside a harness test (needs _metadata and kselftest_harness.h
 * at the point of use): the errno is asserted on its own, so that a broken
 * call is not mistaken for "no LAM".  @fmt (a string literal) and its
 * arguments name the call site in the log.
 */
#define EXPECT_UNTAG_MASK(want, fmt, ...) do {				\
	unsigned long __lam_m = 0x5a5a5a5aUL;					\
	int __lam_rc = lam_get_mask(&__lam_m);					\
										\
	EXPECT_EQ(exp_get_mask_rc(), __lam_rc)					\
		TH_LOG("ARCH_GET_UNTAG_MASK: %s (" fmt ")",			\
		       __lam_rc ? strerror(__lam_rc) : "ok", ##__VA_ARGS__);	\
	if (__lam_rc == 0 && exp_get_mask_rc() == 0) {				\
		EXPECT_EQ((unsigned long)(want), __lam_m)			\
			TH_LOG("untag mask (" fmt ")", ##__VA_ARGS__);		\
	}									\
} while (0)

/*
 * Tag layouts.  nbits 1..6 -> U57 (bits 62:57), 7..15 -> U48 (bits 62:48).
 * tag_lsb: lowest tag bit; tag_width: number of tag bits;
 * outside_bit: the bit just below the tag field (not maskable: must fault).
 */
struct lam_mode {
	const char *name;
	unsigned long nbits;
	int tag_lsb;
	int tag_width;
	int outside_bit;
};

static const struct lam_mode lam_u57 = { "U57", 6, 57, 6, 56 };
static const struct lam_mode lam_u48 = { "U48", 15, 48, 15, 47 };

static inline const struct lam_mode *lam_mode_of(unsigned long nbits)
{
	return nbits <= 6 ? &lam_u57 : &lam_u48;
}

/*
 * Put @tag into the tag field of @p.  The tag is never 0: a tag whose
 * bits in the field are all 0 becomes "all tag bits set".
 */
static inline void *lam_tag(const void *p, const struct lam_mode *m, unsigned long tag)
{
	unsigned long field = ((1UL << m->tag_width) - 1) << m->tag_lsb;
	unsigned long v = (tag << m->tag_lsb) & field;

	if (!v)		/* tag 0, or a tag wider than the field */
		v = field;

	return (void *)(((unsigned long)p & ~field) | v);
}

static inline void *lam_untag(const void *p)
{
	return (void *)((unsigned long)p & ~(0x7fffUL << 48));
}

static inline void *lam_set_bit(const void *p, int bit)
{
	return (void *)((unsigned long)p | (1UL << bit));
}

/* ---- fault probes: return 0 if the access worked, else the signal ---- */
static sigjmp_buf lam_probe_env;
static volatile sig_atomic_t lam_probe_sig;

static void lam_probe_handler(int sig)
{
	lam_probe_sig = sig;
	siglongjmp(lam_probe_env, 1);
}

static inline void lam_probe_arm(struct sigaction *old_segv, struct sigaction *old_bus)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = lam_probe_handler;
	sa.sa_flags = SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, old_segv);
	sigaction(SIGBUS, &sa, old_bus);
}

static inline void lam_probe_disarm(struct sigaction *old_segv, struct sigaction *old_bus)
{
	sigaction(SIGSEGV, old_segv, NULL);
	sigaction(SIGBUS, old_bus, NULL);
}

/* write @val through @p, read it back through @check (untagged alias) */
static int __attribute__((noinline, unused)) lam_probe_write(volatile unsigned char *p,
						    volatile unsigned char *check,
						    unsigned char val)
{
	struct sigaction os, ob;
	int ret;

	lam_probe_sig = 0;
	lam_probe_arm(&os, &ob);
	if (sigsetjmp(lam_probe_env, 1) == 0) {
		*p = val;
		ret = (*check == val && *p == val) ? 0 : -1;
	} else {
		ret = lam_probe_sig;
	}
	lam_probe_disarm(&os, &ob);
	return ret;
}

/* strcpy through a tagged pointer, compare through the untagged one */
static int __attribute__((noinline, unused)) lam_probe_strcpy(char *tagged, const char *plain,
						     const char *s)
{
	struct sigaction os, ob;
	int ret;

	lam_probe_sig = 0;
	lam_probe_arm(&os, &ob);
	if (sigsetjmp(lam_probe_env, 1) == 0) {
		strcpy(tagged, s);
		ret = strcmp(plain, s) ? -1 : 0;
	} else {
		ret = lam_probe_sig;
	}
	lam_probe_disarm(&os, &ob);
	return ret;
}

/* ---- /proc ---- */
/*
 * Find "untag_mask:\t%#lx" in /proc/@pid/@file.
 * Returns 1 and sets *mask if found, 0 if the file has no such line,
 * -errno if the file cannot be read.  If @after is not NULL, *after_ok is
 * set to whether the line directly before it starts with @after.
 */
static inline int proc_untag_mask(pid_t pid, const char *file, unsigned long *mask,
				  const char *after, bool *after_ok)
{
	char path[64], line[256], prev[256] = "";
	FILE *f;
	int found = 0;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, file);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "untag_mask:\t", 12)) {
			char *end;

			*mask = strtoul(line + 12, &end, 0);
			found = (end != line + 12 && *end == '\n') ? 1 : -EPROTO;
			if (after_ok)
				*after_ok = after && !strncmp(prev, after, strlen(after));
			break;
		}
		memcpy(prev, line, sizeof(prev));
	}
	fclose(f);
	return found;
}

/* The exact text the kernel prints, to check the format too */
static inline bool proc_untag_line_is(pid_t pid, const char *file, unsigned long mask)
{
	char path[64], line[256], want[64];
	FILE *f;
	bool ok = false;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, file);
	snprintf(want, sizeof(want), "untag_mask:\t%#lx\n", mask);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (!strcmp(line, want))
			ok = true;
	fclose(f);
	return ok;
}

/* simple one-byte pipe handshake */
static inline void pipe_put(int fd, char c)
{
	if (write(fd, &c, 1) != 1)
		_exit(99);
}

static inline char pipe_get(int fd)
{
	char c = 0;

	if (read(fd, &c, 1) != 1)
		return 0;
	return c;
}

/*
 * main() of every guest program: strip the facts from argv, then run the
 * kselftest harness.  @hook may handle a private mode (e.g. after execve).
 */
#define LAM_HARNESS_MAIN(hook)						\
	int main(int argc, char **argv)					\
	{								\
		int (*h)(int, char **) = hook;				\
		if (h && argc > 1 && !strncmp(argv[1], "--lam-", 6))	\
			return h(argc, argv);				\
		setvbuf(stdout, NULL, _IOLBF, 0);			\
		lam_facts_init(&argc, argv);				\
		return test_harness_run(argc, argv);			\
	}

#endif /* LAM_COMMON_H */
