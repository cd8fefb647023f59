// SPDX-License-Identifier: GPL-2.0
/*
 * lam_access: dereferencing tagged pointers and passing them to syscalls
 * (read/write/readv/writev/uname/open/futex private and shared/io_uring
 * incl. fixed buffers/trace_marker, which copies with
 * copy_from_user_nofault()/the mm syscalls on tagged addresses), kernel
 * addresses refused whatever the mode, with LAM_U57, LAM_U48 and without LAM.
 * Expected results come from lam_expect.h (facts given by the runner).
 */
#include "lam_common.h"
#include <fcntl.h>
#include <linux/futex.h>
#include <linux/io_uring.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include "lam_harness.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif
#define MPOL_DEFAULT	0
#define MPOL_F_ADDR	(1 << 1)

FIXTURE(lam) {
	bool on;		/* LAM expected to be on (from the table) */
	const struct lam_mode *mode;
};

FIXTURE_VARIANT(lam) {
	bool enable;		/* call ARCH_ENABLE_TAGGED_ADDR */
	unsigned long nbits;	/* its argument; also picks the tag layout */
};

/* without LAM enabled: tags in bits 62:57 and in bits 62:48 */
FIXTURE_VARIANT_ADD(lam, off_u57tags) { .enable = false, .nbits = 6 };
FIXTURE_VARIANT_ADD(lam, off_u48tags) { .enable = false, .nbits = 15 };
FIXTURE_VARIANT_ADD(lam, u57) { .enable = true, .nbits = 6 };
FIXTURE_VARIANT_ADD(lam, u48) { .enable = true, .nbits = 15 };

FIXTURE_SETUP(lam)
{
	self->mode = lam_mode_of(variant->nbits);
	self->on = false;
}

FIXTURE_TEARDOWN(lam) {}

/* Enable LAM if the variant says so; check the result against the table */
static void lam_go(struct __test_metadata *_metadata, FIXTURE_DATA(lam) *self,
		   const FIXTURE_VARIANT(lam) *variant, bool high_mapped)
{
	unsigned long n = variant->nbits;
	int want;

	if (!variant->enable) {
		self->on = false;
		return;
	}
	want = exp_enable(n, LAM_FRESH, high_mapped);
	LAM_SETUP_ENABLE(want, n);
	self->on = (want == 0);
	LAM_SETUP_UNTAG_MASK(exp_mask_after(n, LAM_FRESH, high_mapped), "after enable");
}

#define WANT_ACCESS(self)	((self)->on ? 0 : SIGSEGV)
#define WANT_RC(self)		((self)->on ? 0 : -1)

static const unsigned long tags[] = { 0 /* all ones */, 1, 0x2a, 0x5555 };
#define NTAGS (sizeof(tags) / sizeof(tags[0]))

/* ---- plain dereference ---- */

TEST_F(lam, malloc_deref)
{
	char *buf;

	lam_go(_metadata, self, variant, false);
	buf = malloc(64);
	ASSERT_NE(NULL, buf);
	strcpy(buf, "USER POINTER");
	for (unsigned int i = 0; i < NTAGS; i++) {
		char *t = lam_tag(buf, self->mode, tags[i]);

		EXPECT_EQ(WANT_ACCESS(self), lam_probe_strcpy(t, buf, "METADATA POINTER"))
			TH_LOG("tagged %p", t);
	}
	free(buf);
}

static unsigned char global_buf[64];

TEST_F(lam, global_and_stack_deref)
{
	volatile unsigned char stack_buf[64];

	lam_go(_metadata, self, variant, false);
	EXPECT_EQ(WANT_ACCESS(self),
		  lam_probe_write(lam_tag(global_buf, self->mode, 0), global_buf, 0x5a));
	EXPECT_EQ(WANT_ACCESS(self),
		  lam_probe_write(lam_tag((void *)stack_buf, self->mode, 3), stack_buf, 0xa5));
}

TEST_F(lam, mmap_low)
{
	unsigned char *p;

	lam_go(_metadata, self, variant, false);
	p = mmap((void *)LOW_ADDR, PAGE_SZ, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	ASSERT_EQ((void *)LOW_ADDR, p);
	EXPECT_EQ(WANT_ACCESS(self), lam_probe_write(lam_tag(p, self->mode, 0), p, 1));
	EXPECT_EQ(0, munmap(p, PAGE_SZ));
}

/* seed: "First LAM, then high address" */
TEST_F(lam, enable_then_mmap_high)
{
	bool u48_on, high;
	unsigned char *p;

	lam_go(_metadata, self, variant, false);
	u48_on = self->on && variant->nbits > 6;
	high = exp_high_map(u48_on);
	p = mmap((void *)HIGH_ADDR, PAGE_SZ, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (!high) {
		EXPECT_EQ(MAP_FAILED, p) TH_LOG("a fixed mapping above 47 bits must fail here");
		EXPECT_EQ(ENOMEM, errno);
		return;
	}
	ASSERT_EQ((void *)HIGH_ADDR, p);
	EXPECT_EQ(0, lam_probe_write(p, p, 7));
	EXPECT_EQ(WANT_ACCESS(self), lam_probe_write(lam_tag(p, self->mode, 0), p, 9));
}

/* seed: "First mmap high address, then set LAM" */
TEST_F(lam, mmap_high_then_enable)
{
	unsigned char *p;
	char *buf;

	p = mmap((void *)HIGH_ADDR, PAGE_SZ, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (exp_high_map(false)) {
		ASSERT_EQ((void *)HIGH_ADDR, p);
	} else {
		ASSERT_EQ(MAP_FAILED, p);
		EXPECT_EQ(ENOMEM, errno);
	}
	lam_go(_metadata, self, variant, true);
	if (p != MAP_FAILED)
		EXPECT_EQ(WANT_ACCESS(self), lam_probe_write(lam_tag(p, self->mode, 0), p, 9));
	buf = malloc(16);
	ASSERT_NE(NULL, buf);
	EXPECT_EQ(WANT_ACCESS(self), lam_probe_strcpy(lam_tag(buf, self->mode, 1), buf, "x"));
}

/* ---- pointers LAM must not accept, whatever the mode ---- */

TEST_F(lam, bad_pointers_fault)
{
	static char buf[64];
	char *bad63, *badout;
	struct utsname *u;

	lam_go(_metadata, self, variant, false);
	bad63 = lam_set_bit(lam_tag(buf, self->mode, 1), 63);
	badout = lam_set_bit(lam_tag(buf, self->mode, 1), self->mode->outside_bit);

	EXPECT_EQ(SIGSEGV, lam_probe_write((void *)bad63, (void *)buf, 1)) TH_LOG("bit 63");
	EXPECT_EQ(SIGSEGV, lam_probe_write((void *)badout, (void *)buf, 1))
		TH_LOG("bit %d (below the tag field)", self->mode->outside_bit);

	u = (struct utsname *)bad63;
	EXPECT_EQ(-1, uname(u));
	EXPECT_EQ(EFAULT, errno);
	u = (struct utsname *)badout;
	EXPECT_EQ(-1, uname(u));
	EXPECT_EQ(EFAULT, errno);
}

TEST_F(lam, bad_pointers_efault_read)
{
	static char buf[64];
	int fds[2];

	lam_go(_metadata, self, variant, false);
	ASSERT_EQ(0, pipe2(fds, O_NONBLOCK));
	ASSERT_EQ(4, write(fds[1], "abcd", 4));
	EXPECT_EQ(-1, read(fds[0], lam_set_bit(buf, 63), 4));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, read(fds[0], lam_set_bit(lam_tag(buf, self->mode, 1),
					       self->mode->outside_bit), 4));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(4, read(fds[0], buf, 4));
	close(fds[0]);
	close(fds[1]);
}

/* ---- syscalls with tagged pointers ---- */

TEST_F(lam, syscall_uname)
{
	struct utsname u, *t;
	int rc;

	lam_go(_metadata, self, variant, false);
	memset(&u, 0, sizeof(u));
	t = lam_tag(&u, self->mode, 0);
	rc = uname(t);
	if (self->on) {
		EXPECT_EQ(0, rc);
		EXPECT_STREQ("Linux", u.sysname);
	} else {
		EXPECT_EQ(-1, rc);
		EXPECT_EQ(EFAULT, errno);
	}
}

TEST_F(lam, syscall_read_write)
{
	char src[32] = "tagged write", dst[32];
	int fds[2];
	ssize_t r;

	lam_go(_metadata, self, variant, false);
	ASSERT_EQ(0, pipe2(fds, O_NONBLOCK));

	/* write() from a tagged buffer */
	r = write(fds[1], lam_tag(src, self->mode, 0), 13);
	if (self->on) {
		EXPECT_EQ(13, r);
		memset(dst, 0, sizeof(dst));
		EXPECT_EQ(13, read(fds[0], dst, 13));
		EXPECT_STREQ(src, dst);
	} else {
		EXPECT_EQ(-1, r);
		EXPECT_EQ(EFAULT, errno);
	}

	/* read() into a tagged buffer */
	ASSERT_EQ(6, write(fds[1], "hello", 6));
	memset(dst, 0, sizeof(dst));
	r = read(fds[0], lam_tag(dst, self->mode, 0x15), 6);
	if (self->on) {
		EXPECT_EQ(6, r);
		EXPECT_STREQ("hello", dst);
	} else {
		EXPECT_EQ(-1, r);
		EXPECT_EQ(EFAULT, errno);
	}
	close(fds[0]);
	close(fds[1]);
}

TEST_F(lam, syscall_readv_writev)
{
	char a[8] = "abc", b[8] = "defg", x[8] = { 0 }, y[8] = { 0 };
	struct iovec wv[2], rv[2];
	int fds[2];
	ssize_t r;

	lam_go(_metadata, self, variant, false);
	ASSERT_EQ(0, pipe2(fds, O_NONBLOCK));
	/* tagged iov_base and a tagged pointer to the iovec array */
	wv[0].iov_base = lam_tag(a, self->mode, 1);
	wv[0].iov_len = 3;
	wv[1].iov_base = lam_tag(b, self->mode, 2);
	wv[1].iov_len = 4;
	r = writev(fds[1], lam_tag(wv, self->mode, 3), 2);
	if (!self->on) {
		EXPECT_EQ(-1, r);
		EXPECT_EQ(EFAULT, errno);
		/* tagged bases only, untagged array: still EFAULT */
		EXPECT_EQ(-1, writev(fds[1], wv, 2));
		EXPECT_EQ(EFAULT, errno);
		return;
	}
	ASSERT_EQ(7, r);
	rv[0].iov_base = lam_tag(x, self->mode, 0);
	rv[0].iov_len = 3;
	rv[1].iov_base = lam_tag(y, self->mode, 5);
	rv[1].iov_len = 4;
	EXPECT_EQ(7, readv(fds[0], lam_tag(rv, self->mode, 0), 2));
	EXPECT_STREQ("abc", x);
	EXPECT_STREQ("defg", y);
}

static long sys_futex(void *uaddr, int op, int val, const struct timespec *ts)
{
	return syscall(SYS_futex, uaddr, op, val, ts, NULL, 0);
}

#define FUTEX_VAL	42
#define FUTEX_WAIT_S	4	/* a waiter gives up after this (nothing hangs) */
#define FUTEX_WAKE_MS	3000	/* a waker retries this long, within FUTEX_WAIT_S */

struct futex_waiter {
	int *uaddr;		/* the alias of the word it blocks on */
	int op;			/* FUTEX_WAIT or FUTEX_WAIT_PRIVATE */
	long rc;
	int err;
	int done;		/* FUTEX_WAIT has returned */
};

static void *futex_waiter_fn(void *arg)
{
	struct futex_waiter *w = arg;
	struct timespec ts = { FUTEX_WAIT_S, 0 };

	w->rc = sys_futex(w->uaddr, w->op, FUTEX_VAL, &ts);
	w->err = w->rc ? errno : 0;
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/*
 * FUTEX_WAKE(1) through @uaddr until it wakes somebody, i.e. until @w has
 * surely been queued: 1, or 0 if no waiter was found under that key before
 * FUTEX_WAKE_MS passed or @w gave up waiting, or -errno.
 */
static long futex_wake_one(int *uaddr, int op, struct futex_waiter *w)
{
	long deadline = now_ms() + FUTEX_WAKE_MS, r;

	do {
		r = sys_futex(uaddr, op, 1, NULL);
		if (r)
			return r < 0 ? -errno : r;
		usleep(1000);
	} while (now_ms() < deadline && !__atomic_load_n(&w->done, __ATOMIC_ACQUIRE));
	return 0;
}

/*
 * A thread blocks in FUTEX_WAIT on @wait_p; FUTEX_WAKE through @wake_p (an
 * alias of the same word with another tag, or none) must wake it: the futex
 * key names the memory, not the pointer.  A wrong key finds no waiter.
 */
static void futex_cross_wake(struct __test_metadata *_metadata, const char *what,
			     int *wait_p, int *wake_p, bool private)
{
	int wake_op = private ? FUTEX_WAKE_PRIVATE : FUTEX_WAKE;
	struct futex_waiter w = {
		.uaddr = wait_p,
		.op = private ? FUTEX_WAIT_PRIVATE : FUTEX_WAIT,
		.rc = -2,
	};
	pthread_t th;
	long r;

	ASSERT_EQ(0, pthread_create(&th, NULL, futex_waiter_fn, &w));
	r = futex_wake_one(wake_p, wake_op, &w);
	EXPECT_EQ(1, r) TH_LOG("%s: FUTEX_WAKE%s via %p woke nobody blocked via %p (%ld: %s)",
			       what, private ? "_PRIVATE" : "", wake_p, wait_p, r,
			       r < 0 ? strerror(-r) : "no waiter under that key");
	if (r != 1)	/* let the waiter go (through its own alias) */
		futex_wake_one(wait_p, wake_op, &w);
	ASSERT_EQ(0, pthread_join(th, NULL));
	EXPECT_EQ(0, w.rc) TH_LOG("%s: the waiter on %p: %s", what, wait_p,
				  w.rc ? strerror(w.err) : "woken");
}

TEST_F_TIMEOUT(lam, syscall_futex, 60)
{
	static int word = FUTEX_VAL;
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	struct futex_waiter w = { .uaddr = &word, .op = FUTEX_WAIT_PRIVATE, .rc = -2 };
	int *t1, *t2;
	pthread_t th;
	long r;

	lam_go(_metadata, self, variant, false);
	t1 = lam_tag(&word, self->mode, 1);
	t2 = lam_tag(&word, self->mode, 0);	/* all tag bits set: not t1's tag */

	/* value mismatch: the kernel must read the word through the tagged pointer */
	r = sys_futex(t2, FUTEX_WAIT_PRIVATE, FUTEX_VAL - 1, NULL);
	EXPECT_EQ(-1, r);
	EXPECT_EQ(exp_ptr_errno(LAM_PTR_TAGGED, self->on) ?: EAGAIN, errno);

	r = sys_futex(t2, FUTEX_WAIT_PRIVATE, FUTEX_VAL, &ts);
	EXPECT_EQ(-1, r);
	EXPECT_EQ(exp_ptr_errno(LAM_PTR_TAGGED, self->on) ?: ETIMEDOUT, errno);

	if (self->on) {
		/* a waiter on one alias, woken through another one */
		futex_cross_wake(_metadata, "tag -> other tag", t1, t2, true);
		futex_cross_wake(_metadata, "tag -> untagged", t1, &word, true);
		futex_cross_wake(_metadata, "untagged -> tag", &word, t2, true);
		/* the same with the shared ops (get_user_pages_fast() on the address) */
		futex_cross_wake(_metadata, "shared: tag -> other tag", t2, t1, false);
		futex_cross_wake(_metadata, "shared: tag -> untagged", t1, &word, false);
		return;
	}

	/*
	 * Without LAM a tagged pointer is refused even with a waiter blocked on
	 * the word, and does not wake it; the untagged address does.  The
	 * private wake uses t2 (bit 62 set: not canonical under any paging
	 * mode): a private FUTEX_WAKE does not touch the word, so a U48 tag 1
	 * under 5-level paging (an unmapped user address) would just wake 0.
	 * The shared wake looks the page up: EFAULT either way.
	 */
	ASSERT_EQ(0, pthread_create(&th, NULL, futex_waiter_fn, &w));
	usleep(100 * 1000);	/* most likely queued by now; checked below */
	r = sys_futex(t2, FUTEX_WAKE_PRIVATE, 1, NULL);
	EXPECT_EQ(-1, r) TH_LOG("FUTEX_WAKE_PRIVATE via %p: %ld", t2, r);
	EXPECT_EQ(EFAULT, errno);
	r = sys_futex(t1, FUTEX_WAKE, 1, NULL);
	EXPECT_EQ(-1, r) TH_LOG("FUTEX_WAKE via %p: %ld", t1, r);
	EXPECT_EQ(EFAULT, errno);
	r = futex_wake_one(&word, FUTEX_WAKE_PRIVATE, &w);
	EXPECT_EQ(1, r) TH_LOG("the untagged wake found no waiter (%ld)", r);
	ASSERT_EQ(0, pthread_join(th, NULL));
	EXPECT_EQ(0, w.rc) TH_LOG("the waiter: %s", w.rc ? strerror(w.err) : "woken");
}

/*
 * A shared futex (no FUTEX_PRIVATE_FLAG) on a MAP_SHARED|MAP_ANONYMOUS page:
 * its key is the page's (shmem inode and offset), not the mm's address;
 * under LAM every alias of the word names the same futex.
 */
TEST_F_TIMEOUT(lam, syscall_futex_shared_mapping, 60)
{
	struct futex_waiter w = { .op = FUTEX_WAIT, .rc = -2 };
	int *word, *t1, *t2, want;
	pthread_t th;
	long r;

	lam_go(_metadata, self, variant, false);
	word = mmap(NULL, PAGE_SZ, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, word);
	*word = FUTEX_VAL;
	t1 = lam_tag(word, self->mode, 1);
	t2 = lam_tag(word, self->mode, 0);	/* all tag bits set: not t1's tag */
	want = exp_ptr_errno(LAM_PTR_TAGGED, self->on);

	/* the kernel reads the word through the tagged pointer */
	r = sys_futex(t1, FUTEX_WAIT, FUTEX_VAL - 1, NULL);
	EXPECT_EQ(-1, r);
	EXPECT_EQ(want ?: EAGAIN, errno) TH_LOG("shared FUTEX_WAIT via %p, wrong value", t1);

	if (!want) {
		futex_cross_wake(_metadata, "shared mapping: tag -> other tag", t1, t2, false);
		futex_cross_wake(_metadata, "shared mapping: tag -> untagged", t2, word, false);
		futex_cross_wake(_metadata, "shared mapping: untagged -> tag", word, t1, false);
		futex_cross_wake(_metadata, "shared mapping, private ops: tag -> untagged",
				 t1, word, true);
		EXPECT_EQ(0, munmap(word, PAGE_SZ));
		return;
	}

	/*
	 * Without LAM: a waiter blocked on the untagged word; the tagged
	 * shared wakes are refused (t2 is not canonical, t1 is not mapped or
	 * not canonical: the page lookup fails either way) and wake nobody;
	 * the untagged one wakes it.
	 */
	w.uaddr = word;
	ASSERT_EQ(0, pthread_create(&th, NULL, futex_waiter_fn, &w));
	usleep(100 * 1000);	/* most likely queued by now; checked below */
	r = sys_futex(t2, FUTEX_WAKE, 1, NULL);
	EXPECT_EQ(-1, r) TH_LOG("shared FUTEX_WAKE via %p: %ld", t2, r);
	EXPECT_EQ(want, errno);
	r = sys_futex(t1, FUTEX_WAKE, 1, NULL);
	EXPECT_EQ(-1, r) TH_LOG("shared FUTEX_WAKE via %p: %ld", t1, r);
	EXPECT_EQ(want, errno);
	r = futex_wake_one(word, FUTEX_WAKE, &w);
	EXPECT_EQ(1, r) TH_LOG("the untagged shared wake found no waiter (%ld)", r);
	ASSERT_EQ(0, pthread_join(th, NULL));
	EXPECT_EQ(0, w.rc) TH_LOG("the waiter: %s", w.rc ? strerror(w.err) : "woken");
	EXPECT_EQ(0, munmap(word, PAGE_SZ));
}

/*
 * FUTEX_WAKE_OP's atomic op on uaddr2 runs with page faults disabled: on a
 * page that is not present it fails, the kernel faults the word in with
 * fixup_user_fault() (kernel/futex/core.c fault_in_user_writeable(), which
 * looks the address up in the mm) and tries again.  Through a tagged
 * uaddr2 under LAM the op is done on the word; without LAM the call is
 * EFAULT and the word stays 0.  Once on a fresh page, once after
 * MADV_DONTNEED dropped it.
 */
#define WAKE_OP_ADD	5

TEST_F(lam, syscall_futex_wake_op_faults_in)
{
	static int word1;
	int *p, *t, want, err;
	long r;

	lam_go(_metadata, self, variant, false);
	want = exp_ptr_errno(LAM_PTR_TAGGED, self->on);
	p = mmap(NULL, PAGE_SZ, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	t = lam_tag(p, self->mode, 0);
	for (int round = 0; round < 2; round++) {
		const char *what = round ? "after MADV_DONTNEED" : "fresh page";

		if (round)
			ASSERT_EQ(0, madvise(p, PAGE_SZ, MADV_DONTNEED));
		r = syscall(SYS_futex, &word1, FUTEX_WAKE_OP_PRIVATE, 1,
			    (void *)1UL, t,
			    FUTEX_OP(FUTEX_OP_ADD, WAKE_OP_ADD,
				     FUTEX_OP_CMP_EQ, 0));
		err = r ? errno : 0;
		EXPECT_EQ(want ? -1 : 0, r)
			TH_LOG("FUTEX_WAKE_OP via %p (%s): %ld (%s)", t, what,
			       r, strerror(err));
		EXPECT_EQ(want, err)
			TH_LOG("FUTEX_WAKE_OP via %p (%s): %s", t, what,
			       strerror(err));
		EXPECT_EQ(want ? 0 : WAKE_OP_ADD, *p)
			TH_LOG("the word (%s)", what);
	}
	EXPECT_EQ(0, munmap(p, PAGE_SZ));
}

/* ---- kernel addresses: refused whatever the mode ---- */

TEST_F(lam, kernel_addresses_efault)
{
	static const unsigned long kaddr[] = { 0xffffffff81000000UL, 0xffff888000000000UL };
	int want, fds[2];
	char buf[8] = "";
	ssize_t r;

	lam_go(_metadata, self, variant, false);
	want = exp_ptr_errno(LAM_PTR_KERNEL, self->on);
	ASSERT_EQ(0, pipe2(fds, O_NONBLOCK));
	ASSERT_EQ(4, write(fds[1], "abcd", 4));
	for (unsigned int i = 0; i < sizeof(kaddr) / sizeof(kaddr[0]); i++) {
		void *k = (void *)kaddr[i];

		errno = 0;
		r = read(fds[0], k, 4);
		EXPECT_EQ(want ? -1 : 4, r) TH_LOG("read() into %p", k);
		EXPECT_EQ(want, errno) TH_LOG("read() into %p: %s", k, strerror(errno));
		errno = 0;
		r = write(fds[1], k, 4);
		EXPECT_EQ(want ? -1 : 4, r) TH_LOG("write() from %p", k);
		EXPECT_EQ(want, errno) TH_LOG("write() from %p: %s", k, strerror(errno));
		errno = 0;
		EXPECT_EQ(want ? -1 : 0, uname(k)) TH_LOG("uname(%p)", k);
		EXPECT_EQ(want, errno) TH_LOG("uname(%p): %s", k, strerror(errno));
	}
	/* the failed reads consumed nothing */
	EXPECT_EQ(4, read(fds[0], buf, 4));
	EXPECT_STREQ("abcd", buf);
	close(fds[0]);
	close(fds[1]);
}

/* ---- a path string at a tagged address ---- */

TEST_F(lam, syscall_open_tagged_path)
{
	char path[] = "/tmp/lam_open_XXXXXX", none[] = "/tmp/lam_open_none/x";
	struct stat st, st2;
	int fd, tfd, want;

	lam_go(_metadata, self, variant, false);
	want = exp_ptr_errno(LAM_PTR_TAGGED, self->on);
	fd = mkstemp(path);
	ASSERT_LE(0, fd) TH_LOG("mkstemp: %s", strerror(errno));
	ASSERT_EQ(0, fstat(fd, &st));

	errno = 0;
	tfd = open(lam_tag(path, self->mode, 0x2a), O_RDONLY);
	if (!want) {
		EXPECT_LE(0, tfd) TH_LOG("open() of a tagged path: %s", strerror(errno));
		if (tfd >= 0) {
			ASSERT_EQ(0, fstat(tfd, &st2));
			EXPECT_EQ(st.st_ino, st2.st_ino) TH_LOG("opened another file");
			close(tfd);
		}
	} else {
		EXPECT_EQ(-1, tfd);
		EXPECT_EQ(want, errno) TH_LOG("open() of a tagged path: %s", strerror(errno));
	}

	errno = 0;
	EXPECT_EQ(-1, open(lam_tag(none, self->mode, 0), O_RDONLY));
	EXPECT_EQ(want ?: ENOENT, errno) TH_LOG("open() of a tagged missing path: %s",
						 strerror(errno));
	unlink(path);
	close(fd);
}

/*
 * copy_from_user_nofault() (tracing, perf, BPF): a write() to tracefs's
 * trace_marker copies the buffer with it.  With LAM the tagged buffer's
 * text reaches the trace; without, the write is EFAULT and the text is not
 * there (6.1 logs "<faulted>" instead).
 */
static int read_file(const char *path, char *buf, size_t size)
{
	ssize_t n, got = 0;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	while ((size_t)got < size - 1 && (n = read(fd, buf + got, size - 1 - got)) > 0)
		got += n;
	buf[got] = 0;
	close(fd);
	return got;
}

TEST_F(lam, syscall_trace_marker_nofault)
{
	static char trace[1 << 16];
	const char *dir = "/sys/kernel/tracing";
	char msg[64], *buf;
	int fd, want, len;
	ssize_t r;

	lam_go(_metadata, self, variant, false);
	want = exp_ptr_errno(LAM_PTR_TAGGED, self->on);
	if (mount("tracefs", dir, "tracefs", 0, NULL) && errno != EBUSY)
		ASSERT_EQ(0, errno) TH_LOG("mount tracefs on %s: %s", dir, strerror(errno));
	fd = open("/sys/kernel/tracing/trace_marker", O_WRONLY);
	ASSERT_LE(0, fd) TH_LOG("trace_marker: %s", strerror(errno));
	/* the first marker of a boot can go missing: warm up, then clear */
	EXPECT_EQ(6, write(fd, "warmup", 6));
	close(open("/sys/kernel/tracing/trace", O_WRONLY | O_TRUNC));

	len = snprintf(msg, sizeof(msg), "lam-marker-%d-%lu", getpid(), variant->nbits);
	buf = malloc(64);
	ASSERT_NE(NULL, buf);
	memcpy(buf, msg, len + 1);
	errno = 0;
	r = write(fd, lam_tag(buf, self->mode, 0x2a), len);
	if (!want) {
		EXPECT_EQ(len, r) TH_LOG("tagged write to trace_marker: %s", strerror(errno));
	} else {
		EXPECT_EQ(-1, r);
		EXPECT_EQ(want, errno) TH_LOG("tagged write to trace_marker: %s", strerror(errno));
	}
	/* untagged: always gets through (the trace works) */
	EXPECT_EQ(9, write(fd, "lam-plain", 9));
	close(fd);

	ASSERT_LE(0, read_file("/sys/kernel/tracing/trace", trace, sizeof(trace)));
	EXPECT_NE(NULL, strstr(trace, "lam-plain")) TH_LOG("the untagged marker is not in the trace");
	EXPECT_EQ(!want, strstr(trace, msg) != NULL)
		TH_LOG("\"%s\" %s in the trace", msg, want ? "unexpectedly" : "not");
	free(buf);
}

/* ---- io_uring, raw syscalls ---- */

struct uring {
	int fd;
	unsigned int *sq_tail, *sq_mask, *sq_array;
	unsigned int *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
};

static int uring_init(struct uring *u)
{
	struct io_uring_params p;
	size_t sq_sz, cq_sz;
	char *sq, *cq;

	memset(&p, 0, sizeof(p));
	u->fd = syscall(__NR_io_uring_setup, 4, &p);
	if (u->fd < 0)
		return -errno;
	sq_sz = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	cq_sz = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (p.features & IORING_FEAT_SINGLE_MMAP)
		sq_sz = cq_sz = sq_sz > cq_sz ? sq_sz : cq_sz;
	sq = mmap(NULL, sq_sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		  u->fd, IORING_OFF_SQ_RING);
	if (sq == MAP_FAILED)
		return -errno;
	cq = sq;
	if (!(p.features & IORING_FEAT_SINGLE_MMAP)) {
		cq = mmap(NULL, cq_sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
			  u->fd, IORING_OFF_CQ_RING);
		if (cq == MAP_FAILED)
			return -errno;
	}
	u->sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe),
		       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		       u->fd, IORING_OFF_SQES);
	if (u->sqes == MAP_FAILED)
		return -errno;
	u->sq_tail = (unsigned int *)(sq + p.sq_off.tail);
	u->sq_mask = (unsigned int *)(sq + p.sq_off.ring_mask);
	u->sq_array = (unsigned int *)(sq + p.sq_off.array);
	u->cq_head = (unsigned int *)(cq + p.cq_off.head);
	u->cq_tail = (unsigned int *)(cq + p.cq_off.tail);
	u->cq_mask = (unsigned int *)(cq + p.cq_off.ring_mask);
	u->cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
	return 0;
}

/* submit one sqe and wait for its completion; returns cqe->res (or -1000-errno) */
static int uring_submit_wait(struct uring *u, const struct io_uring_sqe *in)
{
	unsigned int tail = __atomic_load_n(u->sq_tail, __ATOMIC_ACQUIRE);
	unsigned int idx = tail & *u->sq_mask, head;
	int res;

	u->sqes[idx] = *in;
	u->sq_array[idx] = idx;
	__atomic_store_n(u->sq_tail, tail + 1, __ATOMIC_RELEASE);
	if (syscall(__NR_io_uring_enter, u->fd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0)
		return -1000 - errno;
	head = __atomic_load_n(u->cq_head, __ATOMIC_ACQUIRE);
	if (head == __atomic_load_n(u->cq_tail, __ATOMIC_ACQUIRE))
		return -2000;
	res = u->cqes[head & *u->cq_mask].res;
	__atomic_store_n(u->cq_head, head + 1, __ATOMIC_RELEASE);
	return res;
}

static int make_data_file(char *data, size_t len)
{
	char name[] = "/tmp/lam_uring_XXXXXX";
	int fd = mkstemp(name);

	if (fd < 0)
		return -1;
	unlink(name);
	for (size_t i = 0; i < len; i++)
		data[i] = (char)(i * 7 + 3);
	if (write(fd, data, len) != (ssize_t)len)
		return -1;
	return fd;
}

/* seed: IORING_OP_READV into tagged buffers */
TEST_F(lam, io_uring_readv)
{
	enum { BLK = 2048, NBLK = 3 };
	static char data[BLK * NBLK], out[NBLK][BLK];
	struct iovec iov[NBLK];
	struct io_uring_sqe sqe;
	struct uring u;
	int fd, res;

	lam_go(_metadata, self, variant, false);
	fd = make_data_file(data, sizeof(data));
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, uring_init(&u)) TH_LOG("io_uring_setup/mmap failed (CONFIG_IO_URING?)");
	for (int i = 0; i < NBLK; i++) {
		iov[i].iov_base = lam_tag(out[i], self->mode, i + 1);
		iov[i].iov_len = BLK;
	}
	memset(&sqe, 0, sizeof(sqe));
	sqe.opcode = IORING_OP_READV;
	sqe.fd = fd;
	sqe.addr = (unsigned long)lam_tag(iov, self->mode, 0);
	sqe.len = NBLK;
	sqe.off = 0;
	res = uring_submit_wait(&u, &sqe);
	if (self->on) {
		EXPECT_EQ((int)sizeof(data), res);
		EXPECT_EQ(0, memcmp(data, out, sizeof(data)));
	} else {
		EXPECT_EQ(-EFAULT, res);
	}
}

/* io_uring READ into a kernel address: -EFAULT whatever the mode */
TEST_F(lam, io_uring_kernel_address_efault)
{
	static const unsigned long kaddr[] = { 0xffffffff81000000UL, 0xffff888000000000UL };
	static char data[64];
	struct io_uring_sqe sqe;
	struct uring u;
	int fd;

	lam_go(_metadata, self, variant, false);
	fd = make_data_file(data, sizeof(data));
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, uring_init(&u)) TH_LOG("io_uring_setup/mmap failed (CONFIG_IO_URING?)");
	for (unsigned int i = 0; i < 2; i++) {
		memset(&sqe, 0, sizeof(sqe));
		sqe.opcode = IORING_OP_READ;
		sqe.fd = fd;
		sqe.addr = kaddr[i];
		sqe.len = sizeof(data);
		EXPECT_EQ(-exp_ptr_errno(LAM_PTR_KERNEL, self->on), uring_submit_wait(&u, &sqe))
			TH_LOG("io_uring READ into %#lx", kaddr[i]);
	}
	close(fd);
}

/*
 * IORING_OP_READ_FIXED of @len bytes at file offset @off into registered
 * buffer 0 through @addr (any pointer into it); cqe->res.
 */
static int read_fixed(struct uring *u, int fd, const char *addr, unsigned int len,
		      unsigned long off)
{
	struct io_uring_sqe sqe;

	memset(&sqe, 0, sizeof(sqe));
	sqe.opcode = IORING_OP_READ_FIXED;
	sqe.fd = fd;
	sqe.addr = (unsigned long)addr;
	sqe.len = len;
	sqe.off = off;
	sqe.buf_index = 0;
	return uring_submit_wait(u, &sqe);
}

/*
 * Register @len bytes at @base as buffer 0, the iovec itself passed
 * through a pointer with @mode's tag 1 if @tag_iov; 0 or errno.
 */
static int register_buffer(struct uring *u, void *base, size_t len, bool tag_iov,
			   const struct lam_mode *mode)
{
	static struct iovec reg;

	reg.iov_base = base;
	reg.iov_len = len;
	return syscall(__NR_io_uring_register, u->fd, IORING_REGISTER_BUFFERS,
		       tag_iov ? lam_tag(&reg, mode, 1) : (void *)&reg, 1) ? errno : 0;
}

/*
 * Registered (fixed) buffers: a buffer is memory, found by any pointer to
 * it, as the CPU ignores the tag.  Registered through a tagged pointer, a
 * READ_FIXED through the same tag, another tag and no tag all reach it.
 */
TEST_F(lam, io_uring_fixed_buffers)
{
	enum { LEN = 8192 };
	static char data[LEN];
	struct uring u;
	char *buf;
	int fd;

	lam_go(_metadata, self, variant, false);
	fd = make_data_file(data, sizeof(data));
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, uring_init(&u)) TH_LOG("io_uring_setup/mmap failed (CONFIG_IO_URING?)");
	buf = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, buf);
	if (!self->on) {
		EXPECT_EQ(EFAULT, register_buffer(&u, lam_tag(buf, self->mode, 0x2a), LEN,
						  true, self->mode));
		return;
	}
	ASSERT_EQ(0, register_buffer(&u, lam_tag(buf, self->mode, 0x2a), LEN, true, self->mode))
		TH_LOG("IORING_REGISTER_BUFFERS with a tagged buffer");
	EXPECT_EQ(LEN - 100, read_fixed(&u, fd, lam_tag(buf, self->mode, 0x2a) + 100,
					LEN - 100, 100)) TH_LOG("through the registered tag");
	EXPECT_EQ(0, memcmp(data + 100, buf + 100, LEN - 100));
	memset(buf, 0, LEN);
	EXPECT_EQ(LEN - 200, read_fixed(&u, fd, buf + 200, LEN - 200, 200))
		TH_LOG("through the untagged pointer");
	EXPECT_EQ(0, memcmp(data + 200, buf + 200, LEN - 200));
	memset(buf, 0, LEN);
	EXPECT_EQ(LEN - 300, read_fixed(&u, fd, lam_tag(buf, self->mode, 0x15) + 300,
					LEN - 300, 300)) TH_LOG("through another tag");
	EXPECT_EQ(0, memcmp(data + 300, buf + 300, LEN - 300));
	/* the range is still the buffer's: one byte past it is refused */
	EXPECT_EQ(-EFAULT, read_fixed(&u, fd, lam_tag(buf, self->mode, 0x15) + 1, LEN, 0));
	close(fd);
}

/* a buffer registered before LAM was enabled: tagged pointers reach it after */
TEST_F(lam, io_uring_fixed_buffer_registered_before_enable)
{
	enum { LEN = 4096 };
	static char data[LEN];
	struct uring u;
	char *buf;
	int fd;

	fd = make_data_file(data, sizeof(data));
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, uring_init(&u)) TH_LOG("io_uring_setup/mmap failed (CONFIG_IO_URING?)");
	buf = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, buf);
	ASSERT_EQ(0, register_buffer(&u, buf, LEN, false, self->mode));
	lam_go(_metadata, self, variant, false);
	EXPECT_EQ(self->on ? LEN - 8 : -EFAULT,
		  read_fixed(&u, fd, lam_tag(buf, self->mode, 0x2a) + 8, LEN - 8, 8))
		TH_LOG("READ_FIXED through a tagged pointer");
	if (self->on)
		EXPECT_EQ(0, memcmp(data + 8, buf + 8, LEN - 8));
	EXPECT_EQ(LEN, read_fixed(&u, fd, buf, LEN, 0)) TH_LOG("through the untagged pointer");
	close(fd);
}

/* ---- mm syscalls on tagged addresses ---- */

static char *map_pages(struct __test_metadata *_metadata, int n)
{
	char *p = mmap(NULL, n * PAGE_SZ, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, p);
	memset(p, 'x', n * PAGE_SZ);
	return p;
}

TEST_F(lam, mm_munmap)
{
	char *p;

	lam_go(_metadata, self, variant, false);
	p = map_pages(_metadata, 2);
	EXPECT_EQ(WANT_RC(self), munmap(lam_tag(p, self->mode, 0), PAGE_SZ));
	/* really unmapped (or not) */
	EXPECT_EQ(self->on ? SIGSEGV : 0, lam_probe_write((void *)p, (void *)p, 'y'));
	EXPECT_EQ(0, lam_probe_write((void *)(p + PAGE_SZ), (void *)(p + PAGE_SZ), 'y'));
}

TEST_F(lam, mm_mprotect)
{
	char *p;

	lam_go(_metadata, self, variant, false);
	p = map_pages(_metadata, 1);
	EXPECT_EQ(WANT_RC(self), mprotect(lam_tag(p, self->mode, 0), PAGE_SZ, PROT_READ));
	EXPECT_EQ(self->on ? SIGSEGV : 0, lam_probe_write((void *)p, (void *)p, 'y'));
	EXPECT_EQ(0, mprotect(p, PAGE_SZ, PROT_READ | PROT_WRITE));
}

TEST_F(lam, mm_madvise)
{
	char *p;

	lam_go(_metadata, self, variant, false);
	p = map_pages(_metadata, 1);
	EXPECT_EQ(WANT_RC(self), madvise(lam_tag(p, self->mode, 0), PAGE_SZ, MADV_DONTNEED));
	EXPECT_EQ(self->on ? 0 : 'x', p[0]);
}

/*
 * The "Locked:" kB of the mapping that holds p (/proc/self/smaps), -1 if
 * there is none: what mlock() and munlock() did, not only what they said.
 */
static long vma_locked_kb(const void *p)
{
	unsigned long a = (unsigned long)p, lo, hi;
	char line[256];
	bool in = false;
	long kb = -1;
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		/* a mapping's first line: "lo-hi perms ..." */
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) {
			in = lo <= a && a < hi;
			continue;
		}
		if (in && sscanf(line, "Locked: %ld kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb;
}

#define PAGE_KB		((long)(PAGE_SZ / 1024))

TEST_F(lam, mm_mlock_munlock)
{
	char *p;

	lam_go(_metadata, self, variant, false);
	p = map_pages(_metadata, 1);
	ASSERT_EQ(0, vma_locked_kb(p));
	EXPECT_EQ(WANT_RC(self), mlock(lam_tag(p, self->mode, 0), PAGE_SZ));
	/* the page the tagged pointer names is locked, or nothing is */
	EXPECT_EQ(self->on ? PAGE_KB : 0, vma_locked_kb(p));
	if (!self->on)
		ASSERT_EQ(0, mlock(p, PAGE_SZ));
	/* unlocked through a tagged pointer, or still locked */
	EXPECT_EQ(WANT_RC(self), munlock(lam_tag(p, self->mode, 1), PAGE_SZ));
	EXPECT_EQ(self->on ? 0 : PAGE_KB, vma_locked_kb(p));
}

/* mincore() writes 0 or 1 per page: VEC_UNSET shows that it did not write */
#define VEC_UNSET	0xfe

TEST_F(lam, mm_mincore)
{
	unsigned char vec[2] = { VEC_UNSET, VEC_UNSET };
	char *p;

	lam_go(_metadata, self, variant, false);
	p = map_pages(_metadata, 2);
	EXPECT_EQ(WANT_RC(self), mincore(lam_tag(p, self->mode, 0), 2 * PAGE_SZ, vec));
	/* both pages are resident (written by map_pages) */
	EXPECT_EQ(self->on ? 1 : VEC_UNSET, vec[0]);
	EXPECT_EQ(self->on ? 1 : VEC_UNSET, vec[1]);
	/* a tagged vector pointer */
	vec[0] = VEC_UNSET;
	EXPECT_EQ(WANT_RC(self), mincore(p, PAGE_SZ, lam_tag(vec, self->mode, 0)));
	EXPECT_EQ(self->on ? 1 : VEC_UNSET, vec[0]);
}

TEST_F(lam, mm_msync)
{
	char *p;

	lam_go(_metadata, self, variant, false);
	p = map_pages(_metadata, 1);
	EXPECT_EQ(WANT_RC(self), msync(lam_tag(p, self->mode, 0), PAGE_SZ, MS_SYNC));
	/*
	 * What msync() found: MS_INVALIDATE is EBUSY on a locked mapping
	 * only, so the tagged pointer reached this page's mapping, or none
	 * (ENOMEM: the tagged address is unmapped without LAM).
	 */
	ASSERT_EQ(0, mlock(p, PAGE_SZ));
	errno = 0;
	EXPECT_EQ(-1, msync(lam_tag(p, self->mode, 1), PAGE_SZ, MS_INVALIDATE));
	EXPECT_EQ(self->on ? EBUSY : ENOMEM, errno);
	EXPECT_EQ(0, munlock(p, PAGE_SZ));
}

TEST_F(lam, mm_mremap)
{
	char *p, *q;

	lam_go(_metadata, self, variant, false);
	p = map_pages(_metadata, 1);
	q = mremap(lam_tag(p, self->mode, 0), PAGE_SZ, 4 * PAGE_SZ, MREMAP_MAYMOVE);
	if (self->on) {
		ASSERT_NE(MAP_FAILED, q);
		EXPECT_EQ('x', q[0]);
	} else {
		EXPECT_EQ(MAP_FAILED, q);
	}
}

TEST_F(lam, mm_mbind_get_mempolicy)
{
	int mode = -1;
	char *p;
	long r;

	lam_go(_metadata, self, variant, false);
	p = map_pages(_metadata, 1);
	r = syscall(SYS_mbind, lam_tag(p, self->mode, 0), PAGE_SZ, MPOL_DEFAULT, NULL, 0, 0);
	EXPECT_EQ(WANT_RC(self), r) TH_LOG("mbind: %s", r ? strerror(errno) : "ok");
	r = syscall(SYS_get_mempolicy, &mode, NULL, 0, lam_tag(p, self->mode, 0), MPOL_F_ADDR);
	EXPECT_EQ(WANT_RC(self), r) TH_LOG("get_mempolicy: %s", r ? strerror(errno) : "ok");
	if (self->on)
		EXPECT_EQ(MPOL_DEFAULT, mode);
}

/* move_pages() with nodes: the migration path (do_pages_move) */
TEST_F(lam, mm_move_pages_move)
{
	void *pages[1];
	int nodes[1] = { 0 }, status[1] = { 12345 };
	char *p;
	long r;

	lam_go(_metadata, self, variant, false);
	p = map_pages(_metadata, 1);
	pages[0] = lam_tag(p, self->mode, 0);
	r = syscall(SYS_move_pages, 0, 1, pages, nodes, status, 0);
	ASSERT_EQ(0, r) TH_LOG("move_pages: %s", strerror(errno));
	EXPECT_EQ(self->on ? 0 : -EFAULT, status[0]);
}

/* move_pages() without nodes: only reports each page's node (do_pages_stat) */
TEST_F(lam, mm_move_pages_query)
{
	void *pages[1];
	int status[1] = { 12345 };
	char *p;
	long r;

	lam_go(_metadata, self, variant, false);
	p = map_pages(_metadata, 1);
	pages[0] = lam_tag(p, self->mode, 0);
	r = syscall(SYS_move_pages, 0, 1, pages, NULL, status, 0);
	ASSERT_EQ(0, r) TH_LOG("move_pages: %s", strerror(errno));
	EXPECT_EQ(self->on ? 0 : -EFAULT, status[0]);
}

LAM_HARNESS_MAIN(NULL)
