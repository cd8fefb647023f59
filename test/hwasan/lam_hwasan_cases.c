// SPDX-License-Identifier: GPL-2.0
/*
 * lam_hwasan_cases - planted bugs and a clean run for LLVM's HWASan on LAM
 * (built with clang-19 -fsanitize=hwaddress by test/hwasan/run).
 *
 * HWASan enables LAM_U57 (ARCH_ENABLE_TAGGED_ADDR(6)) before main() and
 * tags every heap pointer in bits 62:57, so each system call below that
 * takes a heap buffer gets a tagged pointer.  One case per run:
 *
 *   clean-io             I/O through heap buffers: write, read, writev,
 *                        readv, pwrite, pread; prints each buffer's tag,
 *                        exit 0 if every call and every byte is right
 *   use-after-free       a store into freed memory
 *   heap-overflow        a byte just past the end of a heap block, in its
 *                        last, partly used 16-byte granule, inverted: a
 *                        tag mismatch at the access, or, where the
 *                        pointer's tag happens to equal that granule's
 *                        length (1 in 63), the block's tail found
 *                        overwritten when it is freed
 *   double-free          free() of a freed block
 *   syscall-after-free   read() into a freed buffer (the kernel accepts the
 *                        tagged pointer: HWASan does not check system
 *                        calls), then a load from it, which HWASan reports
 *
 * A bug case that HWASan does not stop exits 0 after printing
 * "not detected"; HWASan's own reports exit 99.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/uio.h>

#define TAG_SHIFT	57
#define TAG_MASK	0x3fUL

static unsigned long tag_of(const void *p)
{
	return ((uintptr_t)p >> TAG_SHIFT) & TAG_MASK;
}

static int tagged, calls, bad;

static void note(const char *call, const void *buf, long got, long want)
{
	calls++;
	if (tag_of(buf))
		tagged++;
	printf("clean-io: %s with buffer %p (tag %#lx): %ld%s\n", call, buf, tag_of(buf), got,
	       got == want ? "" : " WRONG");
	if (got != want) {
		printf("clean-io: %s: want %ld (%s)\n", call, want, strerror(errno));
		bad++;
	}
}

static int clean_io(void)
{
	const size_t n = 4096;
	char *a = malloc(n), *b = malloc(n), *c = malloc(n / 2), *d = malloc(n / 2);
	char path[] = "/tmp/lam-hwasan-XXXXXX";
	struct iovec iov[2];
	int fds[2], fd;

	if (!a || !b || !c || !d || pipe(fds) || (fd = mkstemp(path)) < 0) {
		perror("clean-io: set-up");
		return 1;
	}
	unlink(path);
	for (size_t i = 0; i < n; i++)
		a[i] = (char)(i * 7 + 3);

	note("write(pipe)", a, write(fds[1], a, n / 4), n / 4);
	note("read(pipe)", b, read(fds[0], b, n / 4), n / 4);
	if (memcmp(a, b, n / 4))
		bad++, printf("clean-io: read(pipe) data differs\n");

	iov[0].iov_base = a;
	iov[0].iov_len = n / 2;
	iov[1].iov_base = a + n / 2;
	iov[1].iov_len = n / 2;
	note("writev(file)", a, writev(fd, iov, 2), n);
	iov[0].iov_base = c;
	iov[1].iov_base = d;
	note("preadv(file)", c, preadv(fd, iov, 2, 0), n);
	if (memcmp(a, c, n / 2) || memcmp(a + n / 2, d, n / 2))
		bad++, printf("clean-io: preadv(file) data differs\n");

	memset(b, 0, n);
	note("pwrite(file)", a + 100, pwrite(fd, a + 100, 512, 8192), 512);
	note("pread(file)", b, pread(fd, b, 512, 8192), 512);
	if (memcmp(a + 100, b, 512))
		bad++, printf("clean-io: pread(file) data differs\n");
	note("lseek+read(file)", b, (lseek(fd, 0, SEEK_SET), read(fd, b, n)), n);
	if (memcmp(a, b, n))
		bad++, printf("clean-io: read(file) data differs\n");

	printf("clean-io: %d of %d calls took a tagged heap buffer, %d wrong\n", tagged, calls, bad);
	free(a);
	free(b);
	free(c);
	free(d);
	return bad ? 1 : tagged ? 0 : 2;
}

/* volatile: the compiler must not drop or reorder the planted accesses */
static char *volatile keep;

static int use_after_free(void)
{
	keep = malloc(32);
	free(keep);
	keep[5] = 1;
	printf("use-after-free: not detected\n");
	return 0;
}

static int heap_overflow(void)
{
	keep = malloc(40);
	keep[40] = (char)~keep[40];
	printf("heap-overflow: not detected\n");
	free(keep);
	return 0;
}

static int double_free(void)
{
	keep = malloc(32);
	free(keep);
	free(keep);
	printf("double-free: not detected\n");
	return 0;
}

static int syscall_after_free(void)
{
	int fds[2];
	ssize_t r;

	keep = malloc(64);
	if (!keep || pipe(fds) || write(fds[1], "0123456789abcdef", 16) != 16) {
		perror("syscall-after-free: set-up");
		return 1;
	}
	free(keep);
	r = read(fds[0], keep, 64);
	printf("syscall-after-free: read() into the freed buffer %p (tag %#lx): %zd%s%s\n",
	       (void *)keep, tag_of(keep), r, r < 0 ? " " : "", r < 0 ? strerror(errno) : "");
	fflush(stdout);
	if (keep[0] == '0')
		printf("syscall-after-free: not detected\n");
	else
		printf("syscall-after-free: not detected (and the data differ)\n");
	return 0;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(void);
	} cases[] = {
		{ "clean-io", clean_io },
		{ "use-after-free", use_after_free },
		{ "heap-overflow", heap_overflow },
		{ "double-free", double_free },
		{ "syscall-after-free", syscall_after_free },
	};

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (unsigned int i = 0; argc == 2 && i < sizeof(cases) / sizeof(cases[0]); i++)
		if (!strcmp(argv[1], cases[i].name))
			return cases[i].fn();
	fprintf(stderr, "usage: %s clean-io|use-after-free|heap-overflow|double-free|syscall-after-free\n",
		argv[0]);
	return 2;
}
