// SPDX-License-Identifier: GPL-2.0
/*
 * lam_inherit: fork inherits the LAM mode and locks it in, execve resets
 * it, threads / CLONE_VM users of the mm make ARCH_ENABLE_TAGGED_ADDR EBUSY,
 * threads created after enabling share the mode.
 * Expected results come from lam_expect.h (facts given by the runner).
 */
#include "lam_common.h"
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include "kselftest_harness.h"

FIXTURE(inherit) {
	bool on;
	const struct lam_mode *mode;
};

FIXTURE_VARIANT(inherit) {
	unsigned long nbits;
};

FIXTURE_VARIANT_ADD(inherit, u57) { .nbits = 6 };
FIXTURE_VARIANT_ADD(inherit, u48) { .nbits = 15 };

FIXTURE_SETUP(inherit)
{
	self->mode = lam_mode_of(variant->nbits);
	self->on = false;
}

FIXTURE_TEARDOWN(inherit) {}

static void enable_checked(struct __test_metadata *_metadata, FIXTURE_DATA(inherit) *self,
			   unsigned long n)
{
	int want = exp_enable(n, LAM_FRESH, false);

	EXPECT_EQ(want, lam_enable(n));
	self->on = (want == 0);
}

/* seed: "FORK: child process should get LAM mode same as parent" + locked in */
TEST_F(inherit, fork_inherits_and_locks)
{
	unsigned long n = variant->nbits;
	int status;
	pid_t pid;

	enable_checked(_metadata, self, n);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		char *buf = calloc(1, 32);
		enum lam_state st = self->on ? LAM_ENABLED : LAM_FRESH;

		EXPECT_UNTAG_MASK(exp_mask_after(n, LAM_FRESH, false), "child");
		EXPECT_EQ(self->on ? 0 : SIGSEGV,
			  lam_probe_strcpy(lam_tag(buf, self->mode, 0), buf, "in child"));
		/* the child cannot change the inherited mode */
		EXPECT_EQ(exp_enable(n, st, false), lam_enable(n)) TH_LOG("child's enable");
		EXPECT_EQ(exp_enable(6, st, false), lam_enable(6));
		_exit(_metadata->passed ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status) TH_LOG("the child saw a wrong LAM state");
}

/* a child forked before enabling keeps its own (disabled) mode */
TEST_F(inherit, fork_before_enable_is_independent)
{
	unsigned long n = variant->nbits;
	int to_child[2], status;
	pid_t pid;

	ASSERT_EQ(0, pipe(to_child));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		char *buf = calloc(1, 32);

		pipe_get(to_child[0]);
		EXPECT_UNTAG_MASK(LAM_MASK_NONE, "child forked before enable");
		EXPECT_EQ(SIGSEGV, lam_probe_strcpy(lam_tag(buf, self->mode, 0), buf, "x"));
		/* and can still enable on its own */
		EXPECT_EQ(exp_enable(n, LAM_FRESH, false), lam_enable(n));
		_exit(_metadata->passed ? 0 : 1);
	}
	enable_checked(_metadata, self, n);
	pipe_put(to_child[1], 'g');
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
}

/* seed: "EXECVE: child process should get disabled LAM mode" */
static int report_after_exec(int argc, char **argv)
{
	/* argv: --lam-report NBITS ; prints "getmask=%d mask=%#lx enable=%d" */
	unsigned long n = argc > 2 ? strtoul(argv[2], NULL, 0) : 6;
	unsigned long m = 0x5a5a5a5aUL;
	int get_rc = lam_get_mask(&m);
	int rc = lam_enable(n);

	printf("getmask=%d mask=%#lx enable=%d\n", get_rc, m, rc);
	fflush(stdout);
	return 0;
}

TEST_F(inherit, execve_resets)
{
	unsigned long n = variant->nbits;
	char out[128] = "", arg[16];
	unsigned long mask = 0;
	int fds[2], status, rc = -99, get_rc = -99;
	ssize_t len;
	pid_t pid;

	enable_checked(_metadata, self, n);
	ASSERT_EQ(0, pipe(fds));
	snprintf(arg, sizeof(arg), "%lu", n);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		dup2(fds[1], 1);
		execl("/proc/self/exe", "lam_inherit", "--lam-report", arg, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	len = read(fds[0], out, sizeof(out) - 1);
	ASSERT_LT(0, len) TH_LOG("no report from the exec'd program");
	out[len] = 0;
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
	ASSERT_EQ(3, sscanf(out, "getmask=%d mask=%lx enable=%d", &get_rc, &mask, &rc))
		TH_LOG("report: %s", out);
	EXPECT_EQ(exp_get_mask_rc(), get_rc) TH_LOG("ARCH_GET_UNTAG_MASK after execve");
	if (exp_get_mask_rc() == 0 && get_rc == 0)
		EXPECT_EQ(LAM_MASK_NONE, mask) TH_LOG("untag mask after execve");
	/* a fresh process image may enable again */
	EXPECT_EQ(exp_enable(n, LAM_FRESH, false), rc) TH_LOG("enable after execve");
	/* the parent keeps its mode */
	EXPECT_UNTAG_MASK(exp_mask_after(n, LAM_FRESH, false), "parent after the child's execve");
}

/* ---- threads ---- */

static int thr_pipe[2];

static void *idle_thread(void *arg)
{
	(void)arg;
	pipe_get(thr_pipe[0]);
	return NULL;
}

/* mainline rule: no enabling once the mm has another thread */
TEST_F(inherit, thread_makes_enable_ebusy)
{
	unsigned long n = variant->nbits;
	pthread_t th;

	ASSERT_EQ(0, pipe(thr_pipe));
	ASSERT_EQ(0, pthread_create(&th, NULL, idle_thread, NULL));
	EXPECT_EQ(exp_enable(n, LAM_SHARED_MM, false), lam_enable(n));
	EXPECT_UNTAG_MASK(LAM_MASK_NONE, "with a second thread");
	pipe_put(thr_pipe[1], 'q');
	pthread_join(th, NULL);
}

static int clone_child(void *arg)
{
	(void)arg;
	pipe_get(thr_pipe[0]);
	return 0;
}

/* a CLONE_VM process (not a thread) shares the mm too */
TEST_F(inherit, clone_vm_makes_enable_ebusy)
{
	unsigned long n = variant->nbits;
	size_t stk_sz = 64 * 1024;
	char *stk = mmap(NULL, stk_sz, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	int status;
	pid_t pid;

	ASSERT_NE(MAP_FAILED, stk);
	ASSERT_EQ(0, pipe(thr_pipe));
	pid = clone(clone_child, stk + stk_sz, CLONE_VM | SIGCHLD, NULL);
	ASSERT_LT(0, pid);
	EXPECT_EQ(exp_enable(n, LAM_SHARED_MM, false), lam_enable(n));
	EXPECT_UNTAG_MASK(LAM_MASK_NONE, "with a CLONE_VM child");
	pipe_put(thr_pipe[1], 'q');
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
}

struct thr_result {
	const struct lam_mode *mode;
	unsigned long want_mask;
	bool mask_ok;
	int mask_rc;
	unsigned long mask;
	int access;
};

static void *check_thread(void *arg)
{
	struct thr_result *r = arg;
	char *buf = calloc(1, 32);

	r->mask_ok = lam_mask_is(r->want_mask, &r->mask_rc, &r->mask);
	r->access = lam_probe_strcpy(lam_tag(buf, r->mode, 0), buf, "thread");
	return NULL;
}

/* threads created after enabling see the same mode */
TEST_F(inherit, thread_after_enable_shares_mode)
{
	unsigned long n = variant->nbits;
	struct thr_result r = {
		.mode = self->mode,
		.want_mask = exp_mask_after(n, LAM_FRESH, false),
		.access = -1,
	};
	pthread_t th;

	enable_checked(_metadata, self, n);
	ASSERT_EQ(0, pthread_create(&th, NULL, check_thread, &r));
	ASSERT_EQ(0, pthread_join(th, NULL));
	EXPECT_TRUE(r.mask_ok) TH_LOG("thread: ARCH_GET_UNTAG_MASK %s, mask %#lx, want %#lx",
				      r.mask_rc ? strerror(r.mask_rc) : "ok", r.mask,
				      r.want_mask);
	EXPECT_EQ(self->on ? 0 : SIGSEGV, r.access);
	/*
	 * Another enable is refused: already enabled, or the mm has had a
	 * second thread (the lock stays after the thread is gone).
	 */
	EXPECT_EQ(exp_enable(n, self->on ? LAM_ENABLED : LAM_SHARED_MM, false), lam_enable(n));
}

LAM_HARNESS_MAIN(report_after_exec)
