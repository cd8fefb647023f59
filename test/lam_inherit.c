// SPDX-License-Identifier: GPL-2.0
/*
 * lam_inherit: fork inherits the LAM mode and locks it in, execve resets
 * it; ARCH_ENABLE_TAGGED_ADDR with other threads / CLONE_VM processes on
 * the mm (alive or gone) applies to all of them, also when a thread other
 * than the main one enables it; while the mm is lent to a vfork child, no
 * task on it can enable (EBUSY, the parent's mode unchanged: the child, a
 * thread or CLONE_VM child of it, another thread of the parent), and the
 * child sees its parent's mode; a CLONE_VFORK child without CLONE_VM has
 * an mm of its own and may enable.
 * Expected results come from lam_expect.h (facts given by the runner).
 */
#include "lam_common.h"
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <linux/futex.h>
#include <sys/wait.h>
#include "lam_harness.h"

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

	LAM_SETUP_ENABLE(want, n);
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

/* ---- threads and CLONE_VM processes: the mode is the whole process's ---- */

/*
 * What another thread (or CLONE_VM process) sees: ARCH_GET_UNTAG_MASK and a
 * tagged strcpy.  Optionally it first waits for @go (spinning, so that on
 * SMP it is running in user mode when the mode changes) and/or enables LAM
 * itself.
 */
struct thr_result {
	const struct lam_mode *mode;
	unsigned long want_mask;	/* set before @go */
	int *go;			/* NULL: check at once */
	unsigned long enable_nbits;	/* 0: do not enable */
	int enable_rc;
	bool mask_ok;
	int mask_rc;
	unsigned long mask;
	int access;
	char buf[32];
};

static void thr_check(struct thr_result *r)
{
	if (r->go)
		while (!__atomic_load_n(r->go, __ATOMIC_ACQUIRE))
			sched_yield();
	if (r->enable_nbits)
		r->enable_rc = lam_enable(r->enable_nbits);
	r->mask_ok = lam_mask_is(r->want_mask, &r->mask_rc, &r->mask);
	r->access = lam_probe_strcpy(lam_tag(r->buf, r->mode, 0), r->buf, "thread");
}

static void *check_thread(void *arg)
{
	thr_check(arg);
	return NULL;
}

static void thr_result_init(struct thr_result *r, const struct lam_mode *mode)
{
	memset(r, 0, sizeof(*r));
	r->mode = mode;
	r->want_mask = 0x5a5a;
	r->mask_rc = -1;
	r->access = -1;
}

static void thr_result_expect(struct __test_metadata *_metadata, const char *who,
			      const struct thr_result *r, bool on)
{
	EXPECT_TRUE(r->mask_ok) TH_LOG("%s: ARCH_GET_UNTAG_MASK %s, mask %#lx, want %#lx",
				       who, r->mask_rc ? strerror(r->mask_rc) : "ok",
				       r->mask, r->want_mask);
	EXPECT_EQ(on ? 0 : SIGSEGV, r->access)
		TH_LOG("%s: tagged strcpy (0: worked, else the signal)", who);
}

/* the main thread, the same checks */
static void main_expect(struct __test_metadata *_metadata, FIXTURE_DATA(inherit) *self,
			unsigned long want_mask, const char *when)
{
	char *buf = calloc(1, 32);

	ASSERT_NE(NULL, buf);
	EXPECT_UNTAG_MASK(want_mask, "main thread, %s", when);
	EXPECT_EQ(self->on ? 0 : SIGSEGV,
		  lam_probe_strcpy(lam_tag(buf, self->mode, 0), buf, "main"))
		TH_LOG("main thread, %s: tagged strcpy", when);
	free(buf);
}

/* seed rule: enabling with another thread alive applies to both */
TEST_F(inherit, thread_alive_enable_applies_to_all)
{
	unsigned long n = variant->nbits;
	static int go;
	struct thr_result r;
	pthread_t th;
	int want;

	thr_result_init(&r, self->mode);
	__atomic_store_n(&go, 0, __ATOMIC_RELEASE);
	r.go = &go;
	ASSERT_EQ(0, pthread_create(&th, NULL, check_thread, &r));
	want = exp_enable(n, LAM_SHARED_MM, false);
	EXPECT_EQ(want, lam_enable(n)) TH_LOG("ARCH_ENABLE_TAGGED_ADDR(%lu) with a second thread", n);
	self->on = (want == 0);
	r.want_mask = exp_mask_after(n, LAM_SHARED_MM, false);
	main_expect(_metadata, self, r.want_mask, "a second thread alive");
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	ASSERT_EQ(0, pthread_join(th, NULL));
	thr_result_expect(_metadata, "the thread alive at enable time", &r, self->on);
	/* once on, the mode is final */
	EXPECT_EQ(exp_enable(n, self->on ? LAM_ENABLED : LAM_SHARED_MM, false), lam_enable(n))
		TH_LOG("second ARCH_ENABLE_TAGGED_ADDR(%lu)", n);
}

/* a thread that has come and gone leaves nothing behind */
TEST_F(inherit, thread_exited_then_enable)
{
	unsigned long n = variant->nbits;
	struct thr_result r;
	pthread_t th;

	thr_result_init(&r, self->mode);
	r.want_mask = LAM_MASK_NONE;
	ASSERT_EQ(0, pthread_create(&th, NULL, check_thread, &r));
	ASSERT_EQ(0, pthread_join(th, NULL));
	thr_result_expect(_metadata, "the thread before enabling", &r, false);

	enable_checked(_metadata, self, n);
	main_expect(_metadata, self, exp_mask_after(n, LAM_FRESH, false), "after enabling");
	thr_result_init(&r, self->mode);
	r.want_mask = exp_mask_after(n, LAM_FRESH, false);
	ASSERT_EQ(0, pthread_create(&th, NULL, check_thread, &r));
	ASSERT_EQ(0, pthread_join(th, NULL));
	thr_result_expect(_metadata, "a new thread after enabling", &r, self->on);
}

/* a thread other than the main one enables LAM for the whole process */
TEST_F(inherit, thread_enables_for_process)
{
	unsigned long n = variant->nbits;
	struct thr_result r;
	pthread_t th;
	int want;

	thr_result_init(&r, self->mode);
	r.enable_nbits = n;
	r.want_mask = exp_mask_after(n, LAM_SHARED_MM, false);
	ASSERT_EQ(0, pthread_create(&th, NULL, check_thread, &r));
	ASSERT_EQ(0, pthread_join(th, NULL));
	want = exp_enable(n, LAM_SHARED_MM, false);
	EXPECT_EQ(want, r.enable_rc) TH_LOG("the thread's ARCH_ENABLE_TAGGED_ADDR(%lu): %s",
					    n, r.enable_rc ? strerror(r.enable_rc) : "ok");
	self->on = (want == 0);
	thr_result_expect(_metadata, "the enabling thread", &r, self->on);
	main_expect(_metadata, self, r.want_mask, "after another thread enabled");
	EXPECT_EQ(exp_enable(n, self->on ? LAM_ENABLED : LAM_FRESH, false), lam_enable(n))
		TH_LOG("main thread's ARCH_ENABLE_TAGGED_ADDR(%lu) afterwards", n);
}

static int clone_child(void *arg)
{
	struct thr_result *r = arg;

	thr_check(r);
	return 0;
}

/* a CLONE_VM process (not a thread, no CLONE_VFORK) gets the mode too */
TEST_F(inherit, clone_vm_child_gets_mode)
{
	unsigned long n = variant->nbits;
	size_t stk_sz = 64 * 1024;
	char *stk = mmap(NULL, stk_sz, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	static int go;
	struct thr_result r;
	int status, want;
	pid_t pid;

	ASSERT_NE(MAP_FAILED, stk);
	thr_result_init(&r, self->mode);
	__atomic_store_n(&go, 0, __ATOMIC_RELEASE);
	r.go = &go;
	pid = clone(clone_child, stk + stk_sz, CLONE_VM | SIGCHLD, &r);
	ASSERT_LT(0, pid);
	want = exp_enable(n, LAM_SHARED_MM, false);
	EXPECT_EQ(want, lam_enable(n)) TH_LOG("ARCH_ENABLE_TAGGED_ADDR(%lu) with a CLONE_VM child", n);
	self->on = (want == 0);
	r.want_mask = exp_mask_after(n, LAM_SHARED_MM, false);
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status) TH_LOG("the CLONE_VM child died (status %#x)", status);
	thr_result_expect(_metadata, "the CLONE_VM child", &r, self->on);
	main_expect(_metadata, self, r.want_mask, "with a CLONE_VM child");
}

/* threads created after enabling see the same mode */
TEST_F(inherit, thread_after_enable_shares_mode)
{
	unsigned long n = variant->nbits;
	struct thr_result r;
	pthread_t th;

	enable_checked(_metadata, self, n);
	thr_result_init(&r, self->mode);
	r.want_mask = exp_mask_after(n, LAM_FRESH, false);
	ASSERT_EQ(0, pthread_create(&th, NULL, check_thread, &r));
	ASSERT_EQ(0, pthread_join(th, NULL));
	thr_result_expect(_metadata, "a thread created after enabling", &r, self->on);
	/* another enable: refused once on; with LAM off the thread changes nothing */
	EXPECT_EQ(exp_enable(n, self->on ? LAM_ENABLED : LAM_FRESH, false), lam_enable(n));
}

/* ---- vfork: the child runs on its parent's mm until execve/_exit ---- */

/* what the vfork child saw (it shares the memory) */
static struct {
	unsigned long nbits;		/* in: ENABLE's argument */
	const unsigned char *load;	/* in: tagged address to load from, or NULL */
	int enable_rc;
	int mask_rc;
	unsigned long mask;
	int bits_rc;
	unsigned long bits;
	unsigned char loaded;
} vf;

/*
 * vfork; the child reads the mask and the max tag bits, tries ENABLE(nbits),
 * loads through vf.load, and _exits.  A function of its own, without
 * arguments or locals the child could clobber.  Returns the child's pid.
 */
static pid_t __attribute__((noinline)) vfork_probe(void)
{
	pid_t pid;

	vf.enable_rc = vf.mask_rc = vf.bits_rc = -1;
	vf.mask = vf.bits = 0x5a5a5a5aUL;
	vf.loaded = 0;
	pid = vfork();
	if (pid == 0) {
		vf.mask_rc = -raw_arch_prctl(ARCH_GET_UNTAG_MASK, (unsigned long)&vf.mask);
		vf.bits_rc = -raw_arch_prctl(ARCH_GET_MAX_TAG_BITS, (unsigned long)&vf.bits);
		vf.enable_rc = -raw_arch_prctl(ARCH_ENABLE_TAGGED_ADDR, vf.nbits);
		if (vf.load)	/* a fault kills the child: the parent sees it */
			vf.loaded = __atomic_load_n(vf.load, __ATOMIC_RELAXED);
		_exit(0);
	}
	return pid;
}

static void vf_expect(struct __test_metadata *_metadata, unsigned long mode_nbits)
{
	unsigned long want_mask = exp_mask_for(mode_nbits);
	enum lam_state st = mode_nbits ? LAM_ENABLED : LAM_VFORK_LENT;

	EXPECT_EQ(exp_enable(vf.nbits, st, false), vf.enable_rc)
		TH_LOG("vfork child: ARCH_ENABLE_TAGGED_ADDR(%lu): %s", vf.nbits,
		       vf.enable_rc ? strerror(vf.enable_rc) : "ok");
	EXPECT_EQ(exp_get_mask_rc(), vf.mask_rc) TH_LOG("vfork child: ARCH_GET_UNTAG_MASK: %s",
						     vf.mask_rc ? strerror(vf.mask_rc) : "ok");
	if (!vf.mask_rc && !exp_get_mask_rc())
		EXPECT_EQ(want_mask, vf.mask) TH_LOG("vfork child: untag mask");
	EXPECT_EQ(exp_max_tag_bits_rc(), vf.bits_rc)
		TH_LOG("vfork child: ARCH_GET_MAX_TAG_BITS: %s",
		       vf.bits_rc ? strerror(vf.bits_rc) : "ok");
	if (!vf.bits_rc && !exp_max_tag_bits_rc())
		EXPECT_EQ(exp_max_tag_bits_of(mode_nbits, LAM_VFORK_LENT, false), vf.bits)
			TH_LOG("vfork child: ARCH_GET_MAX_TAG_BITS");
}

/* a vfork child of a process without LAM cannot enable it for the parent's mm */
TEST_F(inherit, vfork_child_enable_ebusy)
{
	unsigned long n = variant->nbits;
	int status;
	pid_t pid;

	vf.nbits = n;
	vf.load = NULL;
	pid = vfork_probe();
	ASSERT_LT(0, pid);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status) TH_LOG("the vfork child died (status %#x)", status);
	vf_expect(_metadata, 0);
	/* the parent's mode is unchanged, and still its own to choose */
	main_expect(_metadata, self, LAM_MASK_NONE, "after the vfork child's ENABLE");
	enable_checked(_metadata, self, n);
	main_expect(_metadata, self, exp_mask_after(n, LAM_FRESH, false), "enabled after the vfork");
}

/* a vfork child of a LAM process runs with the parent's mode */
TEST_F(inherit, vfork_child_of_lam_sees_mask)
{
	unsigned long n = variant->nbits, mode;
	static unsigned char word = 0xa7;
	int status;
	pid_t pid;

	enable_checked(_metadata, self, n);
	mode = exp_mode_after(n, LAM_FRESH, false);
	vf.nbits = n;
	/* load through a tag only where the table says LAM is on */
	vf.load = self->on ? lam_tag(&word, self->mode, 0x2a) : NULL;
	pid = vfork_probe();
	ASSERT_LT(0, pid);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status) TH_LOG("the vfork child died (status %#x: a tagged load %p faulted?)",
				    status, vf.load);
	if (vf.load)
		EXPECT_EQ(0xa7, vf.loaded) TH_LOG("vfork child: load through %p", vf.load);
	vf_expect(_metadata, mode);
	main_expect(_metadata, self, exp_mask_after(n, LAM_FRESH, false), "after the vfork child");
}

/*
 * ---- an address space lent to a vfork child ----
 * Until the vfork child calls execve() or exits, no task on its parent's
 * mm may change the mode the parent resumes in: a CLONE_VM child or a
 * thread the vfork child starts, and another thread of the parent, all get
 * EBUSY like the vfork child itself.  A child of vfork() without CLONE_VM
 * has an mm of its own and may enable LAM on it.
 */
enum lend_shape { LEND_CLONE_VM, LEND_THREAD, LEND_PARENT_THREAD };

static struct {
	unsigned long nbits;
	enum lend_shape shape;
	int rc;			/* errno of the ENABLE tried on the lent mm */
	int steps;		/* 1: the vfork child's own steps worked */
	int go, done;		/* vfork child <-> the parent's other thread */
	pid_t tid;		/* the vfork child's thread, cleared at its exit */
} lend;

static char lend_stack[64 * 1024] __attribute__((aligned(16)));

static int lend_enable(void *unused)
{
	lend.rc = (int)-raw_arch_prctl(ARCH_ENABLE_TAGGED_ADDR, lend.nbits);
	return 0;
}

/* the parent's other thread: ENABLE once the vfork child says so */
static void *lend_sibling(void *unused)
{
	for (long i = 0; i < 10000000 && !__atomic_load_n(&lend.go, __ATOMIC_ACQUIRE); i++)
		sched_yield();
	if (__atomic_load_n(&lend.go, __ATOMIC_ACQUIRE) == 1)
		lend_enable(NULL);
	__atomic_store_n(&lend.done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* in the vfork child: have lend.shape try ENABLE; 1 if it ran */
static int lend_from_child(void)
{
	int status;
	pid_t p, t;

	switch (lend.shape) {
	case LEND_CLONE_VM:
		p = clone(lend_enable, lend_stack + sizeof(lend_stack), CLONE_VM | SIGCHLD, NULL);
		return p > 0 && waitpid(p, &status, 0) == p && status == 0;
	case LEND_THREAD:
		p = clone(lend_enable, lend_stack + sizeof(lend_stack),
			  CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |
			  CLONE_SYSVSEM | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID,
			  NULL, &lend.tid, NULL, &lend.tid);
		if (p <= 0)
			return 0;
		while ((t = __atomic_load_n(&lend.tid, __ATOMIC_ACQUIRE)) != 0)
			syscall(SYS_futex, &lend.tid, FUTEX_WAIT, t, NULL, NULL, 0);
		return 1;
	case LEND_PARENT_THREAD:
		__atomic_store_n(&lend.go, 1, __ATOMIC_RELEASE);
		for (long i = 0; i < 10000000 && !__atomic_load_n(&lend.done, __ATOMIC_ACQUIRE); i++)
			sched_yield();
		return __atomic_load_n(&lend.done, __ATOMIC_ACQUIRE);
	}
	return 0;
}

/* vfork; the child runs lend_from_child() and _exits.  Returns its pid. */
static pid_t __attribute__((noinline)) vfork_lend(void)
{
	pid_t pid;

	pid = vfork();
	if (pid == 0) {
		lend.steps = lend_from_child();
		_exit(0);
	}
	return pid;
}

static void lend_check(struct __test_metadata *_metadata, FIXTURE_DATA(inherit) *self,
		       unsigned long n, enum lend_shape shape, const char *who)
{
	pthread_t th;
	int status;
	pid_t pid;

	memset(&lend, 0, sizeof(lend));
	lend.nbits = n;
	lend.shape = shape;
	lend.rc = -1;
	if (shape == LEND_PARENT_THREAD)
		ASSERT_EQ(0, pthread_create(&th, NULL, lend_sibling, NULL));
	pid = vfork_lend();
	if (shape == LEND_PARENT_THREAD) {
		if (pid < 0)	/* release the thread without an ENABLE */
			__atomic_store_n(&lend.go, 2, __ATOMIC_RELEASE);
		ASSERT_EQ(0, pthread_join(th, NULL));
	}
	ASSERT_LT(0, pid);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status) TH_LOG("the vfork child died (status %#x)", status);
	ASSERT_EQ(1, lend.steps) TH_LOG("%s: did not run", who);
	EXPECT_EQ(exp_enable(n, LAM_VFORK_LENT, false), lend.rc)
		TH_LOG("%s: ARCH_ENABLE_TAGGED_ADDR(%lu): %s", who, n,
		       lend.rc ? strerror(lend.rc) : "ok");
	/* the parent resumes in its own mode, and may still choose one */
	main_expect(_metadata, self, LAM_MASK_NONE, who);
	enable_checked(_metadata, self, n);
	main_expect(_metadata, self, exp_mask_after(n, LAM_FRESH, false), "enabled afterwards");
}

/* a CLONE_VM process started by the vfork child: EBUSY */
TEST_F(inherit, vfork_lent_clone_vm_child_ebusy)
{
	lend_check(_metadata, self, variant->nbits, LEND_CLONE_VM,
		   "a CLONE_VM child of the vfork child");
}

/* a thread of the vfork child: EBUSY */
TEST_F(inherit, vfork_lent_thread_ebusy)
{
	lend_check(_metadata, self, variant->nbits, LEND_THREAD, "a thread of the vfork child");
}

/* another thread of the parent, while the vfork child runs: EBUSY */
TEST_F(inherit, vfork_lent_parent_thread_ebusy)
{
	lend_check(_metadata, self, variant->nbits, LEND_PARENT_THREAD,
		   "the parent's other thread");
}

/* clone(CLONE_VFORK) without CLONE_VM: the child's mm is its own */
static int own_mm_enable(void *unused)
{
	unsigned long m = 0;
	int rc = lam_enable(lend.nbits);

	/* exit status: the errno, +64 if the mask does not follow it */
	if (lam_get_mask(&m) == 0 && m != exp_mask_after(lend.nbits, LAM_FRESH, false))
		rc += 64;
	return rc;
}

TEST_F(inherit, vfork_without_clone_vm_may_enable)
{
	unsigned long n = variant->nbits;
	int status;
	pid_t pid;

	lend.nbits = n;
	pid = clone(own_mm_enable, lend_stack + sizeof(lend_stack), CLONE_VFORK | SIGCHLD, NULL);
	ASSERT_LT(0, pid);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status)) TH_LOG("the child died (status %#x)", status);
	EXPECT_EQ(exp_enable(n, LAM_FRESH, false), WEXITSTATUS(status))
		TH_LOG("CLONE_VFORK child with its own mm: ARCH_ENABLE_TAGGED_ADDR(%lu): %s%s", n,
		       strerror(WEXITSTATUS(status) & 63),
		       WEXITSTATUS(status) & 64 ? ", and a wrong mask" : "");
	/* the child's mode was its own */
	main_expect(_metadata, self, LAM_MASK_NONE, "after a CLONE_VFORK child without CLONE_VM");
}

/*
 * A tracer cannot switch its tracee: PTRACE_ARCH_PRCTL(ARCH_ENABLE_TAGGED_ADDR)
 * runs in the tracer, whose mm is not the tracee's (EINVAL; ENODEV first on a
 * CPU without LAM, EINVAL for an unknown option without CONFIG_X86_LAM).  The
 * tracee's mode stays what it was.  PTRACE_ARCH_PRCTL(ARCH_GET_UNTAG_MASK)
 * reads the tracee's mask into the tracer's memory.
 */
TEST_F(inherit, ptrace_arch_prctl_cannot_enable)
{
	unsigned long n = variant->nbits, mask = 0;
	int status, want;
	pid_t pid;
	long r;

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		enable_checked(_metadata, self, n);
		if (ptrace(PTRACE_TRACEME, 0, 0, 0))
			_exit(3);
		raise(SIGSTOP);
		/* after the tracer's attempts: the mode is still our own */
		EXPECT_UNTAG_MASK(exp_mask_after(n, LAM_FRESH, false), "tracee after the tracer");
		_exit(_metadata->passed ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFSTOPPED(status)) TH_LOG("tracee status %#x", status);

	want = exp_enable(6, LAM_ENABLED, false);
	if (want == EBUSY)	/* the tracer's mm is not the tracee's: refused earlier */
		want = EINVAL;
	errno = 0;
	r = ptrace(PTRACE_ARCH_PRCTL, pid, (void *)6UL, (void *)ARCH_ENABLE_TAGGED_ADDR);
	EXPECT_EQ(-1, r);
	EXPECT_EQ(want, errno) TH_LOG("PTRACE_ARCH_PRCTL(ENABLE, 6): %s, want %s",
				      strerror(errno), strerror(want));

	errno = 0;
	r = ptrace(PTRACE_ARCH_PRCTL, pid, &mask, (void *)ARCH_GET_UNTAG_MASK);
	EXPECT_EQ(exp_get_mask_rc() ? -1 : 0, r) TH_LOG("PTRACE_ARCH_PRCTL(GET_UNTAG_MASK): %s",
							strerror(errno));
	if (!r)
		EXPECT_EQ(exp_mask_after(n, LAM_FRESH, false), mask)
			TH_LOG("tracee's mask as the tracer reads it: %#lx", mask);

	ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("the tracee saw a wrong LAM state (status %#x)", status);
}

LAM_HARNESS_MAIN(report_after_exec)
