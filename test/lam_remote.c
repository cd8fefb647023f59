// SPDX-License-Identifier: GPL-2.0
/*
 * lam_remote: the remote rule.  When the kernel acts on another process's
 * memory it untags the addresses it is given with the TARGET's LAM mode,
 * never with the caller's: process_vm_readv/writev, /proc/PID/mem,
 * ptrace PEEKDATA/POKEDATA, process_madvise, move_pages (query and move)
 * and /proc/PID/pagemap, each with a target with or without LAM_U57 and a
 * caller with or without it.  The caller's own buffers (the local iovec of
 * process_vm_readv) keep the caller's rule.  An address with bit 63 set
 * stays a kernel address, whatever the tag bits below it.
 *
 * And the per-CPU untag rule does not leak: a process without LAM, run on
 * CPU 0 right after a LAM process, keeps getting the stock errors for
 * tagged addresses from madvise, mincore and read.
 *
 * And a tracer's hardware watchpoint (PTRACE_POKEUSER into u_debugreg[0]
 * and [7]) on an untagged address fires for the tracee's store through a
 * tagged alias when the tracee has LAM; without LAM that store faults.
 *
 * Expected results come from lam_expect.h (facts given by the runner); the
 * errors of a refused tagged address come from the 6.1 sources, named at
 * each exp_*() function below.
 */
#include "lam_common.h"
#include <fcntl.h>
#include <sched.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <asm/debugreg.h>
#include "lam_harness.h"

#ifndef __NR_pidfd_open
#define __NR_pidfd_open		434
#endif
#ifndef __NR_process_madvise
#define __NR_process_madvise	440
#endif
#ifndef MADV_COLD
#define MADV_COLD		20
#endif
#ifndef MPOL_MF_MOVE
#define MPOL_MF_MOVE		2	/* linux/mempolicy.h: 1 << 1 */
#endif

#define REMOTE_NBITS	6	/* LAM_U57 everywhere: it works in every LAM cell */
#define PATTERN_LEN	64	/* the bytes of the target's page the tests look at */
#define POKE_WORD	0x5eedf00dcafe1234UL

/* two U57 tags: 0x2a, and 0 = all six tag bits set */
static const unsigned long tags[] = { 0x2a, 0 };
#define NTAGS (sizeof(tags) / sizeof(tags[0]))

static unsigned long tagged(unsigned long addr, unsigned long tag)
{
	return (unsigned long)lam_tag((void *)addr, &lam_u57, tag);
}

/* ---- the expectation functions (facts -> lam_expect.h; errors -> 6.1 source) ---- */

/* LAM_U57 is on in a process that asked for it: ARCH_ENABLE_TAGGED_ADDR(6) succeeds */
static bool exp_lam_on(bool asks)
{
	return asks && exp_enable(REMOTE_NBITS, LAM_FRESH, false) == 0;
}

/*
 * The remote rule: a tagged address of the target works as the untagged one
 * iff the target has LAM (untagged_addr_remote(target mm)); the caller's
 * mode does not matter.
 */
static bool exp_remote_tag_ok(bool target_on, bool caller_on)
{
	(void)caller_on;
	return target_on;
}

/*
 * process_vm_readv/writev, remote address not untagged: mm/gup.c:1213
 * __get_user_pages(): vma_lookup() finds nothing -> -EFAULT;
 * mm/process_vm_access.c:110 pinned_pages <= 0 -> -EFAULT, nothing copied.
 */
static int exp_vm_rw_errno(void)
{
	return EFAULT;
}

/*
 * /proc/PID/mem: mm/memory.c:5710 __access_remote_vm(): vma_lookup() and
 * expand_stack() find nothing -> 0 bytes; fs/proc/base.c:927 mem_rw():
 * !this_len && !copied -> -EIO.  (The offset stays positive: bit 63 clear.)
 */
static int exp_proc_mem_errno(void)
{
	return EIO;
}

/*
 * ptrace: kernel/ptrace.c:1323 generic_ptrace_peekdata() and :1335
 * generic_ptrace_pokedata(): __access_remote_vm() copied 0 bytes -> -EIO.
 */
static int exp_ptrace_errno(void)
{
	return EIO;
}

/*
 * process_madvise: lib/iov_iter.c:1790 __import_iovec() checks each iov_base
 * with access_ok() under the CALLER's rule -> -EFAULT for a caller without
 * LAM; past it, mm/madvise.c:1242 madvise_walk_vmas(): no vma -> -ENOMEM.
 */
static int exp_process_madvise_errno(bool caller_on)
{
	return caller_on ? ENOMEM : EFAULT;
}

/* move_pages(nodes = NULL): mm/migrate.c:2180 do_pages_stat_array(): no vma -> -EFAULT */
static int exp_move_pages_status(void)
{
	return -EFAULT;
}

/*
 * move_pages(nodes): mm/migrate.c:1970 add_page_for_migration(): no vma ->
 * -EFAULT; :2138 do_pages_move() stores it as the page's status.
 */
static int exp_move_pages_move_status(void)
{
	return -EFAULT;
}

/*
 * /proc/PID/pagemap: fs/proc/task_mmu.c:1691 pagemap_read(): start_vaddr >
 * mm->task_size -> start_vaddr = end_vaddr, nothing walked -> 0 bytes.
 */
static ssize_t exp_pagemap_bytes(void)
{
	return 0;
}

/*
 * A process without LAM, its own tagged address (bits 62:57: above
 * TASK_SIZE): madvise -> mm/madvise.c:1242 no vma -> -ENOMEM; mincore ->
 * mm/mincore.c:246 !access_ok(start) -> -ENOMEM; read -> fs/read_write.c:458
 * vfs_read() !access_ok(buf) -> -EFAULT.
 */
static int exp_own_madvise_errno(void)
{
	return ENOMEM;
}

static int exp_own_mincore_errno(void)
{
	return ENOMEM;
}

static int exp_own_read_errno(void)
{
	return EFAULT;
}

/* ---- helpers ---- */

static void fill_pattern(unsigned char *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)(i * 7 + 3);
	memcpy(p, "lam-remote-target", 17);
}

static unsigned long word_at(const unsigned char *p, int off)
{
	unsigned long w;

	memcpy(&w, p + off, sizeof(w));
	return w;
}

static ssize_t read_full(int fd, void *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t r = read(fd, (char *)buf + got, len - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return got ? (ssize_t)got : r;
		got += r;
	}
	return got;
}

static long sys_ptrace(long req, pid_t pid, unsigned long addr, unsigned long data)
{
	return syscall(SYS_ptrace, req, pid, addr, data);
}

static ssize_t vm_rw(pid_t pid, void *local, unsigned long remote, size_t len, bool write)
{
	struct iovec l = { local, len }, r = { (void *)remote, len };

	return write ? process_vm_writev(pid, &l, 1, &r, 1, 0)
		     : process_vm_readv(pid, &l, 1, &r, 1, 0);
}

/*
 * A call on a tagged address: it must return @ok_rc when @ok, else fail
 * with -1 and @err.
 */
static void expect_call(struct __test_metadata *_metadata, const char *what,
			unsigned long addr, bool ok, long ok_rc, int err, long rc, int rc_err)
{
	if (ok) {
		EXPECT_EQ(ok_rc, rc)
			TH_LOG("%s at %#lx: %ld (%s), want %ld (as untagged)", what, addr, rc,
			       rc < 0 ? strerror(rc_err) : "ok", ok_rc);
		return;
	}
	EXPECT_EQ(-1, rc) TH_LOG("%s at %#lx: %ld, want -1 %s (refused)", what, addr, rc,
				 strerror(err));
	if (rc == -1)
		EXPECT_EQ(err, rc_err) TH_LOG("%s at %#lx: errno %s, want %s",
					      what, addr, strerror(rc_err), strerror(err));
}

/* ---- the target: maps a page with known content, then serves commands ---- */

struct target_hello {
	int enable_rc;		/* ARCH_ENABLE_TAGGED_ADDR(6), or -1 if not asked */
	unsigned long addr;	/* its page, untagged */
};

/* ptrace: seize the target and stop it (an ASSERT here ends the test) */
static void seize_stopped(struct __test_metadata *_metadata, pid_t pid)
{
	int st = 0;

	ASSERT_EQ(0, sys_ptrace(PTRACE_SEIZE, pid, 0, 0))
		TH_LOG("PTRACE_SEIZE %d: %s", pid, strerror(errno));
	ASSERT_EQ(0, sys_ptrace(PTRACE_INTERRUPT, pid, 0, 0))
		TH_LOG("PTRACE_INTERRUPT: %s", strerror(errno));
	ASSERT_EQ(pid, waitpid(pid, &st, __WALL));
	ASSERT_TRUE(WIFSTOPPED(st)) TH_LOG("wait status %#x", st);
}

static void __attribute__((noreturn)) target_main(bool lam, int cmd, int rep)
{
	struct target_hello h = { .enable_rc = -1 };
	unsigned char *p;
	char c;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (lam)
		h.enable_rc = lam_enable(REMOTE_NBITS);
	p = mmap(NULL, PAGE_SZ, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		_exit(3);
	fill_pattern(p, PAGE_SZ);
	h.addr = (unsigned long)p;
	if (write(rep, &h, sizeof(h)) != sizeof(h))
		_exit(4);
	for (;;) {
		ssize_t r = read(cmd, &c, 1);

		if (r < 0 && errno == EINTR)
			continue;
		if (r != 1 || c == 'q')		/* EOF: the test is gone */
			_exit(0);
		if (c == 'd' && write(rep, p, PATTERN_LEN) != PATTERN_LEN)	/* dump */
			_exit(5);
	}
}

FIXTURE(remote) {
	pid_t pid;		/* the target */
	int cmd, rep;		/* pipes to / from it */
	unsigned long addr;	/* its page, untagged */
	bool target_on;		/* the table says: the target has LAM */
	bool caller_on;		/* the table says: this process has LAM */
	bool tag_ok;		/* a tagged target address must work */
	unsigned char want[PATTERN_LEN];
};

FIXTURE_VARIANT(remote) {
	bool target_lam;	/* the target calls ARCH_ENABLE_TAGGED_ADDR(6) */
	bool caller_lam;	/* this process (after forking the target) does too */
};

FIXTURE_VARIANT_ADD(remote, lam_target) { .target_lam = true, .caller_lam = false };
FIXTURE_VARIANT_ADD(remote, lam_caller) { .target_lam = false, .caller_lam = true };
FIXTURE_VARIANT_ADD(remote, both_lam) { .target_lam = true, .caller_lam = true };
FIXTURE_VARIANT_ADD(remote, no_lam) { .target_lam = false, .caller_lam = false };

static void reap_target(FIXTURE_DATA(remote) *self)
{
	if (self->pid > 0) {
		kill(self->pid, SIGKILL);
		waitpid(self->pid, NULL, __WALL);
		self->pid = -1;
	}
}

FIXTURE_SETUP(remote)
{
	struct target_hello h = { .enable_rc = -2 };
	int c2t[2], t2c[2];
	ssize_t r;
	int want;

	/*
	 * A failure here skips the teardown: the target is reaped here then
	 * (it would die with this process anyway: PR_SET_PDEATHSIG, and EOF
	 * on its command pipe).
	 */
	self->pid = -1;
	ASSERT_EQ(0, pipe(c2t));
	ASSERT_EQ(0, pipe(t2c));
	self->pid = fork();
	ASSERT_LE(0, self->pid);
	if (self->pid == 0) {
		close(c2t[1]);
		close(t2c[0]);
		target_main(variant->target_lam, c2t[0], t2c[1]);
	}
	close(c2t[0]);
	close(t2c[1]);
	self->cmd = c2t[1];
	self->rep = t2c[0];
	r = read_full(self->rep, &h, sizeof(h));
	if (r != (ssize_t)sizeof(h))
		reap_target(self);
	ASSERT_EQ((ssize_t)sizeof(h), r) TH_LOG("no hello from the target");
	self->addr = h.addr;
	fill_pattern(self->want, PATTERN_LEN);

	want = exp_enable(REMOTE_NBITS, LAM_FRESH, false);
	self->target_on = exp_lam_on(variant->target_lam);
	if (variant->target_lam && !lam_facts_wrong) {
		EXPECT_EQ(want, h.enable_rc) TH_LOG("the target's ARCH_ENABLE_TAGGED_ADDR(6): %s",
						    h.enable_rc ? strerror(h.enable_rc) : "ok");
	} else if (variant->target_lam && want != h.enable_rc) {
		TH_LOG("set-up: the target's ARCH_ENABLE_TAGGED_ADDR(6) is %s (not checked: the facts are wrong on purpose)",
		       h.enable_rc ? strerror(h.enable_rc) : "ok");
	}
	self->caller_on = exp_lam_on(variant->caller_lam);
	if (variant->caller_lam)
		LAM_SETUP_ENABLE(want, REMOTE_NBITS);
	self->tag_ok = exp_remote_tag_ok(self->target_on, self->caller_on);
	if (!_metadata->passed)		/* the harness skips test and teardown */
		reap_target(self);
	printf("# target %d, page %#lx, LAM %s; caller LAM %s; tagged target addresses must %s\n",
	       self->pid, self->addr, self->target_on ? "on" : "off",
	       self->caller_on ? "on" : "off", self->tag_ok ? "work" : "fail");
}

FIXTURE_TEARDOWN(remote)
{
	reap_target(self);
}

/* what the target itself sees in its page now */
static void target_dump(struct __test_metadata *_metadata, FIXTURE_DATA(remote) *self,
			unsigned char *buf)
{
	ASSERT_EQ(1, write(self->cmd, "d", 1));
	ASSERT_EQ(PATTERN_LEN, read_full(self->rep, buf, PATTERN_LEN))
		TH_LOG("no dump from the target %d", self->pid);
}

/* ---- the remote accesses ---- */

TEST_F(remote, process_vm_readv)
{
	unsigned char buf[PATTERN_LEN];
	ssize_t r;

	memset(buf, 0, sizeof(buf));
	r = vm_rw(self->pid, buf, self->addr, PATTERN_LEN, false);
	ASSERT_EQ(PATTERN_LEN, r) TH_LOG("untagged %#lx: %s", self->addr, strerror(errno));
	EXPECT_EQ(0, memcmp(buf, self->want, PATTERN_LEN));

	for (unsigned int i = 0; i < NTAGS; i++) {
		unsigned long t = tagged(self->addr, tags[i]) + 16;

		memset(buf, 0, sizeof(buf));
		errno = 0;
		r = vm_rw(self->pid, buf, t, 32, false);
		expect_call(_metadata, "process_vm_readv", t, self->tag_ok, 32,
			    exp_vm_rw_errno(), r, errno);
		if (self->tag_ok && r == 32)
			EXPECT_EQ(0, memcmp(buf, self->want + 16, 32)) TH_LOG("data at %#lx", t);
	}

	/* the caller's own buffer: the caller's rule (lib/iov_iter.c:1790 access_ok -> EFAULT) */
	memset(buf, 0, sizeof(buf));
	errno = 0;
	r = vm_rw(self->pid, lam_tag(buf, &lam_u57, 5), self->addr, PATTERN_LEN, false);
	expect_call(_metadata, "process_vm_readv into the caller's tagged buffer",
		    (unsigned long)lam_tag(buf, &lam_u57, 5), self->caller_on, PATTERN_LEN,
		    EFAULT, r, errno);
	if (self->caller_on && r == PATTERN_LEN)
		EXPECT_EQ(0, memcmp(buf, self->want, PATTERN_LEN));
}

TEST_F(remote, process_vm_writev)
{
	unsigned char buf[PATTERN_LEN], want[PATTERN_LEN];
	const char *plain = "PLAINWR!", *tag_data = "TAGGEDWR";
	unsigned long t = tagged(self->addr, tags[0]) + 32;
	ssize_t r;

	memcpy(want, self->want, PATTERN_LEN);
	r = vm_rw(self->pid, (void *)plain, self->addr + 16, 8, true);
	ASSERT_EQ(8, r) TH_LOG("untagged %#lx: %s", self->addr + 16, strerror(errno));
	memcpy(want + 16, plain, 8);

	errno = 0;
	r = vm_rw(self->pid, (void *)tag_data, t, 8, true);
	expect_call(_metadata, "process_vm_writev", t, self->tag_ok, 8, exp_vm_rw_errno(),
		    r, errno);
	if (self->tag_ok)
		memcpy(want + 32, tag_data, 8);

	target_dump(_metadata, self, buf);
	EXPECT_EQ(0, memcmp(buf, want, PATTERN_LEN))
		TH_LOG("the target sees %#lx at +16, %#lx at +32", word_at(buf, 16),
		       word_at(buf, 32));
}

TEST_F(remote, proc_pid_mem)
{
	unsigned char buf[PATTERN_LEN], want[PATTERN_LEN];
	const char *tag_data = "MEMWRITE";
	char path[64];
	ssize_t r;
	off_t o;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/mem", self->pid);
	fd = open(path, O_RDWR);
	ASSERT_LE(0, fd) TH_LOG("open %s: %s", path, strerror(errno));
	memcpy(want, self->want, PATTERN_LEN);

	r = pread(fd, buf, PATTERN_LEN, (off_t)self->addr);
	ASSERT_EQ(PATTERN_LEN, r) TH_LOG("untagged %#lx: %s", self->addr, strerror(errno));
	EXPECT_EQ(0, memcmp(buf, self->want, PATTERN_LEN));

	for (unsigned int i = 0; i < NTAGS; i++) {
		unsigned long t = tagged(self->addr, tags[i]) + 8;

		memset(buf, 0, sizeof(buf));
		errno = 0;
		r = pread(fd, buf, 16, (off_t)t);
		expect_call(_metadata, "pread /proc/PID/mem", t, self->tag_ok, 16,
			    exp_proc_mem_errno(), r, errno);
		if (self->tag_ok && r == 16)
			EXPECT_EQ(0, memcmp(buf, self->want + 8, 16)) TH_LOG("data at %#lx", t);
	}

	/* lseek to the tagged offset, then read() */
	o = lseek(fd, (off_t)tagged(self->addr, tags[0]), SEEK_SET);
	EXPECT_EQ((off_t)tagged(self->addr, tags[0]), o) TH_LOG("lseek: %s", strerror(errno));
	memset(buf, 0, sizeof(buf));
	errno = 0;
	r = read(fd, buf, 16);
	expect_call(_metadata, "lseek+read /proc/PID/mem", tagged(self->addr, tags[0]),
		    self->tag_ok, 16, exp_proc_mem_errno(), r, errno);
	if (self->tag_ok && r == 16)
		EXPECT_EQ(0, memcmp(buf, self->want, 16));

	errno = 0;
	r = pwrite(fd, tag_data, 8, (off_t)(tagged(self->addr, tags[1]) + 48));
	expect_call(_metadata, "pwrite /proc/PID/mem", tagged(self->addr, tags[1]) + 48,
		    self->tag_ok, 8, exp_proc_mem_errno(), r, errno);
	if (self->tag_ok)
		memcpy(want + 48, tag_data, 8);
	close(fd);

	target_dump(_metadata, self, buf);
	EXPECT_EQ(0, memcmp(buf, want, PATTERN_LEN))
		TH_LOG("the target sees %#lx at +48, want %#lx", word_at(buf, 48),
		       word_at(want, 48));
}

TEST_F(remote, ptrace_peek_poke)
{
	unsigned long word, orig8, orig24, tp = tagged(self->addr, tags[0]);
	unsigned char buf[PATTERN_LEN], want[PATTERN_LEN];
	long r;

	memcpy(&orig8, self->want + 8, sizeof(orig8));
	memcpy(&orig24, self->want + 24, sizeof(orig24));
	memcpy(want, self->want, PATTERN_LEN);
	seize_stopped(_metadata, self->pid);

	word = 0;
	ASSERT_EQ(0, sys_ptrace(PTRACE_PEEKDATA, self->pid, self->addr + 8, (unsigned long)&word))
		TH_LOG("PEEKDATA untagged %#lx: %s", self->addr + 8, strerror(errno));
	EXPECT_EQ(orig8, word);

	for (unsigned int i = 0; i < NTAGS; i++) {
		unsigned long t = tagged(self->addr, tags[i]) + 8;

		word = 0;
		errno = 0;
		r = sys_ptrace(PTRACE_PEEKDATA, self->pid, t, (unsigned long)&word);
		expect_call(_metadata, "PTRACE_PEEKDATA", t, self->tag_ok, 0, exp_ptrace_errno(),
			    r, errno);
		if (self->tag_ok && r == 0)
			EXPECT_EQ(orig8, word) TH_LOG("word at %#lx", t);
	}

	errno = 0;
	r = sys_ptrace(PTRACE_POKEDATA, self->pid, tp + 24, POKE_WORD);
	expect_call(_metadata, "PTRACE_POKEDATA", tp + 24, self->tag_ok, 0, exp_ptrace_errno(),
		    r, errno);
	if (self->tag_ok) {
		unsigned long w = POKE_WORD;

		memcpy(want + 24, &w, sizeof(w));
	}
	word = 0;
	EXPECT_EQ(0, sys_ptrace(PTRACE_PEEKDATA, self->pid, self->addr + 24, (unsigned long)&word));
	EXPECT_EQ(self->tag_ok ? POKE_WORD : orig24, word) TH_LOG("word at %#lx after the poke",
								  self->addr + 24);
	ASSERT_EQ(0, sys_ptrace(PTRACE_DETACH, self->pid, 0, 0))
		TH_LOG("PTRACE_DETACH: %s", strerror(errno));

	target_dump(_metadata, self, buf);
	EXPECT_EQ(0, memcmp(buf, want, PATTERN_LEN))
		TH_LOG("the target sees %#lx at +24, want %#lx", word_at(buf, 24),
		       word_at(want, 24));
}

/* a facility the 6.1 kernel has (CONFIG_ADVISE_SYSCALLS): ENOSYS is a failure */
TEST_F(remote, process_madvise)
{
	unsigned char buf[PATTERN_LEN];
	struct iovec iov;
	int pidfd;
	long r;

	pidfd = syscall(__NR_pidfd_open, self->pid, 0);
	ASSERT_LE(0, pidfd) TH_LOG("pidfd_open(%d): %s", self->pid, strerror(errno));

	iov.iov_base = (void *)self->addr;
	iov.iov_len = PAGE_SZ;
	r = syscall(__NR_process_madvise, pidfd, &iov, 1, MADV_COLD, 0);
	ASSERT_EQ((long)PAGE_SZ, r) TH_LOG("untagged %#lx: %s", self->addr, strerror(errno));

	for (unsigned int i = 0; i < NTAGS; i++) {
		unsigned long t = tagged(self->addr, tags[i]);

		iov.iov_base = (void *)t;
		errno = 0;
		r = syscall(__NR_process_madvise, pidfd, &iov, 1, MADV_COLD, 0);
		/*
		 * Known limit: the iovec passes the caller's access_ok() (lib/iov_iter.c)
		 * before madvise sees the target, so only a LAM caller can name a tagged
		 * address of a LAM target.
		 */
		expect_call(_metadata, "process_madvise(MADV_COLD)", t,
			    self->tag_ok && self->caller_on, PAGE_SZ,
			    exp_process_madvise_errno(self->caller_on), r, errno);
	}
	close(pidfd);

	/* MADV_COLD keeps the data */
	target_dump(_metadata, self, buf);
	EXPECT_EQ(0, memcmp(buf, self->want, PATTERN_LEN));
}

TEST_F(remote, move_pages_query)
{
	int status, plain_status = 12345;
	void *page;
	long r;

	page = (void *)self->addr;
	r = syscall(SYS_move_pages, self->pid, 1, &page, NULL, &plain_status, 0);
	ASSERT_EQ(0, r) TH_LOG("move_pages untagged: %s", strerror(errno));
	ASSERT_LE(0, plain_status) TH_LOG("status of untagged %#lx: %d", self->addr,
					  plain_status);

	for (unsigned int i = 0; i < NTAGS; i++) {
		unsigned long t = tagged(self->addr, tags[i]);

		page = (void *)t;
		status = 12345;
		r = syscall(SYS_move_pages, self->pid, 1, &page, NULL, &status, 0);
		EXPECT_EQ(0, r) TH_LOG("move_pages %#lx: %s", t, strerror(errno));
		EXPECT_EQ(self->tag_ok ? plain_status : exp_move_pages_status(), status)
			TH_LOG("status of tagged %#lx: %d (untagged: %d)", t, status, plain_status);
	}
}

/*
 * move_pages() with nodes (do_pages_move()): the page to node 0, where it
 * is (status 0, nothing moves); a tagged address of the target is looked
 * up with the target's rule, as the query does.
 */
TEST_F(remote, move_pages_move)
{
	int node = 0, status, want, plain_status = 12345;
	void *page;
	long r;

	page = (void *)self->addr;
	r = syscall(SYS_move_pages, self->pid, 1, &page, &node, &plain_status,
		    MPOL_MF_MOVE);
	ASSERT_EQ(0, r) TH_LOG("move_pages untagged: %s", strerror(errno));
	ASSERT_EQ(node, plain_status) TH_LOG("status of untagged %#lx: %d",
					     self->addr, plain_status);

	for (unsigned int i = 0; i < NTAGS; i++) {
		unsigned long t = tagged(self->addr, tags[i]);

		page = (void *)t;
		status = 12345;
		r = syscall(SYS_move_pages, self->pid, 1, &page, &node, &status,
			    MPOL_MF_MOVE);
		EXPECT_EQ(0, r)
			TH_LOG("move_pages %#lx: %s", t, strerror(errno));
		want = self->tag_ok ? plain_status
				    : exp_move_pages_move_status();
		EXPECT_EQ(want, status)
			TH_LOG("status of tagged %#lx: %d (untagged: %d)", t,
			       status, plain_status);
	}
}

TEST_F(remote, pagemap)
{
	uint64_t plain = 0, entry;
	char path[64];
	ssize_t r;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/pagemap", self->pid);
	fd = open(path, O_RDONLY);
	ASSERT_LE(0, fd) TH_LOG("open %s: %s", path, strerror(errno));
	r = pread(fd, &plain, sizeof(plain), (off_t)((self->addr >> 12) * 8));
	ASSERT_EQ((ssize_t)sizeof(plain), r) TH_LOG("untagged %#lx: %s", self->addr,
						    strerror(errno));
	EXPECT_EQ(1, (int)(plain >> 63)) TH_LOG("untagged entry %#llx: page not present",
						(unsigned long long)plain);

	for (unsigned int i = 0; i < NTAGS; i++) {
		unsigned long t = tagged(self->addr, tags[i]);

		entry = 0;
		errno = 0;
		r = pread(fd, &entry, sizeof(entry), (off_t)((t >> 12) * 8));
		if (self->tag_ok) {
			EXPECT_EQ((ssize_t)sizeof(entry), r)
				TH_LOG("entry of %#lx: %zd (%s)", t, r,
				       r < 0 ? strerror(errno) : "");
			EXPECT_EQ(plain, entry) TH_LOG("entry of %#lx: %#llx, untagged %#llx", t,
						       (unsigned long long)entry,
						       (unsigned long long)plain);
		} else {
			EXPECT_EQ(exp_pagemap_bytes(), r)
				TH_LOG("entry of %#lx: %zd bytes (%s), entry %#llx", t, r,
				       r < 0 ? strerror(errno) : "", (unsigned long long)entry);
		}
	}
	close(fd);
}

/*
 * Bit 63 set: a kernel address, in every mode, whatever tag the bits below
 * it carry (arch/x86/include/asm/page_64.h lam_untag() leaves it as it is).
 * With the target's page under it (bit 63 and the tag stripped), it must
 * not reach that page: refused as a tagged address of a target without LAM.
 */
static unsigned long kernel_half(unsigned long addr, unsigned long tag)
{
	return tagged(addr, tag) | 1UL << 63;
}

TEST_F(remote, bit63_address_refused)
{
	unsigned char buf[PATTERN_LEN];
	unsigned long word;
	long r;

	for (unsigned int i = 0; i < NTAGS; i++) {
		unsigned long t = kernel_half(self->addr, tags[i]) + 16;

		memset(buf, 0, sizeof(buf));
		errno = 0;
		r = vm_rw(self->pid, buf, t, 32, false);
		expect_call(_metadata, "process_vm_readv", t, false, 32,
			    exp_vm_rw_errno(), r, errno);
	}

	seize_stopped(_metadata, self->pid);
	for (unsigned int i = 0; i < NTAGS; i++) {
		unsigned long t = kernel_half(self->addr, tags[i]) + 8;

		word = 0;
		errno = 0;
		r = sys_ptrace(PTRACE_PEEKDATA, self->pid, t,
			       (unsigned long)&word);
		expect_call(_metadata, "PTRACE_PEEKDATA", t, false, 0,
			    exp_ptrace_errno(), r, errno);
	}
	ASSERT_EQ(0, sys_ptrace(PTRACE_DETACH, self->pid, 0, 0))
		TH_LOG("PTRACE_DETACH: %s", strerror(errno));
}

/* ---- a hardware watchpoint and a store through a tagged alias ---- */

/*
 * DR7 for slot 0: L0 (bit 0), R/W0 = 01b data writes (bits 17:16), LEN0 =
 * 10b 8 bytes (bits 19:18; 11b is 4 bytes): 0x90001.
 */
#define WP_DR7		(DR_LOCAL_ENABLE | \
			 ((DR_RW_WRITE | DR_LEN_8) << DR_CONTROL_SHIFT))
#define WP_DR(n)	offsetof(struct user, u_debugreg[n])
#define WP_PLAIN	0x0123456789abcdefUL	/* the plain 8-byte store */
#define WP_BYTE		0x5a	/* the tagged 1-byte store */

/*
 * In the child (a fork: the same addresses as here): the watched word, and
 * the result of its ARCH_ENABLE_TAGGED_ADDR(6).  The tracer PEEKs both.
 */
static volatile unsigned long wp_word __attribute__((aligned(8)));
static volatile long wp_enable_rc = -1;

/*
 * The signal the tracee stops with after its store through a tagged alias
 * of the watched word.  With LAM the store is done (to the untagged word)
 * and DR0 is matched against the masked address: a data breakpoint, a
 * trap after the store, arch/x86/kernel/traps.c:1162 exc_debug_user()
 * send_sigtrap(TRAP_HWBKPT), DR6.B0 from arch/x86/kernel/ptrace.c:467
 * ptrace_triggered().  Without LAM bits 62:57 make it non-canonical: #GP
 * before the store, no #DB, traps.c:759 gp_user_force_sig_segv() -> SIGSEGV.
 */
static int exp_wp_tagged_sig(bool lam_on)
{
	return lam_on ? SIGTRAP : SIGSEGV;
}

/*
 * The tracee: asks for LAM_U57, stops itself, then stores WP_PLAIN to the
 * watched word, then WP_BYTE through a tagged alias (a probe: a SIGSEGV is
 * caught).  Exit status: the probe's result (0 stored, else the signal).
 */
static void __attribute__((noreturn)) wp_child(void)
{
	volatile unsigned char *t;

	t = (void *)tagged((unsigned long)&wp_word, tags[0]);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	wp_enable_rc = lam_enable(REMOTE_NBITS);
	if (sys_ptrace(PTRACE_TRACEME, 0, 0, 0))
		_exit(100);
	raise(SIGSTOP);
	wp_word = WP_PLAIN;
	_exit(lam_probe_write(t, (volatile unsigned char *)&wp_word, WP_BYTE)
	      & 0xff);
}

/*
 * The tracee's next stop, after one of its stores: it must stop with
 * @want_sig, SIGTRAP meaning the watchpoint (si_code TRAP_HWBKPT, DR6.B0
 * set), anything else no hit (B0 clear); the word must be @want_word.
 * DR6 is cleared for the next stop.  Returns the signal it stopped with,
 * 0 if it did not stop (*@st: its wait status).
 */
static int wp_stop(struct __test_metadata *_metadata, pid_t pid,
		   const char *what, int want_sig, unsigned long want_word,
		   int *st)
{
	unsigned long dr6 = 0, word = 0;
	siginfo_t si;
	int sig;

	*st = 0;
	ASSERT_EQ(pid, waitpid(pid, st, __WALL))
		TH_LOG("%s: waitpid: %s", what, strerror(errno));
	EXPECT_TRUE(WIFSTOPPED(*st))
		TH_LOG("%s: the tracee did not stop (wait status %#x), want %s",
		       what, *st, strsignal(want_sig));
	if (!WIFSTOPPED(*st))
		return 0;
	sig = WSTOPSIG(*st);
	EXPECT_EQ(want_sig, sig)
		TH_LOG("%s: the tracee stopped with %s, want %s", what,
		       strsignal(sig), strsignal(want_sig));

	memset(&si, 0, sizeof(si));
	EXPECT_EQ(0, sys_ptrace(PTRACE_GETSIGINFO, pid, 0, (unsigned long)&si))
		TH_LOG("%s: PTRACE_GETSIGINFO: %s", what, strerror(errno));
	if (sig == SIGTRAP && want_sig == SIGTRAP)
		EXPECT_EQ(TRAP_HWBKPT, si.si_code)
			TH_LOG("%s: SIGTRAP si_code %d", what, si.si_code);

	ASSERT_EQ(0, sys_ptrace(PTRACE_PEEKUSER, pid, WP_DR(6),
				(unsigned long)&dr6))
		TH_LOG("%s: PEEKUSER DR6: %s", what, strerror(errno));
	EXPECT_EQ(want_sig == SIGTRAP, (dr6 & DR_TRAP0) != 0)
		TH_LOG("%s: DR6 %#lx, want B0 %s", what, dr6,
		       want_sig == SIGTRAP ? "set" : "clear");
	ASSERT_EQ(0, sys_ptrace(PTRACE_PEEKDATA, pid, (unsigned long)&wp_word,
				(unsigned long)&word))
		TH_LOG("%s: PEEKDATA %p: %s", what, &wp_word, strerror(errno));
	EXPECT_EQ(want_word, word)
		TH_LOG("%s: the word is %#lx, want %#lx", what, word, want_word);

	/* ptrace's DR6 has the arch polarity: the reserved bits read as 1 */
	ASSERT_EQ(0, sys_ptrace(PTRACE_POKEUSER, pid, WP_DR(6), DR6_RESERVED))
		TH_LOG("%s: POKEUSER DR6: %s", what, strerror(errno));
	return sig;
}

TEST(hw_watchpoint_tagged_write)
{
	unsigned long addr = (unsigned long)&wp_word, dr7 = 0, want_word;
	unsigned long t = tagged(addr, tags[0]);
	bool lam_on = exp_lam_on(true);
	int st = 0, sig, want_rc = exp_enable(REMOTE_NBITS, LAM_FRESH, false);
	long rc = -2;
	pid_t pid;

	printf("# watchpoint (DR7 %#lx) on %#lx; a store via %#lx must %s\n",
	       (unsigned long)WP_DR7, addr, t,
	       lam_on ? "hit it (SIGTRAP, DR6.B0)" : "fault (SIGSEGV)");
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		wp_child();

	/* an ASSERT failure leaves it to PR_SET_PDEATHSIG */
	ASSERT_EQ(pid, waitpid(pid, &st, __WALL));
	ASSERT_TRUE(WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP)
		TH_LOG("the tracee did not stop itself: wait status %#x", st);
	ASSERT_EQ(0, sys_ptrace(PTRACE_PEEKDATA, pid,
				(unsigned long)&wp_enable_rc,
				(unsigned long)&rc))
		TH_LOG("PEEKDATA %p: %s", &wp_enable_rc, strerror(errno));
	EXPECT_EQ(want_rc, rc)
		TH_LOG("the tracee's ARCH_ENABLE_TAGGED_ADDR(6): %s",
		       rc ? strerror(rc) : "ok");

	ASSERT_EQ(0, sys_ptrace(PTRACE_POKEUSER, pid, WP_DR(0), addr))
		TH_LOG("POKEUSER DR0 = %#lx: %s", addr, strerror(errno));
	ASSERT_EQ(0, sys_ptrace(PTRACE_POKEUSER, pid, WP_DR(7), WP_DR7))
		TH_LOG("POKEUSER DR7 = %#lx: %s", (unsigned long)WP_DR7,
		       strerror(errno));
	ASSERT_EQ(0, sys_ptrace(PTRACE_PEEKUSER, pid, WP_DR(7),
				(unsigned long)&dr7));
	EXPECT_EQ((unsigned long)WP_DR7, dr7);

	/* the control: the plain store hits in every cell */
	ASSERT_EQ(0, sys_ptrace(PTRACE_CONT, pid, 0, 0));
	sig = wp_stop(_metadata, pid, "plain store", SIGTRAP, WP_PLAIN, &st);
	ASSERT_NE(0, sig);

	/* the tagged store; a signal other than the trap is passed on */
	ASSERT_EQ(0, sys_ptrace(PTRACE_CONT, pid, 0, sig == SIGTRAP ? 0 : sig));
	want_word = lam_on ? (WP_PLAIN & ~0xffUL) | WP_BYTE : WP_PLAIN;
	sig = wp_stop(_metadata, pid, "tagged store", exp_wp_tagged_sig(lam_on),
		      want_word, &st);
	if (sig) {
		ASSERT_EQ(0, sys_ptrace(PTRACE_DETACH, pid, 0,
					sig == SIGTRAP ? 0 : sig))
			TH_LOG("PTRACE_DETACH: %s", strerror(errno));
		ASSERT_EQ(pid, waitpid(pid, &st, __WALL));
	}
	EXPECT_TRUE(WIFEXITED(st)) TH_LOG("the tracee: wait status %#x", st);
	EXPECT_EQ(lam_on ? 0 : SIGSEGV, WEXITSTATUS(st))
		TH_LOG("the tracee's tagged store: %s",
		       WEXITSTATUS(st) ? strsignal(WEXITSTATUS(st)) : "done");
}

/* ---- the per-CPU untag rule does not leak to the next process ---- */

#define LEAK_ROUNDS	200

static int pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		printf("# pid %d: cannot pin to CPU 0: %s\n", getpid(), strerror(errno));
		return errno;
	}
	return 0;
}

/* the LAM side: a tagged store and a tagged write() each round, then back */
static int leak_lam_side(int in, int out)
{
	int want = exp_enable(REMOTE_NBITS, LAM_FRESH, false), rc;
	volatile unsigned char *buf = calloc(1, 64);

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (!buf || pin_cpu0())
		return 10;
	rc = lam_enable(REMOTE_NBITS);
	if (rc != want && !lam_facts_wrong) {
		printf("# LAM side: ARCH_ENABLE_TAGGED_ADDR(6): %d, want %d\n", rc, want);
		return 11;
	}
	for (int i = 0; i < LEAK_ROUNDS; i++) {
		char tok;
		ssize_t r = read(in, &tok, 1);

		if (r == 0)
			return 0;	/* the other side stopped (and says why) */
		if (r != 1)
			return 12;
		rc = lam_probe_write(lam_tag((void *)buf, &lam_u57, i + 1), buf,
				     (unsigned char)i);
		if (rc != (want == 0 ? 0 : SIGSEGV)) {
			printf("# LAM side: tagged store in round %d: %d\n", i, rc);
			return 13;
		}
		buf[1] = tok;
		/* a syscall with a tagged pointer when LAM is on */
		r = write(out, want == 0 ? lam_tag((void *)(buf + 1), &lam_u57, 3)
					 : (void *)(buf + 1), 1);
		if (r != 1) {
			printf("# LAM side: write in round %d: %s\n", i, strerror(errno));
			return 14;
		}
	}
	return 0;
}

TEST(percpu_untag_rule_no_leak)
{
	int to_lam[2], from_lam[2], own[2], status = -1, bad = 0, i;
	unsigned char vec[1] = { 0xfe };
	char *p, *tp, c = 0, *tc = lam_tag(&c, &lam_u57, 1);
	pid_t pid;

	p = mmap(NULL, PAGE_SZ, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	memset(p, 'n', PAGE_SZ);
	tp = lam_tag(p, &lam_u57, 0x15);
	ASSERT_EQ(0, pipe(to_lam));
	ASSERT_EQ(0, pipe(from_lam));
	/* a byte to read: a read() that passed access_ok would not block */
	ASSERT_EQ(0, pipe2(own, O_NONBLOCK));
	ASSERT_EQ(1, write(own[1], "x", 1));
	ASSERT_EQ(0, pin_cpu0());

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(to_lam[1]);
		close(from_lam[0]);
		_exit(leak_lam_side(to_lam[0], from_lam[1]));
	}
	close(to_lam[0]);
	close(from_lam[1]);

	for (i = 0; i < LEAK_ROUNDS && !bad; i++) {
		long r[3] = { 0, 0, 0 };
		int e[3] = { 0, 0, 0 };
		char tok = (char)i;

		if (write(to_lam[1], &tok, 1) != 1 || read_full(from_lam[0], &tok, 1) != 1) {
			TH_LOG("round %d: the LAM process stopped answering", i);
			bad = 1;
			break;
		}
		/* just switched back in after the LAM process: rotate who goes first */
		for (int k = 0; k < 3; k++) {
			int which = (i + k) % 3;

			errno = 0;
			if (which == 0)
				r[0] = madvise(tp, PAGE_SZ, MADV_DONTNEED);
			else if (which == 1)
				r[1] = mincore(tp, PAGE_SZ, vec);
			else
				r[2] = read(own[0], tc, 1);
			e[which] = errno;
		}
		if (r[0] != -1 || e[0] != exp_own_madvise_errno() || p[0] != 'n') {
			TH_LOG("round %d: madvise(%p, DONTNEED): %ld (%s), page '%c'; want -1 %s",
			       i, tp, r[0], strerror(e[0]), p[0],
			       strerror(exp_own_madvise_errno()));
			bad = 1;
		}
		if (r[1] != -1 || e[1] != exp_own_mincore_errno()) {
			TH_LOG("round %d: mincore(%p): %ld (%s); want -1 %s", i, tp, r[1],
			       strerror(e[1]), strerror(exp_own_mincore_errno()));
			bad = 1;
		}
		if (r[2] != -1 || e[2] != exp_own_read_errno()) {
			TH_LOG("round %d: read(fd, %p, 1): %ld (%s); want -1 %s", i, tc, r[2],
			       strerror(e[2]), strerror(exp_own_read_errno()));
			bad = 1;
			if (r[2] == 1 && write(own[1], "x", 1) != 1)
				break;
		}
	}
	close(to_lam[1]);
	close(from_lam[0]);
	EXPECT_EQ(0, bad) TH_LOG("a tagged address was not refused as without LAM (see above)");
	EXPECT_EQ(LEAK_ROUNDS, i) TH_LOG("only %d of %d rounds", i, LEAK_ROUNDS);
	/* EOF on its pipe ends it; the harness's timeout covers a hang */
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("the LAM process: status %#x", status);
}

LAM_HARNESS_MAIN(NULL)
