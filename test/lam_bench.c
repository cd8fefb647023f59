// SPDX-License-Identifier: GPL-2.0
/*
 * lam_bench: the cost of system calls that take user pointers, for
 * tools/lam-bench.  Run under QEMU's -icount shift=0 the guest clock
 * advances 1 ns per instruction, so "ns per call" is instructions per call,
 * the same from run to run.
 *
 *   lam_bench [--iters N | --trace OP] none|u57|u48 [tagged]
 *     none    LAM not enabled (ARCH_ENABLE_TAGGED_ADDR not called)
 *     u57     LAM_U57 enabled (6 bits), u48: LAM_U48 (15 bits)
 *     tagged  every pointer passed to the kernel carries a tag
 *
 * Prints "lam_bench: OP INSNS" per operation (INSNS: per call, one
 * decimal, in the fastest of CHUNKS chunks of the calls); exit 1 if an
 * operation fails or enabling LAM does.
 *
 * --trace OP: after the same set-up and warm-up, one call of OP between
 * lam_trace_begin() and lam_trace_end(), for tools/lam-insn-listing, which
 * single-steps what lies between them through QEMU's debugger stub (it
 * finds them by name: the binary is static and not position-independent).
 */
#include "lam_common.h"

#include <fcntl.h>
#include <linux/futex.h>
#include <linux/io_uring.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <time.h>

static unsigned long iters = 20000;	/* calls per operation */
#define CHUNKS 40
static const struct lam_mode *mode;	/* NULL: LAM not enabled */
static bool tagged;
static int fd_zero, fd_null, pipe_fds[2];
static char *buf;			/* one page, untagged */
static struct iovec *iov;		/* 8 iovecs of 1 byte, in buf */
static struct utsname *uts;
static uint32_t *word;
static int *flag;			/* an int in buf, for ioctl() */

/*
 * p as the system calls get it: tagged in tagged mode.  The pointers the
 * loops pass are tagged once, before them; only mmap's fresh pages pay the
 * OR in the loop (2 user instructions).
 */
static unsigned long tag_bits;

static inline void *T(const void *p)
{
	return (void *)((unsigned long)p | tag_bits);
}

static void *t_buf, *t_iov, *t_uts, *t_word, *t_flag;

static void fail(const char *what)
{
	fprintf(stderr, "lam_bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* ---- io_uring, raw ---- */
static struct {
	int fd;
	unsigned int *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
} ring;

static void ring_setup(void)
{
	struct io_uring_params p = { 0 };
	char *sq, *cq;

	ring.fd = syscall(__NR_io_uring_setup, 4, &p);
	if (ring.fd < 0)
		fail("io_uring_setup");
	sq = mmap(NULL, p.sq_off.array + p.sq_entries * sizeof(unsigned int),
		  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring.fd,
		  IORING_OFF_SQ_RING);
	cq = mmap(NULL, p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe),
		  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring.fd,
		  IORING_OFF_CQ_RING);
	ring.sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe),
			 PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
			 ring.fd, IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || ring.sqes == MAP_FAILED)
		fail("io_uring mmap");
	ring.sq_tail = (unsigned int *)(sq + p.sq_off.tail);
	ring.sq_mask = (unsigned int *)(sq + p.sq_off.ring_mask);
	ring.sq_array = (unsigned int *)(sq + p.sq_off.array);
	ring.cq_head = (unsigned int *)(cq + p.cq_off.head);
	ring.cq_tail = (unsigned int *)(cq + p.cq_off.tail);
	ring.cq_mask = (unsigned int *)(cq + p.cq_off.ring_mask);
	ring.cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
}

/* One SQE (NOP, or a 1-byte read of /dev/zero into buf), submit, reap */
static long ring_one(int opcode)
{
	unsigned int tail = *ring.sq_tail, idx = tail & *ring.sq_mask;
	struct io_uring_sqe *sqe = &ring.sqes[idx];
	struct io_uring_cqe *cqe;
	unsigned int head;
	long res;

	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = opcode;
	if (opcode == IORING_OP_READ) {
		sqe->fd = fd_zero;
		sqe->addr = (unsigned long)t_buf;
		sqe->len = 1;
	}
	ring.sq_array[idx] = idx;
	__atomic_store_n(ring.sq_tail, tail + 1, __ATOMIC_RELEASE);
	if (syscall(__NR_io_uring_enter, ring.fd, 1, 1, IORING_ENTER_GETEVENTS,
		    NULL, 0) != 1)
		fail("io_uring_enter");
	head = *ring.cq_head;
	if (head == __atomic_load_n(ring.cq_tail, __ATOMIC_ACQUIRE))
		fail("io_uring: no completion");
	cqe = &ring.cqes[head & *ring.cq_mask];
	res = cqe->res;
	__atomic_store_n(ring.cq_head, head + 1, __ATOMIC_RELEASE);
	return res;
}

/* ---- the operations: each returns its system call's result ---- */
static long op_getppid(void)
{
	return syscall(SYS_getppid) > 0 ? 0 : -1;
}

static long op_read(void)
{
	return read(fd_zero, t_buf, 1) == 1 ? 0 : -1;
}

static long op_write(void)
{
	return write(fd_null, t_buf, 1) == 1 ? 0 : -1;
}

static long op_readv(void)
{
	return readv(fd_zero, t_iov, 8) == 8 ? 0 : -1;
}

static long op_uname(void)
{
	return uname(t_uts);
}

static long op_futex_wake(void)
{
	return syscall(SYS_futex, t_word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* get_user() of an int: FIONBIO reads its argument with it (fs/ioctl.c) */
static long op_ioctl_fionbio(void)
{
	return ioctl(fd_null, FIONBIO, t_flag);
}

/* put_user() of an int: a pipe's FIONREAD writes its count with it */
static long op_ioctl_fionread(void)
{
	return ioctl(pipe_fds[0], FIONREAD, t_flag);
}

static long op_uring_nop(void)
{
	return ring_one(IORING_OP_NOP);
}

static long op_uring_read(void)
{
	return ring_one(IORING_OP_READ) == 1 ? 0 : -1;
}

/*
 * The page is mapped at a fixed place: right after an anchor page that
 * stays mapped (read-only, so the two never merge into one VMA), in the
 * same page table.  Mapped anywhere, the page lands where the layout of
 * the address space puts it, sometimes alone in its page table, which
 * munmap() then frees and the next mmap() allocates again: +230 to +350
 * instructions per call that changed from one image build to the next
 * with the same kernel code (CI of ce0e3d3 and b870b04).
 */
static char *mtm_anchor;

static long op_mmap_touch_munmap(void)
{
	char *p = mmap(mtm_anchor + PAGE_SZ, PAGE_SZ, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);

	if (p == MAP_FAILED)
		return -1;
	*(volatile char *)T(p) = 1;
	return munmap(T(p), PAGE_SZ);
}

/* A page fault through the (tagged) pointer: a fresh page per call */
#define FAULT_BATCH 256
static char *fault_area;
static unsigned long fault_next = FAULT_BATCH;

static long op_page_fault(void)
{
	if (fault_next == FAULT_BATCH) {
		if (fault_area && munmap(fault_area, FAULT_BATCH * PAGE_SZ))
			return -1;
		fault_area = mmap(NULL, FAULT_BATCH * PAGE_SZ, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (fault_area == MAP_FAILED)
			return -1;
		fault_next = 0;
	}
	*(volatile char *)T(fault_area + fault_next++ * PAGE_SZ) = 1;
	return 0;
}

static const struct {
	const char *name;
	long (*fn)(void);
} ops[] = {
	{ "getppid", op_getppid },
	{ "read-1", op_read },
	{ "write-1", op_write },
	{ "readv-8", op_readv },
	{ "uname", op_uname },
	{ "futex-wake", op_futex_wake },
	{ "ioctl-fionbio", op_ioctl_fionbio },
	{ "ioctl-fionread", op_ioctl_fionread },
	{ "uring-nop", op_uring_nop },
	{ "uring-read-1", op_uring_read },
	{ "mmap-touch-munmap", op_mmap_touch_munmap },
	{ "page-fault", op_page_fault },
};

static void usage(void)
{
	fprintf(stderr, "usage: lam_bench [--iters N | --trace OP] none|u57|u48 [tagged]\n");
	exit(2);
}

/* the two ends of a traced call (noinline: their addresses are the marks) */
__attribute__((noinline)) void lam_trace_begin(void)
{
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void lam_trace_end(void)
{
	__asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
	unsigned long i, k;
	const char *trace = NULL;

	if (argc >= 3 && !strcmp(argv[1], "--trace")) {
		trace = argv[2];
		argc -= 2;
		argv += 2;
	} else if (argc >= 3 && !strcmp(argv[1], "--iters")) {
		char *end;

		iters = strtoul(argv[2], &end, 10);
		if (*end || !iters)
			usage();
		argc -= 2;
		argv += 2;
	}
	if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "tagged")))
		usage();
	if (!strcmp(argv[1], "u57"))
		mode = &lam_u57;
	else if (!strcmp(argv[1], "u48"))
		mode = &lam_u48;
	else if (strcmp(argv[1], "none"))
		usage();
	tagged = argc == 3;
	if (tagged && !mode)
		usage();
	if (mode && lam_enable(mode->nbits))
		fail("ARCH_ENABLE_TAGGED_ADDR");
	if (tagged)
		tag_bits = (unsigned long)lam_tag(NULL, mode, 0x15);

	fd_zero = open("/dev/zero", O_RDONLY);
	fd_null = open("/dev/null", O_WRONLY);
	buf = mmap(NULL, PAGE_SZ, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (fd_zero < 0 || fd_null < 0 || pipe(pipe_fds) || buf == MAP_FAILED)
		fail("setup");
	iov = (struct iovec *)(buf + 1024);
	for (k = 0; k < 8; k++)
		iov[k] = (struct iovec){ T(buf + 16 * k), 1 };
	uts = (struct utsname *)(buf + 2048);
	word = (uint32_t *)(buf + 4032);
	t_buf = T(buf);
	t_iov = T(iov);
	t_uts = T(uts);
	t_word = T(word);
	flag = (int *)(buf + 4036);
	t_flag = T(flag);
	ring_setup();
	/* the anchor: 2 MiB-aligned (its page table holds the bench's page), read */
	mtm_anchor = mmap(NULL, 4 << 20, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mtm_anchor == MAP_FAILED)
		fail("mmap anchor");
	mtm_anchor = (char *)(((unsigned long)mtm_anchor + (2 << 20) - 1) & ~((2UL << 20) - 1));
	if (mprotect(mtm_anchor, PAGE_SZ, PROT_READ))
		fail("mprotect anchor");
	k = *(volatile char *)mtm_anchor;
	if (munmap(mtm_anchor + PAGE_SZ, PAGE_SZ))
		fail("munmap anchor neighbour");

	if (trace) {
		for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++)
			if (!strcmp(ops[k].name, trace))
				break;
		if (k == sizeof(ops) / sizeof(ops[0]))
			usage();
		for (i = 0; i < 64; i++)
			if (ops[k].fn() < 0)
				fail(ops[k].name);
		lam_trace_begin();
		i = ops[k].fn();
		lam_trace_end();
		if ((long)i < 0)
			fail(ops[k].name);
		printf("lam_bench: traced %s\n", ops[k].name);
		return 0;
	}

	/*
	 * Each operation runs in CHUNKS chunks and the fastest chunk counts: a
	 * timer tick costs thousands of instructions, and where it lands
	 * differs from kernel to kernel; most chunks see none.
	 */
	for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
		unsigned long n = (iters + CHUNKS - 1) / CHUNKS, c;
		uint64_t best = UINT64_MAX;

		for (i = 0; i < 64; i++)	/* warm up */
			if (ops[k].fn() < 0)
				fail(ops[k].name);
		for (c = 0; c < CHUNKS; c++) {
			uint64_t t0 = now_ns();

			for (i = 0; i < n; i++)
				if (ops[k].fn() < 0)
					fail(ops[k].name);
			t0 = now_ns() - t0;
			if (t0 < best)
				best = t0;
		}
		printf("lam_bench: %s %llu.%llu\n", ops[k].name,
		       (unsigned long long)(best / n),
		       (unsigned long long)(best % n * 10 / n));
	}
	return 0;
}
