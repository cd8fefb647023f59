// SPDX-License-Identifier: GPL-2.0
/*
 * xc_mainline: mainline Linux 6.12's LAM ABI (CONFIG_ADDRESS_MASKING), as
 * its source says it behaves, for tools/crosscheck-mainline.  The project's
 * own programs (lam_access, ...) predict the project's ABI; this one predicts
 * mainline's, so that every difference between the two is pinned to a line
 * of the 6.12 source and whatever is left is the CPU (the emulator).
 *
 * Facts as for the project's programs (LAM_KERNEL=1 LAM_U48=0 LAM_5LEVEL=1
 * LAM_CPU= LAM_LA57= LAM_NCPU=); only LAM_CPU and LAM_LA57 vary here.
 *
 * What 6.12 does (arch/x86/kernel/process_64.c, process.c, cpu/common.c,
 * include/asm/uaccess_64.h, fs/proc/array.c):
 *  - ARCH_ENABLE_TAGGED_ADDR: !LAM CPU -> ENODEV; MM_CONTEXT_LOCK_LAM (set by
 *    a CLONE_VM clone, and by a successful enable) -> EBUSY, checked before
 *    nr_bits; nr_bits 0 or > 6 -> EINVAL; else LAM_U57.
 *    fork copies the lock with the mm (dup_mm()); execve starts unlocked.
 *  - ARCH_FORCE_TAGGED_SVA (0x4004) exists: 0.
 *  - ARCH_GET_MAX_TAG_BITS: 6 with a LAM CPU, else 0.
 *  - /proc/PID/status: untag_mask after THP_enabled; arch_status: no line.
 *  - access_ok(), get_user(), put_user(): pointer <= USER_PTR_MAX, which is
 *    TASK_SIZE_MAX ("Enable this when LAM is gated on LASS support"), so a
 *    tagged pointer handed to a copying syscall is EFAULT, LAM or not.
 *  - mm syscalls and GUP untag (untagged_addr(), untagged_addr_remote()):
 *    tagged addresses work once LAM is enabled.
 *  - the page-fault handler does not untag: a first touch through a tagged
 *    pointer works only if the CPU reports the LAM-masked address in CR2.
 */
#include "lam_common.h"
#include <pthread.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <linux/futex.h>
#include "kselftest_harness.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif
#define ARCH_FORCE_TAGGED_SVA	0x4004
#define HIGH_MAP		(0x1UL << 52)	/* above 47 bits */

static int want_enable(unsigned long nbits, bool locked)
{
	if (!lam_facts.cpu)
		return ENODEV;
	if (locked)
		return EBUSY;
	if (nbits == 0 || nbits > 6)
		return EINVAL;
	return 0;
}

/* enable LAM_U57 as mainline predicts; true if it is on */
static bool enable_u57(struct __test_metadata *_metadata)
{
	int want = want_enable(6, false);

	EXPECT_EQ(want, lam_enable(6));
	return want == 0;
}

static void *tag57(const void *p, unsigned long tag)
{
	return lam_tag(p, &lam_u57, tag);
}

TEST(enable_rules)
{
	unsigned long seq[] = { 0, 7, 15, 64, 6, 6, 0, 1 };
	bool locked = false;
	unsigned long bits = 99;

	for (unsigned int i = 0; i < sizeof(seq) / sizeof(seq[0]); i++) {
		int want = want_enable(seq[i], locked);

		EXPECT_EQ(want, lam_enable(seq[i])) TH_LOG("call %u: enable(%lu)", i, seq[i]);
		if (want == 0)
			locked = true;
		EXPECT_EQ(locked ? LAM_MASK_U57 : LAM_MASK_NONE, lam_mask_now());
	}
	EXPECT_EQ(0, lam_get_max_bits(&bits));
	EXPECT_EQ(lam_facts.cpu ? 6UL : 0UL, bits);
}

TEST(force_tagged_sva_exists)
{
	EXPECT_EQ(0, syscall(SYS_arch_prctl, ARCH_FORCE_TAGGED_SVA, 0UL));
}

static int thr_pipe[2];
static void *idle(void *a)
{
	(void)a;
	pipe_get(thr_pipe[0]);
	return NULL;
}

TEST(thread_locks_for_good)
{
	pthread_t th;

	ASSERT_EQ(0, pipe(thr_pipe));
	ASSERT_EQ(0, pthread_create(&th, NULL, idle, NULL));
	EXPECT_EQ(want_enable(6, true), lam_enable(6));
	pipe_put(thr_pipe[1], 'q');
	ASSERT_EQ(0, pthread_join(th, NULL));
	/* single-threaded again, but MM_CONTEXT_LOCK_LAM stays */
	EXPECT_EQ(want_enable(6, true), lam_enable(6));
	EXPECT_EQ(LAM_MASK_NONE, lam_mask_now());
}

/* the lock is in mm->context.flags, which fork copies (dup_mm's memcpy) */
TEST(fork_after_thread_stays_locked)
{
	pthread_t th;
	int status;
	pid_t pid;

	ASSERT_EQ(0, pipe(thr_pipe));
	ASSERT_EQ(0, pthread_create(&th, NULL, idle, NULL));
	pipe_put(thr_pipe[1], 'q');
	ASSERT_EQ(0, pthread_join(th, NULL));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(lam_enable(6) == want_enable(6, true) ? 0 : 1);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status) TH_LOG("the forked child of a once-threaded process could enable LAM");
}

TEST(proc_lines)
{
	unsigned long mask = 1;
	bool after_thp = false;
	bool on = enable_u57(_metadata);

	EXPECT_EQ(1, proc_untag_mask(getpid(), "status", &mask, "THP_enabled:", &after_thp));
	EXPECT_EQ(on ? LAM_MASK_U57 : LAM_MASK_NONE, mask);
	EXPECT_TRUE(after_thp);
	EXPECT_EQ(0, proc_untag_mask(getpid(), "arch_status", &mask, NULL, NULL))
		TH_LOG("mainline prints no untag_mask in arch_status");
}

/* first touch of a page through a tagged pointer: #PF, CR2 must be masked */
TEST(deref_first_touch)
{
	bool on = enable_u57(_metadata);
	unsigned char *p = mmap(NULL, 4 * PAGE_SZ, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, p);
	for (int i = 0; i < 4; i++) {
		EXPECT_EQ(on ? 0 : SIGSEGV,
			  lam_probe_write(tag57(p + i * PAGE_SZ, i + 1), p + i * PAGE_SZ, 0x40 + i))
			TH_LOG("page %d", i);
	}
}

TEST(deref_tags)
{
	static const unsigned long tags[] = { 1, 0x15, 0x2a, 0x3f };
	bool on = enable_u57(_metadata);
	char *buf = malloc(64);

	ASSERT_NE(NULL, buf);
	strcpy(buf, "plain");
	for (unsigned int i = 0; i < 4; i++) {
		EXPECT_EQ(on ? 0 : SIGSEGV, lam_probe_strcpy(tag57(buf, tags[i]), buf, "tagged"))
			TH_LOG("tag %#lx", tags[i]);
	}
}

TEST(deref_not_maskable)
{
	static unsigned char buf[64];

	enable_u57(_metadata);
	/* bit 63 (supervisor rule, LAM_SUP off) and bit 56 (below the tag field) */
	EXPECT_EQ(SIGSEGV, lam_probe_write((void *)lam_set_bit(tag57(buf, 1), 63), buf, 1));
	EXPECT_EQ(SIGSEGV, lam_probe_write((void *)lam_set_bit(tag57(buf, 1), 56), buf, 1));
}

/* above 47 bits (5-level paging only), then tagged */
TEST(deref_high)
{
	unsigned char *p = mmap((void *)HIGH_MAP, PAGE_SZ, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	bool on;

	if (!lam_facts.la57) {
		EXPECT_EQ(MAP_FAILED, p);
		return;
	}
	ASSERT_EQ((void *)HIGH_MAP, p);
	on = enable_u57(_metadata);	/* mainline: LAM_U57 and 5-level coexist */
	EXPECT_EQ(on ? 0 : SIGSEGV, lam_probe_write((void *)tag57(p, 0x21), p, 0x77));
}

/* instruction fetches are never masked: a tagged branch target faults */
static sigjmp_buf jmp_env;
static void on_segv(int sig)
{
	siglongjmp(jmp_env, sig);
}
static int __attribute__((noinline)) callee(void)
{
	return 42;
}

TEST(tagged_branch_faults)
{
	int (*volatile fp)(void) = (int (*)(void))tag57((void *)callee, 5);
	struct sigaction sa = { .sa_handler = on_segv, .sa_flags = SA_NODEFER }, old;
	int sig;

	enable_u57(_metadata);
	sigaction(SIGSEGV, &sa, &old);
	sig = sigsetjmp(jmp_env, 1);
	if (!sig)
		sig = fp() == 42 ? 0 : -1;
	sigaction(SIGSEGV, &old, NULL);
	EXPECT_EQ(SIGSEGV, sig);
}

/* copying syscalls: EFAULT with a tagged pointer, LAM on or not (6.12) */
TEST(uaccess_tagged_efault)
{
	struct utsname u;
	char buf[16] = "abcdef";
	static int word = 7;
	int fds[2];

	enable_u57(_metadata);
	ASSERT_EQ(0, pipe(fds));
	errno = 0;
	EXPECT_EQ(-1, uname((void *)tag57(&u, 3)));
	EXPECT_EQ(EFAULT, errno);
	errno = 0;
	EXPECT_EQ(-1, write(fds[1], tag57(buf, 2), 6));
	EXPECT_EQ(EFAULT, errno);
	ASSERT_EQ(6, write(fds[1], buf, 6));
	errno = 0;
	EXPECT_EQ(-1, read(fds[0], tag57(buf, 4), 6));
	EXPECT_EQ(EFAULT, errno);
	errno = 0;
	EXPECT_EQ(-1, syscall(SYS_futex, tag57(&word, 1), FUTEX_WAIT_PRIVATE, 6, NULL, NULL, 0));
	EXPECT_EQ(EFAULT, errno);
	/* the untagged pointers work */
	EXPECT_EQ(0, uname(&u));
	EXPECT_EQ(6, read(fds[0], buf, 6));
}

/* mm syscalls untag (untagged_addr): work once LAM is on */
TEST(mm_tagged_addr)
{
	bool on = enable_u57(_metadata);
	int want = on ? 0 : -1;
	unsigned char vec[1];
	char *p = mmap(NULL, 4 * PAGE_SZ, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), *q;

	ASSERT_NE(MAP_FAILED, p);
	memset(p, 'x', 4 * PAGE_SZ);
	EXPECT_EQ(want, mprotect(tag57(p, 1), PAGE_SZ, PROT_READ));
	EXPECT_EQ(on ? SIGSEGV : 0, lam_probe_write((void *)p, (void *)p, 'y'));
	EXPECT_EQ(0, mprotect(p, PAGE_SZ, PROT_READ | PROT_WRITE));
	EXPECT_EQ(want, madvise(tag57(p + PAGE_SZ, 2), PAGE_SZ, MADV_DONTNEED));
	EXPECT_EQ(on ? 0 : 'x', p[PAGE_SZ]);
	EXPECT_EQ(want, mlock(tag57(p, 3), PAGE_SZ));
	EXPECT_EQ(want, munlock(tag57(p, 3), PAGE_SZ));
	EXPECT_EQ(want, msync(tag57(p, 4), PAGE_SZ, MS_SYNC));
	EXPECT_EQ(want, mincore(tag57(p, 5), PAGE_SZ, vec));
	/* mincore's vector is copied out: a tagged one is EFAULT (as above) */
	errno = 0;
	EXPECT_EQ(-1, mincore(p, PAGE_SZ, tag57(vec, 6)));
	EXPECT_EQ(EFAULT, errno);
	q = mremap(tag57(p + 2 * PAGE_SZ, 7), PAGE_SZ, 2 * PAGE_SZ, MREMAP_MAYMOVE);
	EXPECT_EQ(on, q != MAP_FAILED);
	EXPECT_EQ(want, munmap(tag57(p + 3 * PAGE_SZ, 8), PAGE_SZ));
	if (on)
		EXPECT_EQ(SIGSEGV, lam_probe_write((void *)(p + 3 * PAGE_SZ), (void *)(p + 3 * PAGE_SZ), 1));
}

/* GUP with a tagged remote address (untagged_addr_remote) */
TEST(gup_process_vm_readv)
{
	bool on = enable_u57(_metadata);
	static char src[32] = "remote bytes", dst[32];
	struct iovec l = { dst, 13 }, r = { tag57(src, 9), 13 };
	ssize_t n;

	errno = 0;
	n = process_vm_readv(getpid(), &l, 1, &r, 1, 0);
	if (on) {
		EXPECT_EQ(13, n) TH_LOG("process_vm_readv: %s", strerror(errno));
		EXPECT_STREQ(src, dst);
	} else {
		EXPECT_EQ(-1, n);
		EXPECT_EQ(EFAULT, errno);
	}
}

LAM_HARNESS_MAIN(NULL)
