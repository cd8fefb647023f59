// SPDX-License-Identifier: GPL-2.0
/*
 * lam_abi: the arch_prctl() interface of LAM and its /proc reporting.
 * Expected results come from lam_expect.h (facts given by the runner).
 */
#include "lam_common.h"
#include <sys/wait.h>
#include "kselftest_harness.h"

/* ---- ARCH_GET_UNTAG_MASK / ARCH_GET_MAX_TAG_BITS on a fresh process ---- */

TEST(get_untag_mask_initial)
{
	unsigned long mask = 0x1234;

	ASSERT_EQ(exp_get_mask_rc(), lam_get_mask(&mask));
	if (exp_get_mask_rc() == 0)
		EXPECT_EQ(LAM_MASK_NONE, mask);
}

TEST(get_untag_mask_bad_pointer)
{
	/* put_user() to NULL: EFAULT, or EINVAL for an unknown option */
	EXPECT_EQ(lam_facts.kernel ? EFAULT : EINVAL,
		  lam_get_mask((unsigned long *)0));
}

TEST(max_tag_bits_initial)
{
	unsigned long bits = 0x1234;

	ASSERT_EQ(exp_max_tag_bits_rc(), lam_get_max_bits(&bits));
	if (exp_max_tag_bits_rc() == 0)
		EXPECT_EQ(exp_max_tag_bits(false), bits);
}

TEST(max_tag_bits_bad_pointer)
{
	EXPECT_EQ(lam_facts.kernel ? EFAULT : EINVAL,
		  lam_get_max_bits((unsigned long *)0));
}

TEST(unknown_option_einval)
{
	EXPECT_EQ(-1, syscall(SYS_arch_prctl, 0x4004, 0));
	EXPECT_EQ(EINVAL, errno);
}

/* ---- ARCH_ENABLE_TAGGED_ADDR for each nr_bits ---- */

FIXTURE(enable) {};
FIXTURE_SETUP(enable) {}
FIXTURE_TEARDOWN(enable) {}

FIXTURE_VARIANT(enable) {
	unsigned long nbits;
};

FIXTURE_VARIANT_ADD(enable, bits0) { .nbits = 0 };
FIXTURE_VARIANT_ADD(enable, bits1) { .nbits = 1 };
FIXTURE_VARIANT_ADD(enable, bits6) { .nbits = 6 };
FIXTURE_VARIANT_ADD(enable, bits7) { .nbits = 7 };
FIXTURE_VARIANT_ADD(enable, bits15) { .nbits = 15 };
FIXTURE_VARIANT_ADD(enable, bits16) { .nbits = 16 };
FIXTURE_VARIANT_ADD(enable, bits64) { .nbits = 64 };
FIXTURE_VARIANT_ADD(enable, bitsmax) { .nbits = ~0UL };

TEST_F(enable, fresh)
{
	unsigned long n = variant->nbits;

	EXPECT_EQ(exp_enable(n, LAM_FRESH, false), lam_enable(n));
	EXPECT_UNTAG_MASK(exp_mask_after(n, LAM_FRESH, false), "after enable");
}

TEST_F(enable, twice)
{
	/* enable(n), then again, then 0 / 16 / 1: each predicted from the state */
	unsigned long seq[] = { variant->nbits, variant->nbits, 0, 16, 1 };
	unsigned long mask = LAM_MASK_NONE;
	enum lam_state st = LAM_FRESH;

	for (unsigned int i = 0; i < sizeof(seq) / sizeof(seq[0]); i++) {
		int want = exp_enable(seq[i], st, false);

		EXPECT_EQ(want, lam_enable(seq[i]))
			TH_LOG("call %u: ARCH_ENABLE_TAGGED_ADDR(%lu)", i, seq[i]);
		if (want == 0) {
			st = LAM_ENABLED;	/* locked in: EBUSY from now on */
			mask = exp_mask_for(seq[i]);
		}
		EXPECT_UNTAG_MASK(mask, "after call %u", i);
	}
}

/* ---- /proc/PID/arch_status and /proc/PID/status ---- */

static void check_proc(struct __test_metadata *_metadata, pid_t pid,
		       unsigned long want)
{
	unsigned long mask = 0x5a5a;
	bool after_thp = false;
	int r;

	r = proc_untag_mask(pid, "arch_status", &mask, NULL, NULL);
	if (exp_arch_status_line()) {
		EXPECT_EQ(1, r) TH_LOG("pid %d: no untag_mask line in arch_status (%d)", pid, r);
		EXPECT_EQ(want, mask) TH_LOG("pid %d arch_status", pid);
		EXPECT_TRUE(proc_untag_line_is(pid, "arch_status", want));
	} else {
		/* the file exists on x86_64 (PROC_PID_ARCH_STATUS), but no line */
		EXPECT_EQ(0, r) TH_LOG("pid %d: arch_status has an untag_mask line (or is unreadable: %d)", pid, r);
	}

	mask = 0x5a5a;
	r = proc_untag_mask(pid, "status", &mask, "THP_enabled:", &after_thp);
	if (exp_status_line()) {
		EXPECT_EQ(1, r) TH_LOG("pid %d: no untag_mask line in status (%d)", pid, r);
		EXPECT_EQ(want, mask) TH_LOG("pid %d status", pid);
		EXPECT_TRUE(after_thp) TH_LOG("untag_mask: is not right after THP_enabled:");
		EXPECT_TRUE(proc_untag_line_is(pid, "status", want));
	} else {
		EXPECT_EQ(0, r);
	}
}

TEST(proc_self_initial)
{
	check_proc(_metadata, getpid(), LAM_MASK_NONE);
}

FIXTURE(proc) {};
FIXTURE_SETUP(proc) {}
FIXTURE_TEARDOWN(proc) {}

FIXTURE_VARIANT(proc) {
	unsigned long nbits;
};

FIXTURE_VARIANT_ADD(proc, u57) { .nbits = 6 };
FIXTURE_VARIANT_ADD(proc, u48) { .nbits = 15 };

TEST_F(proc, self_after_enable)
{
	unsigned long n = variant->nbits;

	EXPECT_EQ(exp_enable(n, LAM_FRESH, false), lam_enable(n));
	check_proc(_metadata, getpid(), exp_mask_after(n, LAM_FRESH, false));
}

/* the child enables LAM, the parent (without LAM) reads the child's files */
TEST_F(proc, child_enabled_read_by_parent)
{
	unsigned long n = variant->nbits;
	int to_child[2], to_parent[2], status;
	pid_t pid;

	ASSERT_EQ(0, pipe(to_child));
	ASSERT_EQ(0, pipe(to_parent));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int rc = lam_enable(n);

		pipe_put(to_parent[1], rc == exp_enable(n, LAM_FRESH, false) ? 'y' : 'n');
		pipe_get(to_child[0]);
		_exit(0);
	}
	EXPECT_EQ('y', pipe_get(to_parent[0])) TH_LOG("enable in child gave an unexpected result");
	check_proc(_metadata, pid, exp_mask_after(n, LAM_FRESH, false));
	/* and the parent itself is still untouched */
	check_proc(_metadata, getpid(), LAM_MASK_NONE);
	pipe_put(to_child[1], 'x');
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
}

/* the parent enables LAM, a child forked before that reads the parent, and back */
TEST_F(proc, parent_enabled_read_by_child)
{
	unsigned long n = variant->nbits;
	unsigned long want = exp_mask_after(n, LAM_FRESH, false);
	int to_child[2], to_parent[2], status;
	pid_t pid;

	ASSERT_EQ(0, pipe(to_child));
	ASSERT_EQ(0, pipe(to_parent));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		pipe_get(to_child[0]);	/* parent has enabled */
		check_proc(_metadata, getppid(), want);
		check_proc(_metadata, getpid(), LAM_MASK_NONE);
		_exit(_metadata->passed ? 0 : 1);
	}
	EXPECT_EQ(exp_enable(n, LAM_FRESH, false), lam_enable(n));
	check_proc(_metadata, pid, LAM_MASK_NONE);
	pipe_put(to_child[1], 'x');
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status) TH_LOG("the child's view of the parent was wrong");
}

LAM_HARNESS_MAIN(NULL)
