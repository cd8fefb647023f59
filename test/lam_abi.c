// SPDX-License-Identifier: GPL-2.0
/*
 * lam_abi: the arch_prctl() interface of LAM and its /proc reporting:
 * error codes and their order, every nr_bits, the untag mask,
 * ARCH_GET_MAX_TAG_BITS in every state (fresh, mapped above 47 bits, a
 * thread alive, U57/U48 on, fork and vfork children) followed by
 * ENABLE(the reported value), hostile destinations of the GET calls, and
 * /proc/PID/{arch_status,status} for self and other PIDs.
 * Expected results come from lam_expect.h (facts given by the runner).
 */
#include "lam_common.h"
#include <pthread.h>
#include <sched.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include "lam_harness.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

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
	EXPECT_EQ(exp_get_dest_rc(LAM_DEST_BAD, false), lam_get_mask((unsigned long *)0));
}

/*
 * ARCH_GET_MAX_TAG_BITS, then ARCH_ENABLE_TAGGED_ADDR(the reported value),
 * then ARCH_GET_UNTAG_MASK: what HWASan does.  Raw syscalls only, so that a
 * vfork child can call it; maxbits_check() judges the result.
 */
struct maxbits_obs {
	int get_rc;		/* errno of ARCH_GET_MAX_TAG_BITS */
	unsigned long bits;	/* the value it reported */
	unsigned long tried;	/* the nr_bits ENABLE was called with */
	int enable_rc;		/* errno of that ENABLE */
	int mask_rc;		/* errno of ARCH_GET_UNTAG_MASK afterwards */
	unsigned long mask;	/* the untag mask afterwards */
};

/* @fallback: nr_bits to try if ARCH_GET_MAX_TAG_BITS fails */
static void maxbits_observe(struct maxbits_obs *o, unsigned long fallback)
{
	long r;

	o->bits = 0x5a5a;
	r = raw_arch_prctl(ARCH_GET_MAX_TAG_BITS, (unsigned long)&o->bits);
	o->get_rc = -r;
	o->tried = r ? fallback : o->bits;
	o->enable_rc = -raw_arch_prctl(ARCH_ENABLE_TAGGED_ADDR, o->tried);
	o->mask = 0x5a5a5a5aUL;
	o->mask_rc = -raw_arch_prctl(ARCH_GET_UNTAG_MASK, (unsigned long)&o->mask);
}

/*
 * @mode_nbits: the mode of the mm (0: LAM off, see exp_mode_after()),
 * @st: the caller's state, @high: something was mapped above 47 bits.
 */
static void maxbits_check(struct __test_metadata *_metadata, const char *state,
			  const struct maxbits_obs *o, unsigned long mode_nbits,
			  enum lam_state st, bool high)
{
	unsigned long want = exp_max_tag_bits_of(mode_nbits, st, high);
	enum lam_state est = mode_nbits ? LAM_ENABLED : st;
	int want_en = exp_enable(o->tried, est, high);
	unsigned long want_mask;

	EXPECT_EQ(exp_max_tag_bits_rc(), o->get_rc)
		TH_LOG("%s: ARCH_GET_MAX_TAG_BITS: %s", state,
		       o->get_rc ? strerror(o->get_rc) : "ok");
	if (o->get_rc == 0 && exp_max_tag_bits_rc() == 0)
		EXPECT_EQ(want, o->bits)
			TH_LOG("%s: ARCH_GET_MAX_TAG_BITS reported %lu, the table says %lu",
			       state, o->bits, want);

	EXPECT_EQ(want_en, o->enable_rc)
		TH_LOG("%s: ARCH_ENABLE_TAGGED_ADDR(%lu) (the reported value): %s",
		       state, o->tried, o->enable_rc ? strerror(o->enable_rc) : "ok");
	if (o->get_rc == 0) {
		/* what the definition promises, whatever the value was */
		if (mode_nbits) {
			EXPECT_EQ(EBUSY, o->enable_rc)
				TH_LOG("%s: LAM is on: ENABLE(%lu) must be EBUSY", state, o->tried);
		} else if (o->bits) {
			EXPECT_EQ(0, o->enable_rc)
				TH_LOG("%s: reported %lu with LAM off, but ENABLE(%lu) refuses it",
				       state, o->bits, o->bits);
		} else {
			EXPECT_NE(0, o->enable_rc)
				TH_LOG("%s: reported 0, but ENABLE(0) succeeded", state);
		}
	}

	if (want_en == 0)
		want_mask = exp_mask_for(o->tried);
	else
		want_mask = mode_nbits ? exp_mask_for(mode_nbits) : LAM_MASK_NONE;
	EXPECT_EQ(exp_get_mask_rc(), o->mask_rc)
		TH_LOG("%s: ARCH_GET_UNTAG_MASK: %s", state,
		       o->mask_rc ? strerror(o->mask_rc) : "ok");
	if (o->mask_rc == 0 && exp_get_mask_rc() == 0)
		EXPECT_EQ(want_mask, o->mask) TH_LOG("%s: untag mask afterwards", state);
}

TEST(max_tag_bits_initial)
{
	struct maxbits_obs o;

	maxbits_observe(&o, exp_max_tag_bits(false));
	maxbits_check(_metadata, "fresh process", &o, 0, LAM_FRESH, false);
}

TEST(max_tag_bits_bad_pointer)
{
	EXPECT_EQ(exp_get_dest_rc(LAM_DEST_BAD, false), lam_get_max_bits((unsigned long *)0));
}

/* a mapping above 47 bits (5-level paging only) rules U48 out */
TEST(max_tag_bits_after_high_map)
{
	struct maxbits_obs o;
	void *p;

	p = mmap((void *)HIGH_ADDR, PAGE_SZ, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (exp_high_map(false)) {
		ASSERT_EQ((void *)HIGH_ADDR, p) TH_LOG("no mapping above 47 bits: %s",
						      strerror(errno));
	} else {
		ASSERT_EQ(MAP_FAILED, p) TH_LOG("a mapping above 47 bits at %p", p);
	}
	maxbits_observe(&o, exp_max_tag_bits(true));
	maxbits_check(_metadata, "mapped above 47 bits", &o, 0, LAM_FRESH, true);
}

static int thr_go;

static void *spin_thread(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&thr_go, __ATOMIC_ACQUIRE))
		sched_yield();
	return NULL;
}

/* another thread on the mm changes nothing */
TEST(max_tag_bits_thread_alive)
{
	struct maxbits_obs o;
	pthread_t th;

	__atomic_store_n(&thr_go, 0, __ATOMIC_RELEASE);
	ASSERT_EQ(0, pthread_create(&th, NULL, spin_thread, NULL));
	maxbits_observe(&o, exp_max_tag_bits(false));
	__atomic_store_n(&thr_go, 1, __ATOMIC_RELEASE);
	ASSERT_EQ(0, pthread_join(th, NULL));
	maxbits_check(_metadata, "a second thread alive", &o, 0, LAM_SHARED_MM, false);
}

/* filled by a vfork child: it shares the memory */
static struct maxbits_obs vfork_obs;
static unsigned long vfork_fallback;

/*
 * vfork a child that runs maxbits_observe(&vfork_obs, vfork_fallback) and
 * _exits; returns its pid once it has.  A function of its own, without
 * arguments or locals the child could clobber.
 */
static pid_t __attribute__((noinline)) vfork_observe(void)
{
	pid_t pid;

	memset(&vfork_obs, 0x5a, sizeof(vfork_obs));
	pid = vfork();
	if (pid == 0) {
		maxbits_observe(&vfork_obs, vfork_fallback);
		_exit(0);
	}
	return pid;
}

/* a vfork child of a process without LAM: 0, and ENABLE refused */
TEST(max_tag_bits_vfork_child_no_lam)
{
	struct maxbits_obs o;
	int status;
	pid_t pid;

	vfork_fallback = exp_max_tag_bits_of(0, LAM_VFORK_LENT, false);
	pid = vfork_observe();
	ASSERT_LT(0, pid);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
	maxbits_check(_metadata, "vfork child of a process without LAM", &vfork_obs,
		      0, LAM_VFORK_LENT, false);
	/* the parent is untouched: still a fresh process */
	maxbits_observe(&o, exp_max_tag_bits(false));
	maxbits_check(_metadata, "the parent after its vfork child", &o, 0, LAM_FRESH, false);
}

/* ---- ARCH_GET_MAX_TAG_BITS with LAM on, in fork and vfork children ---- */

FIXTURE(maxbits) {};
FIXTURE_SETUP(maxbits) {}
FIXTURE_TEARDOWN(maxbits) {}

FIXTURE_VARIANT(maxbits) {
	unsigned long nbits;
};

FIXTURE_VARIANT_ADD(maxbits, u57) { .nbits = 6 };
FIXTURE_VARIANT_ADD(maxbits, u48) { .nbits = 15 };

/* 6 after U57 even with U48 built in; 15 after U48 */
TEST_F(maxbits, after_enable)
{
	unsigned long n = variant->nbits, mode = exp_mode_after(n, LAM_FRESH, false);
	struct maxbits_obs o;

	LAM_SETUP_ENABLE(exp_enable(n, LAM_FRESH, false), n);
	maxbits_observe(&o, exp_max_tag_bits_of(mode, LAM_FRESH, false));
	maxbits_check(_metadata, "after enable", &o, mode, LAM_FRESH, false);
}

TEST_F(maxbits, fork_child)
{
	unsigned long n = variant->nbits, mode = exp_mode_after(n, LAM_FRESH, false);
	struct maxbits_obs o;
	int status;
	pid_t pid;

	LAM_SETUP_ENABLE(exp_enable(n, LAM_FRESH, false), n);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		maxbits_observe(&o, exp_max_tag_bits_of(mode, LAM_FRESH, false));
		maxbits_check(_metadata, "fork child", &o, mode, LAM_FRESH, false);
		_exit(_metadata->passed ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status) TH_LOG("the fork child saw a wrong ARCH_GET_MAX_TAG_BITS state");
}

TEST_F(maxbits, vfork_child)
{
	unsigned long n = variant->nbits, mode = exp_mode_after(n, LAM_FRESH, false);
	int status;
	pid_t pid;

	LAM_SETUP_ENABLE(exp_enable(n, LAM_FRESH, false), n);
	vfork_fallback = exp_max_tag_bits_of(mode, LAM_VFORK_LENT, false);
	pid = vfork_observe();
	ASSERT_LT(0, pid);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
	maxbits_check(_metadata, "vfork child", &vfork_obs, mode, LAM_VFORK_LENT, false);
	EXPECT_UNTAG_MASK(exp_mask_for(mode), "the parent after its vfork child");
}

/* ---- hostile destinations of ARCH_GET_UNTAG_MASK / ARCH_GET_MAX_TAG_BITS ---- */

#define KERNEL_PTR	0xffffffff81000000UL

FIXTURE(dest) {
	bool on;
	unsigned long mode;	/* nr_bits of the mode, 0: LAM off */
	const struct lam_mode *tags;
	void *unmapped;
	unsigned long *ro;
};

FIXTURE_VARIANT(dest) {
	bool enable;
	unsigned long nbits;	/* also the tag layout */
};

FIXTURE_VARIANT_ADD(dest, off) { .enable = false, .nbits = 6 };
FIXTURE_VARIANT_ADD(dest, u57) { .enable = true, .nbits = 6 };
FIXTURE_VARIANT_ADD(dest, u48) { .enable = true, .nbits = 15 };

FIXTURE_SETUP(dest)
{
	unsigned long n = variant->nbits;

	self->tags = lam_mode_of(n);
	self->mode = 0;
	if (variant->enable) {
		LAM_SETUP_ENABLE(exp_enable(n, LAM_FRESH, false), n);
		self->mode = exp_mode_after(n, LAM_FRESH, false);
	}
	self->on = self->mode != 0;
	self->unmapped = mmap(NULL, PAGE_SZ, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->unmapped);
	ASSERT_EQ(0, munmap(self->unmapped, PAGE_SZ));
	self->ro = mmap(NULL, PAGE_SZ, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->ro);
}

FIXTURE_TEARDOWN(dest) {}

static void check_dest(struct __test_metadata *_metadata, FIXTURE_DATA(dest) *self,
		       const char *call, int option, unsigned long want)
{
	const struct {
		const char *what;
		unsigned long addr;
	} bad[] = {
		{ "NULL", 0 },
		{ "an unmapped page", (unsigned long)self->unmapped },
		{ "a read-only page", (unsigned long)self->ro },
		{ "a kernel address", KERNEL_PTR },
	};
	unsigned long v;
	long r;

	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		r = raw_arch_prctl(option, bad[i].addr);
		EXPECT_EQ(exp_get_dest_rc(LAM_DEST_BAD, self->on), -r)
			TH_LOG("%s to %s (%#lx): %s", call, bad[i].what, bad[i].addr,
			       r ? strerror(-r) : "ok");
	}
	EXPECT_EQ(0UL, *self->ro) TH_LOG("%s wrote into a read-only page", call);

	v = 0x5a5a;
	r = raw_arch_prctl(option, (unsigned long)&v);
	EXPECT_EQ(exp_get_dest_rc(LAM_DEST_OK, self->on), -r)
		TH_LOG("%s to %p: %s", call, &v, r ? strerror(-r) : "ok");
	if (!r && !exp_get_dest_rc(LAM_DEST_OK, self->on))
		EXPECT_EQ(want, v) TH_LOG("%s through an untagged pointer", call);

	v = 0x5a5a;
	r = raw_arch_prctl(option, (unsigned long)lam_tag(&v, self->tags, 0x15));
	EXPECT_EQ(exp_get_dest_rc(LAM_DEST_TAGGED, self->on), -r)
		TH_LOG("%s to %p (tagged): %s", call, lam_tag(&v, self->tags, 0x15),
		       r ? strerror(-r) : "ok");
	if (!r && !exp_get_dest_rc(LAM_DEST_TAGGED, self->on))
		EXPECT_EQ(want, v) TH_LOG("%s through a tagged pointer", call);
	if (r)
		EXPECT_EQ(0x5a5aUL, v) TH_LOG("%s failed but wrote %#lx", call, v);
}

TEST_F(dest, get_untag_mask)
{
	check_dest(_metadata, self, "ARCH_GET_UNTAG_MASK", ARCH_GET_UNTAG_MASK,
		   exp_mask_for(self->mode));
}

TEST_F(dest, get_max_tag_bits)
{
	check_dest(_metadata, self, "ARCH_GET_MAX_TAG_BITS", ARCH_GET_MAX_TAG_BITS,
		   exp_max_tag_bits_of(self->mode, LAM_FRESH, false));
}

/*
 * The kernel says at boot, once, whether the lam= policy lets processes
 * enable LAM (on a LAM CPU with a LAM kernel; nothing otherwise).
 */
TEST(policy_boot_message)
{
	static char log[1 << 20];
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, sizeof(log) - 1);
	int lines = 0, allowed = 0;
	const char *p;

	ASSERT_LT(0, n) TH_LOG("klogctl(READ_ALL): %s", strerror(errno));
	log[n] = 0;
	for (p = log; (p = strstr(p, "x86/lam: LAM ")); p++) {
		lines++;
		if (!strncmp(p, "x86/lam: LAM available to user space", 36))
			allowed = 1;
		else
			ASSERT_EQ(0, strncmp(p, "x86/lam: LAM refused to user space", 34))
				TH_LOG("unknown policy line: %.120s", p);
	}
	if (!lam_facts.kernel || !lam_facts.cpu) {
		EXPECT_EQ(0, lines) TH_LOG("a policy line without a LAM kernel on a LAM CPU");
		return;
	}
	ASSERT_EQ(1, lines) TH_LOG("want exactly one x86/lam policy line at boot");
	EXPECT_EQ(exp_policy_allows(), allowed)
		TH_LOG("boot line says LAM %s, the policy facts say %s",
		       allowed ? "available" : "refused",
		       exp_policy_allows() ? "allowed" : "refused");
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

/*
 * Every nr_bits from 0 to 17, each in a fresh fork child (enabling is once):
 * 1..6 select U57, 7..15 U48 (EINVAL without CONFIG_X86_LAM_U48).
 */
TEST(enable_every_nbits)
{
	for (unsigned long n = 0; n <= 17; n++) {
		int status;
		pid_t pid = fork();

		ASSERT_LE(0, pid);
		if (pid == 0) {
			int want = exp_enable(n, LAM_FRESH, false);
			unsigned long mode = exp_mode_after(n, LAM_FRESH, false);
			unsigned long bits = 0x5a5a;
			static unsigned char buf[16];
			int rc = lam_enable(n);

			EXPECT_EQ(want, rc) TH_LOG("ARCH_ENABLE_TAGGED_ADDR(%lu): %s",
						   n, rc ? strerror(rc) : "ok");
			EXPECT_UNTAG_MASK(exp_mask_after(n, LAM_FRESH, false),
					  "after ENABLE(%lu)", n);
			rc = lam_get_max_bits(&bits);
			EXPECT_EQ(exp_max_tag_bits_rc(), rc);
			if (!rc && !exp_max_tag_bits_rc())
				EXPECT_EQ(exp_max_tag_bits_of(mode, LAM_FRESH, false), bits)
					TH_LOG("ARCH_GET_MAX_TAG_BITS after ENABLE(%lu)", n);
			/* a load/store through a pointer tagged in the mode's bits */
			EXPECT_EQ(mode ? 0 : SIGSEGV,
				  lam_probe_write(lam_tag(buf, lam_mode_of(n), 0), buf, 0x3c))
				TH_LOG("tagged access after ENABLE(%lu)", n);
			_exit(_metadata->passed ? 0 : 1);
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_EQ(0, status) TH_LOG("nr_bits %lu: the child saw a wrong result", n);
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
		/* CONFIG_X86_LAM=n: no line (the guard keeps the old format) */
		EXPECT_EQ(0, r) TH_LOG("pid %d: status has an untag_mask line (or is unreadable: %d)", pid, r);
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

	LAM_SETUP_ENABLE(exp_enable(n, LAM_FRESH, false), n);
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
	LAM_SETUP_ENABLE(exp_enable(n, LAM_FRESH, false), n);
	check_proc(_metadata, pid, LAM_MASK_NONE);
	pipe_put(to_child[1], 'x');
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status) TH_LOG("the child's view of the parent was wrong");
}

LAM_HARNESS_MAIN(NULL)
