// SPDX-License-Identifier: GPL-2.0
/*
 * LAM is for 64-bit processes only.  What a 32-bit (compat) process and a
 * compat system call (int $0x80) get:
 * - a 32-bit process's arch_prctl() knows no LAM option (6.1's compat
 *   arch_prctl is do_arch_prctl_common(): EINVAL), whatever the kernel;
 * - exec of a 32-bit program from a LAM process leaves LAM off (new mm);
 * - a 64-bit tracer's PTRACE_ARCH_PRCTL on a 32-bit tracee: the untag mask
 *   is ~0, ARCH_GET_MAX_TAG_BITS reports 0 (ENABLE would refuse: a
 *   TIF_ADDR32 task) and ENABLE changes nothing (a tracer never enables
 *   LAM for its tracee);
 * - int $0x80 from a 64-bit LAM process is a compat call: the LAM options
 *   are EINVAL there, and the process keeps its mode.
 * Each without a kernel warning (run-matrix reads the guest's log).
 *
 * The 32-bit process is lam_compat32.c, embedded here (COMPAT32_ELF, set
 * by test/Makefile) and run from a memfd.
 */
#include "lam_common.h"
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include "lam_harness.h"

#ifndef COMPAT32_ELF
#error "COMPAT32_ELF: the path of the built lam_compat32 (test/Makefile)"
#endif
#ifndef PTRACE_ARCH_PRCTL
#define PTRACE_ARCH_PRCTL 30
#endif

__asm__(".section .rodata\n"
	".balign 16\n"
	"compat32_elf:\n"
	".incbin \"" COMPAT32_ELF "\"\n"
	"compat32_elf_end:\n"
	".previous\n");
extern const char compat32_elf[], compat32_elf_end[];

/* a memfd holding the 32-bit program, or -1 */
static int compat32_memfd(void)
{
	size_t n = compat32_elf_end - compat32_elf;
	int fd = memfd_create("lam_compat32", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	if (write(fd, compat32_elf, n) != (ssize_t)n) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * In a fork child: enable LAM first if @nbits (the result, as errno, goes
 * to @out as "enable=N"), be traced if @traced, then run the 32-bit
 * program with stdout = @out.
 */
static void __attribute__((noreturn)) run_compat32(int out, unsigned long nbits,
						   bool traced)
{
	char *const argv[] = { "lam_compat32", NULL };
	char *const envp[] = { NULL };
	int fd = compat32_memfd();

	if (fd < 0)
		_exit(100);
	if (nbits)
		dprintf(out, "enable=%d\n", lam_enable(nbits));
	if (dup2(out, 1) != 1)
		_exit(101);
	if (traced && ptrace(PTRACE_TRACEME, 0, 0, 0))
		_exit(102);
	fexecve(fd, argv, envp);
	_exit(103);
}

struct compat32_line {
	long enable_64;		/* the 64-bit parent's enable (errno), -1: none */
	long get_mask, enable, get_max;	/* the 32-bit arch_prctls: -errno */
};

/* Parse what the child wrote to the pipe (after it stopped: all is there) */
static int read_lines(int fd, struct compat32_line *l)
{
	char buf[256], *p;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);

	if (n <= 0)
		return -1;
	buf[n] = 0;
	l->enable_64 = -1;
	p = strstr(buf, "enable=");
	if (p == buf)
		l->enable_64 = strtol(p + 7, NULL, 10);
	p = strstr(buf, "compat32 ");
	if (!p || sscanf(p, "compat32 get_untag_mask=%ld enable=%ld get_max_tag_bits=%ld",
			 &l->get_mask, &l->enable, &l->get_max) != 3)
		return -1;
	return 0;
}

/* The checks of a stopped 32-bit process @pid */
static void check_compat32(struct __test_metadata *_metadata, pid_t pid,
			   const struct compat32_line *l)
{
	unsigned long mask = 0;
	int r;

	EXPECT_EQ(-EINVAL, l->get_mask)
		TH_LOG("32-bit ARCH_GET_UNTAG_MASK: %ld, want -EINVAL", l->get_mask);
	EXPECT_EQ(-EINVAL, l->enable)
		TH_LOG("32-bit ARCH_ENABLE_TAGGED_ADDR(6): %ld, want -EINVAL", l->enable);
	EXPECT_EQ(-EINVAL, l->get_max)
		TH_LOG("32-bit ARCH_GET_MAX_TAG_BITS: %ld, want -EINVAL", l->get_max);

	r = proc_untag_mask(pid, "arch_status", &mask, NULL, NULL);
	EXPECT_EQ(exp_arch_status_line() ? 1 : 0, r)
		TH_LOG("arch_status untag_mask line: %d", r);
	if (r == 1)
		EXPECT_EQ(LAM_MASK_NONE, mask)
			TH_LOG("32-bit process: arch_status untag_mask %#lx", mask);
	r = proc_untag_mask(pid, "status", &mask, NULL, NULL);
	EXPECT_EQ(exp_status_line() ? 1 : 0, r)
		TH_LOG("status untag_mask line: %d", r);
	if (r == 1)
		EXPECT_EQ(LAM_MASK_NONE, mask)
			TH_LOG("32-bit process: status untag_mask %#lx", mask);
}

/*
 * Fork, (enable LAM with @nbits,) exec the 32-bit program, wait for its
 * SIGSTOP, check it, continue it, check its exit.
 */
static void compat32_case(struct __test_metadata *_metadata, unsigned long nbits)
{
	struct compat32_line l;
	int p[2], st = 0;
	pid_t pid;

	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(p[0]);
		run_compat32(p[1], nbits, false);
	}
	close(p[1]);
	ASSERT_EQ(pid, waitpid(pid, &st, WUNTRACED));
	ASSERT_TRUE(WIFSTOPPED(st))
		TH_LOG("the 32-bit process did not stop: wait status %#x", st);
	ASSERT_EQ(0, read_lines(p[0], &l)) TH_LOG("no result line from it");
	if (nbits)
		EXPECT_EQ(exp_enable(nbits, LAM_FRESH, false), l.enable_64)
			TH_LOG("the 64-bit parent's ARCH_ENABLE_TAGGED_ADDR(%lu) before execve: %s",
			       nbits, strerror(l.enable_64));
	check_compat32(_metadata, pid, &l);
	kill(pid, SIGCONT);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0)
		TH_LOG("the 32-bit process: wait status %#x", st);
	close(p[0]);
}

TEST(compat32_arch_prctl_einval)
{
	compat32_case(_metadata, 0);
}

/* exec of a 32-bit program from a process with LAM on: off, a new mm */
TEST(compat32_exec_from_lam_process)
{
	compat32_case(_metadata, 6);
}

/*
 * A 64-bit tracer's PTRACE_ARCH_PRCTL on a 32-bit tracee (arch_ptrace()
 * serves it with do_arch_prctl_64(); results go to the tracer's memory).
 */
TEST(compat32_ptrace_arch_prctl)
{
	unsigned long mask = 0, bits = 99;
	struct compat32_line l;
	int p[2], st = 0, want;
	pid_t pid;
	long r;

	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(p[0]);
		run_compat32(p[1], 0, true);
	}
	close(p[1]);
	/* the exec stop, then its own SIGSTOP */
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	ASSERT_TRUE(WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP)
		TH_LOG("no exec stop: wait status %#x", st);
	ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	ASSERT_TRUE(WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP)
		TH_LOG("no SIGSTOP: wait status %#x", st);
	ASSERT_EQ(0, read_lines(p[0], &l));
	check_compat32(_metadata, pid, &l);

	r = ptrace(PTRACE_ARCH_PRCTL, pid, &mask, ARCH_GET_UNTAG_MASK);
	want = exp_get_mask_rc();
	EXPECT_EQ(want, r ? errno : 0)
		TH_LOG("PTRACE_ARCH_PRCTL GET_UNTAG_MASK: %s", r ? strerror(errno) : "ok");
	if (!r)
		EXPECT_EQ(LAM_MASK_NONE, mask) TH_LOG("mask %#lx", mask);

	r = ptrace(PTRACE_ARCH_PRCTL, pid, &bits, ARCH_GET_MAX_TAG_BITS);
	EXPECT_EQ(exp_max_tag_bits_rc(), r ? errno : 0)
		TH_LOG("PTRACE_ARCH_PRCTL GET_MAX_TAG_BITS: %s", r ? strerror(errno) : "ok");
	if (!r)
		EXPECT_EQ(0, (long)bits)
			TH_LOG("a 32-bit tracee's max tag bits: %lu, want 0 (ENABLE refuses it)",
			       bits);

	/* never enables for the tracee: EINVAL on a LAM CPU (not its mm) */
	r = ptrace(PTRACE_ARCH_PRCTL, pid, 6, ARCH_ENABLE_TAGGED_ADDR);
	want = exp_enable(6, LAM_FRESH, false);
	EXPECT_EQ(want ? want : EINVAL, r ? errno : 0)
		TH_LOG("PTRACE_ARCH_PRCTL ENABLE(6) on a 32-bit tracee: %s",
		       r ? strerror(errno) : "ok");
	EXPECT_EQ(1, proc_untag_line_is(pid, "arch_status", LAM_MASK_NONE) ||
		     !exp_arch_status_line());

	ASSERT_EQ(0, ptrace(PTRACE_DETACH, pid, 0, SIGCONT));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0)
		TH_LOG("the 32-bit process: wait status %#x", st);
	close(p[0]);
}

/*
 * int $0x80 from this 64-bit process: a compat system call (32-bit
 * arguments); the kernel returns with r8-r11 zeroed.
 */
static long int80(long nr, long a, long b)
{
	long r;

	__asm__ volatile("int $0x80"
			 : "=a"(r)
			 : "a"(nr), "b"(a), "c"(b)
			 : "r8", "r9", "r10", "r11", "memory");
	return r;
}

#define NR32_getpid	20
#define NR32_arch_prctl	384

/* below 4 GiB (a static binary's data): usable as a 32-bit pointer */
static unsigned long int80_dest[2];

TEST(int80_from_lam_process)
{
	int want = exp_enable(6, LAM_FRESH, false);
	unsigned long mask = 0;

	ASSERT_GT(1UL << 32, (unsigned long)int80_dest);
	LAM_SETUP_ENABLE(want, 6);
	EXPECT_EQ(getpid(), int80(NR32_getpid, 0, 0));
	EXPECT_EQ(-EINVAL, int80(NR32_arch_prctl, ARCH_GET_UNTAG_MASK,
				 (long)int80_dest));
	EXPECT_EQ(-EINVAL, int80(NR32_arch_prctl, ARCH_ENABLE_TAGGED_ADDR, 15));
	EXPECT_EQ(-EINVAL, int80(NR32_arch_prctl, ARCH_GET_MAX_TAG_BITS,
				 (long)int80_dest));
	/* the process keeps its mode */
	EXPECT_EQ(exp_get_mask_rc(), lam_get_mask(&mask));
	if (!exp_get_mask_rc())
		EXPECT_EQ(want ? LAM_MASK_NONE : LAM_MASK_U57, mask)
			TH_LOG("untag mask after the compat calls: %#lx", mask);
}

LAM_HARNESS_MAIN(NULL)
