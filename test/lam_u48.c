// SPDX-License-Identifier: GPL-2.0
/*
 * lam_u48: LAM_U48 and mappings above 47 bits exclude each other under
 * 5-level paging (whichever comes first wins); under 4-level paging there
 * are no high mappings at all.  Both orders, hints and MAP_FIXED.
 * Expected results come from lam_expect.h (facts given by the runner).
 */
#include "lam_common.h"
#include <sys/mman.h>
#include <sys/wait.h>
#include "kselftest_harness.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif
#define U48_NBITS	15
#define WINDOW_47	(1UL << 47)

static void *map_at(unsigned long addr, int extra_flags)
{
	return mmap((void *)addr, PAGE_SZ, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | extra_flags, -1, 0);
}

static bool is_high(const void *p)
{
	return (unsigned long)p >= WINDOW_47;
}

/* ---- high mapping first, then U48 ---- */

FIXTURE(high_first) {};
FIXTURE_SETUP(high_first) {}
FIXTURE_TEARDOWN(high_first) {}

FIXTURE_VARIANT(high_first) {
	unsigned long addr;
	int flags;
};

FIXTURE_VARIANT_ADD(high_first, hint) { .addr = HIGH_HINT, .flags = 0 };
FIXTURE_VARIANT_ADD(high_first, fixed) { .addr = HIGH_ADDR, .flags = MAP_FIXED_NOREPLACE };

TEST_F(high_first, then_enable_u48)
{
	unsigned long bits = 0x1234;
	void *p = map_at(variant->addr, variant->flags);

	if (variant->flags) {
		EXPECT_EQ(exp_high_map(false) ? (void *)variant->addr : MAP_FAILED, p);
	} else {
		ASSERT_NE(MAP_FAILED, p);
		EXPECT_EQ(exp_high_map(false), is_high(p)) TH_LOG("hint mapping at %p", p);
	}
	/* GET_MAX_TAG_BITS accounts for the high mapping */
	EXPECT_EQ(exp_max_tag_bits_rc(), lam_get_max_bits(&bits));
	if (exp_max_tag_bits_rc() == 0)
		EXPECT_EQ(exp_max_tag_bits(true), bits);
	EXPECT_EQ(exp_enable(U48_NBITS, LAM_FRESH, true), lam_enable(U48_NBITS));
	EXPECT_EQ(exp_mask_after(U48_NBITS, LAM_FRESH, true), lam_mask_now());
	/* the high mapping (if any) is still usable */
	if (p != MAP_FAILED)
		EXPECT_EQ(0, lam_probe_write(p, p, 3));
}

/* U57 is not affected by high mappings */
TEST_F(high_first, then_enable_u57)
{
	void *p = map_at(variant->addr, variant->flags);
	int want = exp_enable(6, LAM_FRESH, true);

	EXPECT_EQ(want, lam_enable(6));
	if (p != MAP_FAILED)
		EXPECT_EQ(want == 0 ? 0 : SIGSEGV,
			  lam_probe_write(lam_tag(p, &lam_u57, 0), p, 4));
}

/* "anything mapped above": once unmapped, U48 is possible again */
TEST_F(high_first, unmap_then_enable_u48)
{
	void *p = map_at(variant->addr, variant->flags);

	if (p != MAP_FAILED)
		ASSERT_EQ(0, munmap(p, PAGE_SZ));
	EXPECT_EQ(exp_enable(U48_NBITS, LAM_FRESH, false), lam_enable(U48_NBITS));
	EXPECT_EQ(exp_mask_after(U48_NBITS, LAM_FRESH, false), lam_mask_now());
}

/* ---- U48 first, then high mappings ---- */

FIXTURE(u48_first) {
	bool u48_on;
};

FIXTURE_SETUP(u48_first)
{
	int want = exp_enable(U48_NBITS, LAM_FRESH, false);

	EXPECT_EQ(want, lam_enable(U48_NBITS));
	self->u48_on = (want == 0);
}

FIXTURE_TEARDOWN(u48_first) {}

TEST_F(u48_first, high_hint_falls_below)
{
	char *p = map_at(HIGH_HINT, 0);

	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(exp_high_map(self->u48_on), is_high(p)) TH_LOG("hint mapping at %p", p);
	/* the mapping is usable with U48 tags */
	EXPECT_EQ(self->u48_on ? 0 : SIGSEGV,
		  lam_probe_write(lam_tag(p, &lam_u48, 0x7abc), (void *)p, 5));
}

TEST_F(u48_first, map_fixed_high_fails)
{
	void *p = map_at(HIGH_ADDR, MAP_FIXED_NOREPLACE);

	EXPECT_EQ(exp_high_map(self->u48_on) ? (void *)HIGH_ADDR : MAP_FAILED, p);
	p = map_at(HIGH_ADDR + 16 * PAGE_SZ, MAP_FIXED);
	EXPECT_EQ(exp_high_map(self->u48_on) ? (void *)(HIGH_ADDR + 16 * PAGE_SZ) : MAP_FAILED, p);
}

TEST_F(u48_first, mremap_to_high_fails)
{
	void *p = map_at(0, 0), *q;

	ASSERT_NE(MAP_FAILED, p);
	q = mremap(p, PAGE_SZ, PAGE_SZ, MREMAP_MAYMOVE | MREMAP_FIXED, (void *)HIGH_ADDR);
	if (exp_high_map(self->u48_on)) {
		EXPECT_EQ((void *)HIGH_ADDR, q);
	} else {
		EXPECT_EQ(MAP_FAILED, q);
	}
}

TEST_F(u48_first, many_mappings_stay_below)
{
	for (int i = 0; i < 64; i++) {
		void *p = mmap(NULL, 1 << 20, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		ASSERT_NE(MAP_FAILED, p);
		EXPECT_FALSE(is_high(p));
	}
}

/* a fork of a U48 process keeps the restriction */
TEST_F(u48_first, fork_child_no_high)
{
	int status;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (pid == 0) {
		char *p = map_at(HIGH_HINT, 0);

		EXPECT_NE(MAP_FAILED, p);
		EXPECT_EQ(exp_high_map(self->u48_on), is_high(p));
		EXPECT_EQ(exp_high_map(self->u48_on) ? (void *)HIGH_ADDR : MAP_FAILED,
			  map_at(HIGH_ADDR, MAP_FIXED_NOREPLACE));
		_exit(_metadata->passed ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
}

/* execve drops U48, so high mappings are possible again */
static int highmap_after_exec(int argc, char **argv)
{
	void *p = map_at(HIGH_HINT, 0);

	(void)argc;
	(void)argv;
	printf("mask=%#lx map=%p\n", lam_mask_now(), p);
	fflush(stdout);
	return 0;
}

TEST_F(u48_first, execve_allows_high_again)
{
	char out[128] = "";
	unsigned long mask = 0;
	void *p = NULL;
	int fds[2], status;
	ssize_t len;
	pid_t pid;

	ASSERT_EQ(0, pipe(fds));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		dup2(fds[1], 1);
		execl("/proc/self/exe", "lam_u48", "--lam-highmap", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	len = read(fds[0], out, sizeof(out) - 1);
	ASSERT_LT(0, len);
	out[len] = 0;
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(2, sscanf(out, "mask=%lx map=%p", &mask, &p)) TH_LOG("report: %s", out);
	EXPECT_EQ(LAM_MASK_NONE, mask);
	EXPECT_EQ(exp_high_map(false), is_high(p)) TH_LOG("after exec: %p", p);
}

LAM_HARNESS_MAIN(highmap_after_exec)
