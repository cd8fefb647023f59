// SPDX-License-Identifier: GPL-2.0
/*
 * Linear Address Masking (LAM) for user space: the arch_prctl() interface,
 * tagged pointers in loads, stores and system calls (io_uring included),
 * /proc/PID/arch_status, and the mode across fork(), execve() and threads.
 *
 * LAM_U57 lets a process keep a tag in bits 62:57 of its pointers, LAM_U48
 * (optional, CONFIG_X86_LAM_U48) in bits 62:48; bit 63 is never a tag bit.
 * ARCH_ENABLE_TAGGED_ADDR(nr_bits) picks the smallest mode that holds
 * nr_bits, once per process; fork() children inherit the mode, execve()
 * resets it.
 *
 * Where LAM cannot be enabled the tests that need it are skipped, with the
 * reason: a CPU without LAM (ENODEV), the kernel's lam= policy refusing it
 * (EPERM: boot with lam=on), a kernel without LAM (EINVAL: the arch_prctl()
 * options are unknown).  With LAM_SELFTEST_REQUIRE=1 in the environment, or
 * --require-lam on the command line, they fail instead, so that a run on
 * LAM hardware cannot pass by skipping.  --require-u48 does the same for
 * the LAM_U48 tests on a kernel without LAM_U48, and --require-la57 for
 * the tests that need a mapping above 47 bits (5-level paging).
 *
 * A requirement this system does not meet fails lam_available; every other
 * test then goes on as if it were met, with the enable results logged
 * rather than checked, so that it fails on its own checks: a test that
 * cannot tell LAM from no LAM would pass and be found out.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <asm/prctl.h>
#include <linux/io_uring.h>

#include "../kselftest_harness.h"

#ifndef __x86_64__
# error This test is 64-bit only
#endif

#ifndef ARCH_GET_UNTAG_MASK
#define ARCH_GET_UNTAG_MASK		0x4001
#endif
#ifndef ARCH_ENABLE_TAGGED_ADDR
#define ARCH_ENABLE_TAGGED_ADDR		0x4002
#endif
#ifndef ARCH_GET_MAX_TAG_BITS
#define ARCH_GET_MAX_TAG_BITS		0x4003
#endif
#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE		0x100000
#endif

#define LAM_U57_BITS	6UL
#define LAM_U48_BITS	15UL
#define MASK_NONE	(~0UL)
#define MASK_U57	(~(0x3fUL << 57))	/* ~GENMASK(62, 57) */
#define MASK_U48	(~(0x7fffUL << 48))	/* ~GENMASK(62, 48) */

#define PAGE_SZ		4096UL
#define LOW_ADDR	(0x1UL << 30)
#define WINDOW_47	(0x1UL << 47)	/* end of the 4-level user address space */
#define HIGH_ADDR	(0x3UL << 48)	/* above 47 bits: 5-level paging only */
#define HIGH_HINT	(0x1UL << 50)

#define AFTER_EXEC	"--lam-after-exec"
#define REQUIRED	" (LAM is required: LAM_SELFTEST_REQUIRE=1 or --require-lam)"

/* What fresh processes found, in main(), before the tests ran */
static struct {
	int mask_err;	/* ARCH_GET_UNTAG_MASK: 0 or errno (EINVAL: no LAM kernel) */
	int enable_err;	/* ARCH_ENABLE_TAGGED_ADDR(6) in a fresh child: 0 or errno */
	int u48_err;	/* ARCH_ENABLE_TAGGED_ADDR(15) in a fresh child: 0 or errno */
	int high_map;	/* a fresh process can map above 47 bits (5-level paging) */
	int require;	/* LAM_SELFTEST_REQUIRE=1 or --require-lam */
	int require_u48;	/* --require-u48 */
	int require_la57;	/* --require-la57 */
	int as_if;	/* this test goes on as if an unmet requirement were met */
} lam;

/* arch_prctl(): 0, or the errno of the failure */
static int lam_enable(unsigned long nr_bits)
{
	return syscall(SYS_arch_prctl, ARCH_ENABLE_TAGGED_ADDR, nr_bits) ? errno : 0;
}

/* ARCH_GET_UNTAG_MASK or ARCH_GET_MAX_TAG_BITS into *@val */
static int lam_get(int option, unsigned long *val)
{
	return syscall(SYS_arch_prctl, option, val) ? errno : 0;
}

/* The untag mask after ARCH_ENABLE_TAGGED_ADDR(@nr_bits) succeeded */
static unsigned long mask_for(unsigned long nr_bits)
{
	if (nr_bits >= 1 && nr_bits <= LAM_U57_BITS)
		return MASK_U57;
	if (nr_bits > LAM_U57_BITS && nr_bits <= LAM_U48_BITS)
		return MASK_U48;
	return MASK_NONE;
}

/*
 * @p with @tag in the tag field of the mode @nr_bits selects (bits 62:57 or
 * 62:48).  The tag is never 0: a tag with no bit in the field sets them all.
 */
static void *tag_ptr(const void *p, unsigned long nr_bits, unsigned long tag)
{
	int shift = nr_bits > LAM_U57_BITS ? 48 : 57;
	unsigned long field = nr_bits > LAM_U57_BITS ? ~MASK_U48 : ~MASK_U57;
	unsigned long t = (tag << shift) & field;

	return (void *)(((unsigned long)p & ~field) | (t ? t : field));
}

static int cpu_has_lam(void)
{
	unsigned int eax, ebx, ecx, edx;

	/* CPUID.(EAX=07H, ECX=01H):EAX[bit 26] */
	__cpuid_count(0x7, 1, eax, ebx, ecx, edx);
	return !!(eax & (0x1U << 26));
}

static sigjmp_buf probe_env;
static sig_atomic_t probe_sig;

static void probe_handler(int sig)
{
	probe_sig = sig;
	siglongjmp(probe_env, 1);
}

/*
 * Store @msg (@len bytes) through @p, then load it back through @p and
 * through @plain, the untagged alias: 0 if that worked, -1 if the bytes
 * differ, else the signal the first access raised.  The first store and
 * load are single instructions on @p as given: nothing strips a tag on the
 * way.  SIGBUS too: the CPU raises #SS for a bad stack-relative address.
 */
static int probe_access(char *p, const char *plain, const char *msg, size_t len)
{
	struct sigaction sa, old_segv, old_bus;
	char got = 0;
	int ret = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = probe_handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &old_segv);
	sigaction(SIGBUS, &sa, &old_bus);
	probe_sig = 0;
	if (sigsetjmp(probe_env, 1) == 0) {
		asm volatile("movb %1, (%0)" : : "r" (p), "q" (msg[0]) : "memory");
		asm volatile("movb (%1), %0" : "=q" (got) : "r" (p) : "memory");
		memcpy(p, msg, len);
		if (got != msg[0] || memcmp(plain, msg, len) || memcmp(p, msg, len))
			ret = -1;
	} else {
		ret = probe_sig;
	}
	sigaction(SIGSEGV, &old_segv, NULL);
	sigaction(SIGBUS, &old_bus, NULL);
	return ret;
}

/* probe_access() on @buf through a pointer tagged in the @nr_bits layout */
static int probe_tagged(char *buf, unsigned long nr_bits, unsigned long tag)
{
	static const char msg[] = "LAM: tagged access";

	memset(buf, 0, sizeof(msg));
	return probe_access(tag_ptr(buf, nr_bits, tag), buf, msg, sizeof(msg));
}

/*
 * write() into a pipe from a tagged buffer, read() it back into another
 * tagged buffer: 0 if the bytes arrived, -1 if they differ, else the errno
 * of the call that failed.
 */
static int tagged_pipe_io(unsigned long nr_bits)
{
	char src[32] = "LAM: tagged read and write", dst[32];
	int fds[2], ret = 0;
	ssize_t n;

	if (pipe2(fds, O_NONBLOCK))
		return errno;
	memset(dst, 0, sizeof(dst));
	n = write(fds[1], tag_ptr(src, nr_bits, 0x15), sizeof(src));
	if (n == sizeof(src))
		n = read(fds[0], tag_ptr(dst, nr_bits, 0x2a), sizeof(dst));
	if (n < 0)
		ret = errno;
	else if (n != sizeof(src) || memcmp(src, dst, sizeof(src)))
		ret = -1;
	close(fds[0]);
	close(fds[1]);
	return ret;
}

/* Run @fn(@arg) in a child: its exit status, 128 + the signal that ended it */
static int run_child(int (*fn)(unsigned long), unsigned long arg)
{
	int status;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0)
		_exit(fn(arg));
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 255;
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

static int child_enable(unsigned long nr_bits)
{
	return lam_enable(nr_bits);
}

static int child_map_high(unsigned long unused)
{
	void *p = mmap((void *)HIGH_HINT, PAGE_SZ, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p != MAP_FAILED && (unsigned long)p >= WINDOW_47;
}

/*
 * What LAM this machine offers, each found in a fresh child: enabling is
 * once per process, and a mapping above 47 bits would keep LAM_U48 out.
 * Whether the kernel has LAM_U48 is found the same way: ENABLE(15) in a
 * fresh process succeeds if CONFIG_X86_LAM_U48 is built in and is EINVAL
 * if it is not (EBUSY would mean something is mapped above 47 bits already).
 * ARCH_GET_MAX_TAG_BITS must agree (test max_tag_bits).
 */
static void lam_probe(void)
{
	unsigned long mask;

	lam.mask_err = lam_get(ARCH_GET_UNTAG_MASK, &mask);
	lam.enable_err = run_child(child_enable, LAM_U57_BITS);
	lam.u48_err = run_child(child_enable, LAM_U48_BITS);
	lam.high_map = run_child(child_map_high, 0) == 1;
}

/* An unmet requirement (lam_available fails for it): go on as if it were met */
static int go_on_as_if(struct __test_metadata *_metadata, const char *why,
		       const char *required)
{
	TH_LOG("%s%s: the test goes on as if it were met", why, required);
	lam.as_if = 1;
	return 1;
}

/*
 * Can this test go on?  @nr_bits 0: it needs a kernel with LAM; else it
 * enables mode @nr_bits.  If not, it is skipped with the reason, or goes on
 * as if it could where LAM is required, or fails if the reason is a bug.
 */
static int lam_ready(struct __test_metadata *_metadata, unsigned long nr_bits)
{
	const char *why = NULL;
	int err = lam.enable_err;

	if (err == EINVAL && lam.mask_err == EINVAL)
		why = "kernel without LAM (CONFIG_X86_LAM): the arch_prctl() options are EINVAL";
	else if (!nr_bits || err == 0)
		why = NULL;
	else if (err == ENODEV)
		why = "CPU without LAM (ARCH_ENABLE_TAGGED_ADDR: ENODEV)";
	else if (err == EPERM)
		why = "LAM refused by the kernel's lam= policy (EPERM): boot with lam=on";
	else
		err = -err;	/* a bug, not a reason to skip */
	if (err < 0) {
		EXPECT_EQ(0, lam.enable_err)
			TH_LOG("ARCH_ENABLE_TAGGED_ADDR(6) in a fresh process");
		return 0;
	}
	if (why && lam.require)
		return go_on_as_if(_metadata, why, REQUIRED);
	if (why)
		SKIP(return 0, "%s", why);
	if (nr_bits <= LAM_U57_BITS || lam.u48_err == 0)
		return 1;
	if (lam.u48_err != EINVAL) {
		EXPECT_EQ(0, lam.u48_err)
			TH_LOG("ARCH_ENABLE_TAGGED_ADDR(15) in a fresh process");
		return 0;
	}
	if (lam.require_u48)
		return go_on_as_if(_metadata, "kernel without LAM_U48: ENABLE(15) is EINVAL",
				   " (LAM_U48 is required: --require-u48)");
	SKIP(return 0, "kernel without LAM_U48 (CONFIG_X86_LAM_U48): ENABLE(15) is EINVAL");
}

/* Enable mode @nr_bits (0: leave LAM off): 0 if the test cannot go on */
static int lam_go(struct __test_metadata *_metadata, unsigned long nr_bits)
{
	unsigned long mask = 0;
	int rc;

	if (!nr_bits)
		return 1;
	if (!lam_ready(_metadata, nr_bits))
		return 0;
	rc = lam_enable(nr_bits);
	if (lam.as_if) {
		TH_LOG("ARCH_ENABLE_TAGGED_ADDR(%lu): %s (not checked: going on as if)",
		       nr_bits, strerror(rc));
		return 1;
	}
	EXPECT_EQ(0, rc) TH_LOG("ARCH_ENABLE_TAGGED_ADDR(%lu): %s", nr_bits, strerror(rc));
	EXPECT_EQ(0, lam_get(ARCH_GET_UNTAG_MASK, &mask));
	EXPECT_EQ(mask_for(nr_bits), mask);
	return rc == 0;
}

/* ---- the interface ---- */

TEST(lam_available)
{
	TH_LOG("ENABLE(6): %s; ENABLE(15): %s; CPUID LAM %d; mappings above 47 bits %d",
	       strerror(lam.enable_err), strerror(lam.u48_err), cpu_has_lam(), lam.high_map);
	if (lam.enable_err == 0)
		EXPECT_TRUE(cpu_has_lam()) TH_LOG("LAM on a CPU that does not enumerate it");
	if (lam.require)
		EXPECT_EQ(0, lam.enable_err)
			TH_LOG("ARCH_ENABLE_TAGGED_ADDR(6) in a fresh process%s", REQUIRED);
	if (lam.require_u48)
		EXPECT_EQ(0, lam.u48_err)
			TH_LOG("ARCH_ENABLE_TAGGED_ADDR(15) in a fresh process%s",
			       " (LAM_U48 is required: --require-u48)");
	if (lam.require_la57)
		EXPECT_TRUE(lam.high_map)
			TH_LOG("nothing can be mapped above 47 bits%s",
			       " (5-level paging is required: --require-la57)");
	if (!lam.require)
		lam_ready(_metadata, LAM_U57_BITS);
}

TEST(untag_mask_initial)
{
	unsigned long mask = 0x5a5a;

	if (!lam_ready(_metadata, 0))
		return;
	ASSERT_EQ(0, lam_get(ARCH_GET_UNTAG_MASK, &mask));
	EXPECT_EQ(MASK_NONE, mask);
	EXPECT_EQ(EFAULT, lam_get(ARCH_GET_UNTAG_MASK, NULL));
}

/*
 * ARCH_GET_MAX_TAG_BITS in a fresh process: what ARCH_ENABLE_TAGGED_ADDR
 * accepts, 15 with LAM_U48, 6 without, 0 if LAM cannot be enabled.  Then
 * what a runtime such as HWASan does: enable the reported number of bits.
 */
TEST(max_tag_bits)
{
	unsigned long bits = 0x5a5a, mask = 0, want;

	if (!lam_ready(_metadata, 0))
		return;
	ASSERT_EQ(0, lam_get(ARCH_GET_MAX_TAG_BITS, &bits));
	EXPECT_EQ(EFAULT, lam_get(ARCH_GET_MAX_TAG_BITS, NULL));
	if ((lam.enable_err == ENODEV || lam.enable_err == EPERM) && !lam.require) {
		EXPECT_EQ(0UL, bits) TH_LOG("LAM cannot be enabled: %s", strerror(lam.enable_err));
		return;
	}
	if (!lam_ready(_metadata, LAM_U57_BITS))
		return;
	want = lam.u48_err && !lam.require_u48 ? LAM_U57_BITS : LAM_U48_BITS;
	EXPECT_EQ(want, bits);
	EXPECT_EQ(EINVAL, run_child(child_enable, bits + 1))
		TH_LOG("ARCH_ENABLE_TAGGED_ADDR(%lu), above the maximum", bits + 1);
	ASSERT_EQ(0, lam_enable(bits)) TH_LOG("ARCH_ENABLE_TAGGED_ADDR(%lu)", bits);
	EXPECT_EQ(0, lam_get(ARCH_GET_UNTAG_MASK, &mask));
	EXPECT_EQ(mask_for(bits), mask);
	EXPECT_EQ(0, lam_get(ARCH_GET_MAX_TAG_BITS, &bits));
	EXPECT_EQ(want, bits);
}

/* In a fresh child: the result, the mask, and a tagged access after it */
static int child_enable_check(unsigned long nr_bits)
{
	int rc = lam_enable(nr_bits), want = EINVAL;
	unsigned long mask = 0;
	char buf[64];

	if (nr_bits >= 1 && nr_bits <= LAM_U57_BITS)
		want = 0;
	if (nr_bits > LAM_U57_BITS && nr_bits <= LAM_U48_BITS &&
	    (!lam.u48_err || lam.require_u48))
		want = 0;
	if (rc != want)
		return 1;
	if (lam_get(ARCH_GET_UNTAG_MASK, &mask) || mask != (rc ? MASK_NONE : mask_for(nr_bits)))
		return 2;
	if (!rc && probe_tagged(buf, nr_bits, 0x55))
		return 3;
	return 0;
}

/*
 * ARCH_ENABLE_TAGGED_ADDR rounds up to the smallest mode that holds nr_bits:
 * 1..6 select LAM_U57; 7..15 LAM_U48 if the kernel has it, else EINVAL;
 * 0 and 16 or more are EINVAL.
 */
TEST(enable_nr_bits)
{
	static const unsigned long more[] = { 16, 17, 32, 63, 64, 65, ~0UL };
	static const char * const what[] = {
		"ok", "wrong result", "wrong untag mask", "tagged access failed"
	};
	unsigned long n, nr_bits;
	int r;

	if (!lam_ready(_metadata, LAM_U57_BITS))
		return;
	for (n = 0; n <= LAM_U48_BITS + ARRAY_SIZE(more); n++) {
		nr_bits = n <= LAM_U48_BITS ? n : more[n - LAM_U48_BITS - 1];
		r = run_child(child_enable_check, nr_bits);
		EXPECT_EQ(0, r) TH_LOG("ARCH_ENABLE_TAGGED_ADDR(%lu): %s", nr_bits,
				       r < 4 ? what[r] : "the child died");
	}
}

/* ---- tagged pointers: without LAM, with LAM_U57, with LAM_U48 ---- */

FIXTURE(lam) {
	unsigned long layout;	/* the tag layout */
};

FIXTURE_VARIANT(lam) {
	unsigned long nr_bits;	/* the mode to enable; 0: LAM stays off */
};

FIXTURE_VARIANT_ADD(lam, off) { .nr_bits = 0 };
FIXTURE_VARIANT_ADD(lam, u57) { .nr_bits = LAM_U57_BITS };
FIXTURE_VARIANT_ADD(lam, u48) { .nr_bits = LAM_U48_BITS };

FIXTURE_SETUP(lam)
{
	self->layout = variant->nr_bits ? variant->nr_bits : LAM_U57_BITS;
}

FIXTURE_TEARDOWN(lam)
{
}

TEST_F(lam, malloc)
{
	static const unsigned long tags[] = { 0x1, 0x2a, 0x0, 0x5555 };
	int want = variant->nr_bits ? 0 : SIGSEGV;
	unsigned int i;
	char *buf;

	if (!lam_go(_metadata, variant->nr_bits))
		return;
	buf = malloc(64);
	ASSERT_NE(NULL, buf);
	for (i = 0; i < ARRAY_SIZE(tags); i++)
		EXPECT_EQ(want, probe_tagged(buf, self->layout, tags[i]))
			TH_LOG("through %p", tag_ptr(buf, self->layout, tags[i]));
	free(buf);
}

/* Memory mapped before LAM was enabled and after; at a low fixed address */
TEST_F(lam, mmap)
{
	int want = variant->nr_bits ? 0 : SIGSEGV;
	char *before, *after, *low;

	before = mmap(NULL, PAGE_SZ, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, before);
	if (!lam_go(_metadata, variant->nr_bits))
		return;
	after = mmap(NULL, PAGE_SZ, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, after);
	low = mmap((void *)LOW_ADDR, PAGE_SZ, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	ASSERT_EQ((void *)LOW_ADDR, low);

	EXPECT_EQ(want, probe_tagged(before, self->layout, 0x3));
	EXPECT_EQ(want, probe_tagged(after + PAGE_SZ - 64, self->layout, 0x0));
	EXPECT_EQ(want, probe_tagged(low, self->layout, 0x21));
	/* the mm system calls take tagged addresses too */
	EXPECT_EQ(variant->nr_bits ? 0 : -1, munmap(tag_ptr(low, self->layout, 0x7), PAGE_SZ));
	if (variant->nr_bits)
		EXPECT_EQ(SIGSEGV, probe_access(low, low, "x", 1)) TH_LOG("still mapped");
	munmap(before, PAGE_SZ);
	munmap(after, PAGE_SZ);
}

/* read() and write() with tagged buffers, the data checked; uname() */
TEST_F(lam, syscall)
{
	char src[32] = "LAM: tagged write", dst[32];
	const ssize_t len = sizeof(src);
	struct utsname uts;
	int fds[2];
	ssize_t rc;

	if (!lam_go(_metadata, variant->nr_bits))
		return;
	ASSERT_EQ(0, pipe2(fds, O_NONBLOCK));
	rc = write(fds[1], tag_ptr(src, self->layout, 0x9), sizeof(src));
	if (variant->nr_bits) {
		EXPECT_EQ(len, rc);
		memset(dst, 0, sizeof(dst));
		EXPECT_EQ(len, read(fds[0], dst, sizeof(dst)));
		EXPECT_EQ(0, memcmp(src, dst, sizeof(src)));
	} else {
		EXPECT_EQ(-1, rc);
		EXPECT_EQ(EFAULT, errno);
	}

	ASSERT_EQ(len, write(fds[1], src, sizeof(src)));
	memset(dst, 0, sizeof(dst));
	rc = read(fds[0], tag_ptr(dst, self->layout, 0x1f), sizeof(dst));
	if (variant->nr_bits) {
		EXPECT_EQ(len, rc);
		EXPECT_EQ(0, memcmp(src, dst, sizeof(src)));
	} else {
		EXPECT_EQ(-1, rc);
		EXPECT_EQ(EFAULT, errno);
		EXPECT_EQ(len, read(fds[0], dst, sizeof(dst)));
	}
	close(fds[0]);
	close(fds[1]);

	memset(&uts, 0, sizeof(uts));
	rc = uname(tag_ptr(&uts, self->layout, 0x11));
	if (variant->nr_bits) {
		EXPECT_EQ(0, rc) TH_LOG("uname(): %s", strerror(errno));
		EXPECT_STREQ("Linux", uts.sysname);
	} else {
		EXPECT_EQ(-1, rc);
		EXPECT_EQ(EFAULT, errno);
	}
}

/*
 * Refused in every mode: bit 63 set (LAM never masks it: a kernel-half,
 * non-canonical address), and the bit just below the tag field (56 or 47).
 */
TEST_F(lam, bad_pointers)
{
	int outside = self->layout > LAM_U57_BITS ? 47 : 56;
	char buf[64], *tagged = tag_ptr(buf, self->layout, 0x1);
	char *bad[2] = {
		(char *)((unsigned long)tagged | (0x1UL << 63)),
		(char *)((unsigned long)tagged | (0x1UL << outside)),
	};
	int fds[2], i;

	if (!lam_go(_metadata, variant->nr_bits))
		return;
	ASSERT_EQ(0, pipe2(fds, O_NONBLOCK));
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(SIGSEGV, probe_access(bad[i], buf, "x", 1)) TH_LOG("through %p", bad[i]);
		EXPECT_EQ(-1, write(fds[1], bad[i], 8)) TH_LOG("write() from %p", bad[i]);
		EXPECT_EQ(EFAULT, errno);
		ASSERT_EQ(8, write(fds[1], "12345678", 8));
		EXPECT_EQ(-1, read(fds[0], bad[i], 8)) TH_LOG("read() into %p", bad[i]);
		EXPECT_EQ(EFAULT, errno);
		EXPECT_EQ(8, read(fds[0], buf, 8));
	}
	close(fds[0]);
	close(fds[1]);
}

/*
 * The "untag_mask:" line of /proc/self/arch_status is @want_mask, as
 * ARCH_GET_UNTAG_MASK is; a kernel without LAM has neither.
 */
static void check_arch_status(struct __test_metadata *_metadata, unsigned long want_mask)
{
	char line[256], want[64];
	unsigned long mask = 0;
	int rc, found = 0;
	FILE *f;

	rc = lam_get(ARCH_GET_UNTAG_MASK, &mask);
	if (rc != EINVAL)
		EXPECT_EQ(want_mask, mask) TH_LOG("ARCH_GET_UNTAG_MASK: %s", strerror(rc));
	f = fopen("/proc/self/arch_status", "r");
	ASSERT_NE(NULL, f) TH_LOG("/proc/self/arch_status: %s", strerror(errno));
	snprintf(want, sizeof(want), "untag_mask:\t%#lx\n", want_mask);
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "untag_mask:", 11))
			continue;
		found++;
		EXPECT_STREQ(want, line);
	}
	fclose(f);
	/* a kernel without LAM has no such line */
	EXPECT_EQ(rc == EINVAL ? 0 : 1, found) TH_LOG("untag_mask: lines in arch_status");
}

TEST_F(lam, proc_arch_status)
{
	check_arch_status(_metadata, MASK_NONE);
	if (variant->nr_bits && lam_go(_metadata, variant->nr_bits))
		check_arch_status(_metadata, mask_for(variant->nr_bits));
}

/* ---- io_uring, with raw system calls ---- */

struct uring {
	int fd;
	unsigned int *sq_tail, *sq_mask, *sq_array;
	unsigned int *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
};

/* The rings of io_uring @u->fd (IORING_FEAT_SINGLE_MMAP: 5.4 and later) */
static int uring_map(struct uring *u, struct io_uring_params *p)
{
	size_t sz = p->sq_off.array + p->sq_entries * sizeof(unsigned int);
	size_t cq_sz = p->cq_off.cqes + p->cq_entries * sizeof(struct io_uring_cqe);
	char *r;

	r = mmap(NULL, sz > cq_sz ? sz : cq_sz, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_POPULATE, u->fd, IORING_OFF_SQ_RING);
	u->sqes = mmap(NULL, p->sq_entries * sizeof(struct io_uring_sqe),
		       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		       u->fd, IORING_OFF_SQES);
	if (r == MAP_FAILED || u->sqes == MAP_FAILED)
		return -1;
	u->sq_tail = (unsigned int *)(r + p->sq_off.tail);
	u->sq_mask = (unsigned int *)(r + p->sq_off.ring_mask);
	u->sq_array = (unsigned int *)(r + p->sq_off.array);
	u->cq_head = (unsigned int *)(r + p->cq_off.head);
	u->cq_tail = (unsigned int *)(r + p->cq_off.tail);
	u->cq_mask = (unsigned int *)(r + p->cq_off.ring_mask);
	u->cqes = (struct io_uring_cqe *)(r + p->cq_off.cqes);
	return 0;
}

/* Submit @sqe, wait for its completion: its result, or -1 and errno */
static int uring_run(struct uring *u, const struct io_uring_sqe *sqe, int *res)
{
	unsigned int tail = __atomic_load_n(u->sq_tail, __ATOMIC_ACQUIRE);
	unsigned int idx = tail & *u->sq_mask, head;

	u->sqes[idx] = *sqe;
	u->sq_array[idx] = idx;
	__atomic_store_n(u->sq_tail, tail + 1, __ATOMIC_RELEASE);
	if (syscall(__NR_io_uring_enter, u->fd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0)
		return -1;
	head = __atomic_load_n(u->cq_head, __ATOMIC_ACQUIRE);
	if (head == __atomic_load_n(u->cq_tail, __ATOMIC_ACQUIRE))
		return -1;
	*res = u->cqes[head & *u->cq_mask].res;
	__atomic_store_n(u->cq_head, head + 1, __ATOMIC_RELEASE);
	return 0;
}

/* IORING_OP_READV from a file into tagged buffers, through a tagged iovec array */
TEST_F(lam, io_uring_readv)
{
	enum { BLK = 2048, NBLK = 3 };
	static char data[NBLK * BLK], out[NBLK][BLK];
	struct io_uring_params p;
	struct io_uring_sqe sqe;
	struct iovec iov[NBLK];
	struct uring u;
	unsigned int i;
	int fd, res = 0;

	if (!lam_go(_metadata, variant->nr_bits))
		return;
	memset(&p, 0, sizeof(p));
	u.fd = syscall(__NR_io_uring_setup, 4, &p);
	if (u.fd < 0)	/* no CONFIG_IO_URING, or not allowed here */
		SKIP(return, "io_uring_setup: %s", strerror(errno));
	ASSERT_NE(0U, p.features & IORING_FEAT_SINGLE_MMAP);
	ASSERT_EQ(0, uring_map(&u, &p)) TH_LOG("io_uring mmap: %s", strerror(errno));

	fd = memfd_create("lam_io_uring", 0);
	ASSERT_LE(0, fd);
	for (i = 0; i < sizeof(data); i++)
		data[i] = (char)(i * 7 + 3);
	ASSERT_EQ((ssize_t)sizeof(data), write(fd, data, sizeof(data)));
	for (i = 0; i < NBLK; i++) {
		iov[i].iov_base = tag_ptr(out[i], self->layout, i + 1);
		iov[i].iov_len = BLK;
	}
	memset(&sqe, 0, sizeof(sqe));
	sqe.opcode = IORING_OP_READV;
	sqe.fd = fd;
	sqe.addr = (unsigned long)tag_ptr(iov, self->layout, 0x2);
	sqe.len = NBLK;
	sqe.off = 0;
	ASSERT_EQ(0, uring_run(&u, &sqe, &res)) TH_LOG("io_uring_enter: %s", strerror(errno));
	if (variant->nr_bits) {
		EXPECT_EQ((int)sizeof(data), res);
		EXPECT_EQ(0, memcmp(data, out, sizeof(data)));
	} else {
		EXPECT_EQ(-EFAULT, res);
	}
	close(fd);
	close(u.fd);
}

/* ---- the mode: locked in, fork(), execve(), threads, 5-level paging ---- */

FIXTURE(mode) {
};

FIXTURE_VARIANT(mode) {
	unsigned long nr_bits;
};

FIXTURE_VARIANT_ADD(mode, u57) { .nr_bits = LAM_U57_BITS };
FIXTURE_VARIANT_ADD(mode, u48) { .nr_bits = LAM_U48_BITS };

FIXTURE_SETUP(mode)
{
}

FIXTURE_TEARDOWN(mode)
{
}

/* Once on, the mode stays: a second enable is EBUSY, whatever nr_bits */
TEST_F(mode, enable_once)
{
	static const unsigned long again[] = { 1, 6, 7, 15, 0, 16 };
	unsigned long bits = 0, mask = 0;
	unsigned int i;

	if (!lam_go(_metadata, variant->nr_bits))
		return;
	EXPECT_EQ(0, lam_get(ARCH_GET_MAX_TAG_BITS, &bits));
	EXPECT_EQ(variant->nr_bits, bits);
	for (i = 0; i < ARRAY_SIZE(again); i++)
		EXPECT_EQ(EBUSY, lam_enable(again[i])) TH_LOG("ENABLE(%lu) with LAM on", again[i]);
	EXPECT_EQ(0, lam_get(ARCH_GET_UNTAG_MASK, &mask));
	EXPECT_EQ(mask_for(variant->nr_bits), mask);
}

/* A fork() child has the parent's mode and cannot change it */
TEST_F(mode, fork_inherits)
{
	unsigned long mask = 0;
	char buf[64];
	int status;
	pid_t pid;

	if (!lam_go(_metadata, variant->nr_bits))
		return;
	fflush(stdout);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		EXPECT_EQ(0, lam_get(ARCH_GET_UNTAG_MASK, &mask));
		EXPECT_EQ(mask_for(variant->nr_bits), mask);
		EXPECT_EQ(EBUSY, lam_enable(variant->nr_bits));
		EXPECT_EQ(0, probe_tagged(buf, variant->nr_bits, 0x6));
		EXPECT_EQ(0, tagged_pipe_io(variant->nr_bits));
		_exit(_metadata->passed ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status) TH_LOG("the fork() child did not run in the parent's mode");
}

/*
 * After execve() LAM is off and may be enabled again: this program, run as
 * "lam_64 --lam-after-exec NR_BITS", checks that; its exit status says how.
 */
static const char * const after_exec_what[] = {
	"ok", "untag mask is not ~0", "tagged access did not fault",
	"tagged read()/write() did not fail with EFAULT", "ARCH_ENABLE_TAGGED_ADDR failed",
	"wrong untag mask after enabling", "tagged access failed after enabling",
	"exec failed",
};

static int after_exec(unsigned long nr_bits)
{
	unsigned long mask = 0;
	char buf[64];

	if (lam_get(ARCH_GET_UNTAG_MASK, &mask) || mask != MASK_NONE)
		return 1;
	if (probe_tagged(buf, nr_bits, 0x3) != SIGSEGV)
		return 2;
	if (tagged_pipe_io(nr_bits) != EFAULT)
		return 3;
	if (lam_enable(nr_bits))
		return 4;
	if (lam_get(ARCH_GET_UNTAG_MASK, &mask) || mask != mask_for(nr_bits))
		return 5;
	if (probe_tagged(buf, nr_bits, 0x3) || tagged_pipe_io(nr_bits))
		return 6;
	return 0;
}

TEST_F(mode, execve_resets)
{
	char arg[16];
	int status;
	pid_t pid;

	if (!lam_go(_metadata, variant->nr_bits))
		return;
	snprintf(arg, sizeof(arg), "%lu", variant->nr_bits);
	fflush(stdout);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		execl("/proc/self/exe", "lam", AFTER_EXEC, arg, (char *)NULL);
		_exit(7);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	status = WEXITSTATUS(status);
	EXPECT_EQ(0, status) TH_LOG("after execve(): %s",
				    status < 8 ? after_exec_what[status] : "?");
}

/* What a thread sees of the process's mode */
struct thread_check {
	int wait_fd;		/* read a byte from it before checking (-1: none) */
	unsigned long nr_bits;	/* the mode */
	int mask_err;		/* ARCH_GET_UNTAG_MASK */
	unsigned long mask;
	int access;		/* probe_tagged() */
	int io;			/* tagged_pipe_io() */
};

static void *thread_fn(void *arg)
{
	struct thread_check *c = arg;
	char buf[64], go;

	if (c->wait_fd >= 0 && read(c->wait_fd, &go, 1) != 1)
		return NULL;
	c->mask_err = lam_get(ARCH_GET_UNTAG_MASK, &c->mask);
	c->access = probe_tagged(buf, c->nr_bits, 0x2b);
	c->io = tagged_pipe_io(c->nr_bits);
	return NULL;
}

static void check_thread(struct __test_metadata *_metadata, struct thread_check *c,
			 const char *which)
{
	EXPECT_EQ(0, c->mask_err) TH_LOG("%s", which);
	EXPECT_EQ(mask_for(c->nr_bits), c->mask) TH_LOG("%s: untag mask", which);
	EXPECT_EQ(0, c->access) TH_LOG("%s: tagged access", which);
	EXPECT_EQ(0, c->io) TH_LOG("%s: tagged read()/write()", which);
}

/*
 * LAM is the process's: a thread that was already running when LAM was
 * enabled has the mode, and so has a thread created afterwards.
 */
TEST_F(mode, threads)
{
	struct thread_check before = { .nr_bits = variant->nr_bits, .mask_err = -1 };
	struct thread_check after = { .nr_bits = variant->nr_bits, .mask_err = -1 };
	pthread_t th[2];
	int fds[2];

	if (!lam_ready(_metadata, variant->nr_bits))
		return;
	ASSERT_EQ(0, pipe(fds));
	before.wait_fd = fds[0];
	after.wait_fd = -1;
	ASSERT_EQ(0, pthread_create(&th[0], NULL, thread_fn, &before));
	EXPECT_EQ(0, lam_enable(variant->nr_bits)) TH_LOG("enable with a second thread");
	ASSERT_EQ(1, write(fds[1], "g", 1));
	ASSERT_EQ(0, pthread_join(th[0], NULL));
	ASSERT_EQ(0, pthread_create(&th[1], NULL, thread_fn, &after));
	ASSERT_EQ(0, pthread_join(th[1], NULL));
	check_thread(_metadata, &before, "thread running before enabling");
	check_thread(_metadata, &after, "thread created after enabling");
	close(fds[0]);
	close(fds[1]);
}

/*
 * Can a test that maps above 47 bits go on?  Without 5-level paging it is
 * skipped, or goes on as if it could where 5-level paging is required
 * (--require-la57).
 */
static int high_ready(struct __test_metadata *_metadata)
{
	if (lam.high_map)
		return 1;
	if (lam.require_la57)
		return go_on_as_if(_metadata, "nothing can be mapped above 47 bits",
				   " (5-level paging is required: --require-la57)");
	SKIP(return 0, "no 5-level paging: nothing can be mapped above 47 bits");
}

static void *map_high(void)
{
	return mmap((void *)HIGH_ADDR, PAGE_SZ, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
}

/*
 * Something mapped above 47 bits (5-level paging) first: LAM_U57 is still
 * possible and tags the high memory; LAM_U48 is EBUSY.
 */
TEST_F(mode, map_high_then_enable)
{
	unsigned long bits = 0, mask = 0;
	char *p;

	if (!lam_ready(_metadata, variant->nr_bits))
		return;
	if (!high_ready(_metadata))
		return;
	p = map_high();
	ASSERT_EQ((void *)HIGH_ADDR, p);
	EXPECT_EQ(0, lam_get(ARCH_GET_MAX_TAG_BITS, &bits));
	EXPECT_EQ(LAM_U57_BITS, bits);
	if (variant->nr_bits > LAM_U57_BITS) {
		EXPECT_EQ(EBUSY, lam_enable(variant->nr_bits));
		EXPECT_EQ(0, lam_get(ARCH_GET_UNTAG_MASK, &mask));
		EXPECT_EQ(MASK_NONE, mask);
		return;
	}
	ASSERT_EQ(0, lam_enable(variant->nr_bits));
	EXPECT_EQ(0, probe_tagged(p + 128, variant->nr_bits, 0x3f));
}

/*
 * LAM first: with LAM_U57, memory above 47 bits can still be mapped and
 * tagged (5-level paging); with LAM_U48 nothing is mapped there any more:
 * a hint above falls back below, MAP_FIXED above fails.
 */
TEST_F(mode, enable_then_map_high)
{
	char *p;

	if (!lam_ready(_metadata, variant->nr_bits))
		return;
	if (variant->nr_bits <= LAM_U57_BITS && !high_ready(_metadata))
		return;
	if (!lam_go(_metadata, variant->nr_bits))
		return;
	p = map_high();
	if (variant->nr_bits <= LAM_U57_BITS) {
		ASSERT_EQ((void *)HIGH_ADDR, p);
		EXPECT_EQ(0, probe_tagged(p, variant->nr_bits, 0x15));
		return;
	}
	EXPECT_EQ(MAP_FAILED, p) TH_LOG("LAM_U48 on, but a mapping at %p", p);
	p = mmap((void *)HIGH_HINT, PAGE_SZ, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_GT(WINDOW_47, (unsigned long)p) TH_LOG("LAM_U48 on, but a hint mapped %p", p);
	EXPECT_EQ(0, probe_tagged(p, variant->nr_bits, 0x7abc));
}

int main(int argc, char **argv)
{
	const char *req = getenv("LAM_SELFTEST_REQUIRE");
	int i, j;

	if (argc == 3 && !strcmp(argv[1], AFTER_EXEC))
		return after_exec(strtoul(argv[2], NULL, 0));

	lam.require = req && !strcmp(req, "1");
	for (i = j = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--require-lam"))
			lam.require = 1;
		else if (!strcmp(argv[i], "--require-u48"))
			lam.require_u48 = 1;
		else if (!strcmp(argv[i], "--require-la57"))
			lam.require_la57 = 1;
		else
			argv[j++] = argv[i];
	}
	argv[j] = NULL;

	setvbuf(stdout, NULL, _IOLBF, 0);
	lam_probe();
	return test_harness_run(j, argv);
}
