// SPDX-License-Identifier: GPL-2.0
/*
 * lam_u48: LAM_U48 and mappings above 47 bits exclude each other under
 * 5-level paging (whichever comes first wins); under 4-level paging there
 * are no high mappings at all.  Both orders, hints and MAP_FIXED.
 * Expected results come from lam_expect.h (facts given by the runner).
 */
#include "lam_common.h"
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include "lam_harness.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif
#define U48_NBITS	15
#define WINDOW_47	(1UL << 47)

static void *map_at(unsigned long addr, int extra_flags)
{
	return mmap((void *)addr, PAGE_SZ, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | extra_flags, -1, 0);
}

static bool is_high(const void *p)
{
	return (unsigned long)p >= WINDOW_47;
}

/* ---- high mapping first, then U48 ---- */

FIXTURE(high_first) {};
FIXTURE_SETUP(high_first) {}
FIXTURE_TEARDOWN(high_first) {}

FIXTURE_VARIANT(high_first) {
	unsigned long addr;
	int flags;
};

FIXTURE_VARIANT_ADD(high_first, hint) { .addr = HIGH_HINT, .flags = 0 };
FIXTURE_VARIANT_ADD(high_first, fixed) { .addr = HIGH_ADDR, .flags = MAP_FIXED_NOREPLACE };
/*
 * The page just below 1 << 47: not above 47 bits, yet beyond LAM_U48's
 * limit (1 << 47 less a page, where 5-level paging lets a process without
 * U48 map), so it excludes LAM_U48 as a mapping above 47 bits does.
 */
FIXTURE_VARIANT_ADD(high_first, guard_page) {
	.addr = WINDOW_47 - PAGE_SZ,
	.flags = MAP_FIXED_NOREPLACE,
};

/*
 * the variant's mapping above 47 bits (guard_page: above the LAM_U48
 * limit): there iff the table says it can be
 */
static void *map_high_checked(struct __test_metadata *_metadata,
			      const FIXTURE_VARIANT(high_first) *variant)
{
	void *p = map_at(variant->addr, variant->flags);

	if (variant->flags) {
		EXPECT_EQ(exp_high_map(false) ? (void *)variant->addr : MAP_FAILED, p);
	} else {
		ASSERT_NE(MAP_FAILED, p);
		EXPECT_EQ(exp_high_map(false), is_high(p)) TH_LOG("hint mapping at %p", p);
	}
	return p;
}

TEST_F(high_first, then_enable_u48)
{
	unsigned long bits = 0x1234;
	void *p = map_high_checked(_metadata, variant);

	/* GET_MAX_TAG_BITS accounts for the high mapping */
	EXPECT_EQ(exp_max_tag_bits_rc(), lam_get_max_bits(&bits));
	if (exp_max_tag_bits_rc() == 0)
		EXPECT_EQ(exp_max_tag_bits(true), bits);
	EXPECT_EQ(exp_enable(U48_NBITS, LAM_FRESH, true), lam_enable(U48_NBITS));
	EXPECT_UNTAG_MASK(exp_mask_after(U48_NBITS, LAM_FRESH, true), "after enable");
	/* the high mapping (if any) is still usable */
	if (p != MAP_FAILED)
		EXPECT_EQ(0, lam_probe_write(p, p, 3));
}

/* U57 is not affected by high mappings */
TEST_F(high_first, then_enable_u57)
{
	void *p = map_high_checked(_metadata, variant);
	int want = exp_enable(6, LAM_FRESH, true);

	EXPECT_EQ(want, lam_enable(6));
	EXPECT_UNTAG_MASK(exp_mask_after(6, LAM_FRESH, true), "after enable");
	if (p != MAP_FAILED)
		EXPECT_EQ(want == 0 ? 0 : SIGSEGV,
			  lam_probe_write(lam_tag(p, &lam_u57, 0), p, 4));
}

/* "anything mapped above": once unmapped, U48 is possible again */
TEST_F(high_first, unmap_then_enable_u48)
{
	void *p = map_high_checked(_metadata, variant);

	if (p != MAP_FAILED)
		ASSERT_EQ(0, munmap(p, PAGE_SZ));
	EXPECT_EQ(exp_enable(U48_NBITS, LAM_FRESH, false), lam_enable(U48_NBITS));
	EXPECT_UNTAG_MASK(exp_mask_after(U48_NBITS, LAM_FRESH, false), "after enable");
}

/* ---- U48 first, then high mappings ---- */

FIXTURE(u48_first) {
	bool u48_on;
};

FIXTURE_SETUP(u48_first)
{
	int want = exp_enable(U48_NBITS, LAM_FRESH, false);

	LAM_SETUP_ENABLE(want, U48_NBITS);
	self->u48_on = (want == 0);
}

FIXTURE_TEARDOWN(u48_first) {}

TEST_F(u48_first, high_hint_falls_below)
{
	char *p = map_at(HIGH_HINT, 0);

	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(exp_high_map(self->u48_on), is_high(p)) TH_LOG("hint mapping at %p", p);
	/* the mapping is usable with U48 tags */
	EXPECT_EQ(self->u48_on ? 0 : SIGSEGV,
		  lam_probe_write(lam_tag(p, &lam_u48, 0x7abc), (void *)p, 5));
}

/*
 * The same for hugetlbfs, whose own get_unmapped_area() method
 * (hugetlb_get_unmapped_area()) searches up to the limit a high hint
 * opens: under LAM_U48 that limit is 47 bits', so the huge page lands
 * below them.  One 2 MiB page is reserved for it, and given back.
 */
TEST_F(u48_first, huge_hint_falls_below)
{
	const size_t huge = 2UL << 20;
	char old[32] = "", *p;
	int fd = open("/proc/sys/vm/nr_hugepages", O_RDWR);
	ssize_t n;

	ASSERT_LE(0, fd) TH_LOG("/proc/sys/vm/nr_hugepages: %s", strerror(errno));
	n = read(fd, old, sizeof(old) - 1);
	ASSERT_LT(0, n);
	ASSERT_EQ(2, pwrite(fd, "1\n", 2, 0));
	p = mmap((void *)HIGH_HINT, huge, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	EXPECT_NE(MAP_FAILED, p) TH_LOG("MAP_HUGETLB at a high hint: %s", strerror(errno));
	if (p != MAP_FAILED) {
		EXPECT_EQ(exp_high_map(self->u48_on), is_high(p))
			TH_LOG("huge mapping at %p", p);
		EXPECT_EQ(0, munmap(p, huge));
	}
	EXPECT_EQ(n, pwrite(fd, old, n, 0));
	close(fd);
}

TEST_F(u48_first, map_fixed_high_fails)
{
	bool high = exp_high_map(self->u48_on);
	void *p = map_at(HIGH_ADDR, MAP_FIXED_NOREPLACE);

	EXPECT_EQ(high ? (void *)HIGH_ADDR : MAP_FAILED, p);
	if (!high)
		EXPECT_EQ(ENOMEM, errno) TH_LOG("MAP_FIXED_NOREPLACE above 47 bits");
	p = map_at(HIGH_ADDR + 16 * PAGE_SZ, MAP_FIXED);
	EXPECT_EQ(high ? (void *)(HIGH_ADDR + 16 * PAGE_SZ) : MAP_FAILED, p);
	if (!high)
		EXPECT_EQ(ENOMEM, errno) TH_LOG("MAP_FIXED above 47 bits");
}

TEST_F(u48_first, mremap_to_high_fails)
{
	void *p = map_at(0, 0), *q;

	ASSERT_NE(MAP_FAILED, p);
	q = mremap(p, PAGE_SZ, PAGE_SZ, MREMAP_MAYMOVE | MREMAP_FIXED, (void *)HIGH_ADDR);
	if (exp_high_map(self->u48_on)) {
		EXPECT_EQ((void *)HIGH_ADDR, q);
	} else {
		EXPECT_EQ(MAP_FAILED, q);
	}
}

/*
 * mmap(NULL) never goes above 47 bits, U48 or not: only a hint above 47
 * bits asks for the high part of the 57-bit space.  Hints of several sizes
 * and kinds of mapping (anonymous, shmem, file), then many mappings with
 * one hint: where high mappings are possible each lands at its hint (or,
 * once the hint is taken, elsewhere above 47 bits); in U48 mode (and under
 * 4-level paging) all of them stay below 1 << 47.
 */
static const struct {
	const char *what;
	unsigned long hint;
	unsigned long len;
	int flags;		/* MAP_PRIVATE or MAP_SHARED */
	bool file;		/* map /proc/self/exe, else anonymous */
} high_hints[] = {
	{ "anon, at 1 << 47", WINDOW_47, PAGE_SZ, MAP_PRIVATE, false },
	{ "anon 1M", HIGH_HINT, 1UL << 20, MAP_PRIVATE, false },
	{ "shmem 2M", HIGH_HINT + (1UL << 30), 2UL << 20, MAP_SHARED, false },
	{ "anon, at 1 << 55", 1UL << 55, 4 * PAGE_SZ, MAP_PRIVATE, false },
	{ "anon, top of 56 bits", (1UL << 56) - (4UL << 20), 1UL << 20, MAP_PRIVATE, false },
	{ "file", HIGH_HINT + (2UL << 30), PAGE_SZ, MAP_PRIVATE, true },
};

#define NHIGH_HINTS	(sizeof(high_hints) / sizeof(high_hints[0]))

TEST_F(u48_first, many_mappings_stay_below)
{
	bool high = exp_high_map(self->u48_on);
	int fd = open("/proc/self/exe", O_RDONLY);

	ASSERT_LE(0, fd);
	for (unsigned int i = 0; i < NHIGH_HINTS; i++) {
		unsigned long hint = high_hints[i].hint;
		bool file = high_hints[i].file;
		unsigned char *p;

		p = mmap((void *)hint, high_hints[i].len,
			 file ? PROT_READ : PROT_READ | PROT_WRITE,
			 high_hints[i].flags | (file ? 0 : MAP_ANONYMOUS), file ? fd : -1, 0);
		ASSERT_NE(MAP_FAILED, p) TH_LOG("%s: %s", high_hints[i].what, strerror(errno));
		EXPECT_EQ(high, is_high(p)) TH_LOG("%s: hint %#lx, mapped at %p",
						   high_hints[i].what, hint, p);
		if (high)
			EXPECT_EQ((void *)hint, p) TH_LOG("%s", high_hints[i].what);
		/* and it is usable where it landed */
		if (file) {
			EXPECT_EQ(0, memcmp(p, "\177ELF", 4)) TH_LOG("%s", high_hints[i].what);
		} else {
			EXPECT_EQ(0, lam_probe_write(p + high_hints[i].len - 1,
						     p + high_hints[i].len - 1, 0x11 + i))
				TH_LOG("%s at %p", high_hints[i].what, p);
		}
	}
	close(fd);

	for (int i = 0; i < 32; i++) {
		void *p = map_at(HIGH_HINT + (3UL << 30), 0);

		ASSERT_NE(MAP_FAILED, p);
		EXPECT_EQ(high, is_high(p))
			TH_LOG("mapping %d with a hint above 47 bits: %p", i, p);
	}
}

/* a fork of a U48 process keeps the restriction */
TEST_F(u48_first, fork_child_no_high)
{
	int status;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (pid == 0) {
		char *p = map_at(HIGH_HINT, 0);

		EXPECT_NE(MAP_FAILED, p);
		EXPECT_EQ(exp_high_map(self->u48_on), is_high(p));
		EXPECT_EQ(exp_high_map(self->u48_on) ? (void *)HIGH_ADDR : MAP_FAILED,
			  map_at(HIGH_ADDR, MAP_FIXED_NOREPLACE));
		_exit(_metadata->passed ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
}

/*
 * The bound is on the end of a mapping, whatever the path: a mapping that
 * starts at the last page below 47 bits' limit and runs on across it, at a
 * fixed address or by growing in place (mremap() without MREMAP_MAYMOVE),
 * fails with ENOMEM wherever 47 bits bound the address space, as one
 * wholly above does.
 */
TEST_F(u48_first, straddling_mapping_fails)
{
	bool high = exp_high_map(self->u48_on);
	unsigned long last = WINDOW_47 - 2 * PAGE_SZ;
	void *p, *q;

	p = mmap((void *)last, 3 * PAGE_SZ, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	EXPECT_EQ(high ? (void *)last : MAP_FAILED, p);
	if (p == MAP_FAILED) {
		EXPECT_EQ(ENOMEM, errno) TH_LOG("MAP_FIXED_NOREPLACE across 47 bits");
	} else {
		munmap(p, 3 * PAGE_SZ);
	}

	p = map_at(last, MAP_FIXED_NOREPLACE);
	ASSERT_EQ((void *)last, p) TH_LOG("the last page below the limit");
	q = mremap(p, PAGE_SZ, 3 * PAGE_SZ, 0);
	EXPECT_EQ(high ? p : MAP_FAILED, q);
	if (q == MAP_FAILED) {
		EXPECT_EQ(ENOMEM, errno) TH_LOG("mremap() growing across 47 bits");
	}
	munmap(p, q == MAP_FAILED ? PAGE_SZ : 3 * PAGE_SZ);
}

/*
 * The whole range of a user access lies within the mode's limit, its end
 * included.  The last page below 47 bits' limit (1 << 47 less a guard
 * page) is mapped and filled; a block that starts in its last 4 bytes and
 * runs 4 bytes on into the guard page is refused by the range check before
 * any byte is copied wherever 47 bits bound the address space: in a
 * LAM_U48 process, and under 4-level paging.  Under 5-level paging without
 * U48 the range check passes and the copy stops at the guard page, after
 * 4 bytes.  Either way the call fails with EFAULT; what tells the two
 * apart is whether those 4 bytes were written.  In U48 the bytes beyond
 * the guard page have bit 47 set, which the CPU refuses (#GP), so a range
 * check that let them through would depend on the hardware reaching the
 * guard page first.
 */
#define TOP_PAGE	(WINDOW_47 - 2 * PAGE_SZ)

static char *map_top_page(void)
{
	char *p = map_at(TOP_PAGE, MAP_FIXED_NOREPLACE);

	if (p != (char *)TOP_PAGE)
		return NULL;
	memset(p, 'x', PAGE_SZ);
	return p;
}

/* Does the mode's limit end the user range at 47 bits? */
static bool bounded_at_47(bool u48_on)
{
	return u48_on || !exp_paging57();
}

static long rc_errno(ssize_t rc)
{
	return rc < 0 ? -errno : rc;
}

static void read_across_range_end(struct __test_metadata *_metadata,
				  char *p, bool bounded)
{
	int fds[2];

	ASSERT_EQ(0, pipe(fds));
	ASSERT_EQ(8, write(fds[1], "01234567", 8));
	EXPECT_EQ(-EFAULT, rc_errno(read(fds[0], p, 8)))
		TH_LOG("read() of 8 bytes into %p", p);
	EXPECT_EQ(!bounded, memcmp(lam_untag(p), "xxxx", 4) != 0)
		TH_LOG("read() into %p %s its first 4 bytes", p,
		       bounded ? "wrote" : "did not write");
	close(fds[0]);
	close(fds[1]);
}

TEST_F(u48_first, range_end_read_refused)
{
	char *page = map_top_page();

	ASSERT_NE(NULL, page) TH_LOG("no mapping at %#lx", TOP_PAGE);
	read_across_range_end(_metadata, page + PAGE_SZ - 4,
			      bounded_at_47(self->u48_on));
	if (self->u48_on)
		read_across_range_end(_metadata,
				      lam_tag(page + PAGE_SZ - 4, &lam_u48, 0x2a5),
				      true);
}

TEST_F(u48_first, range_end_write_refused)
{
	char *page = map_top_page();
	char *p;
	int fds[2];

	ASSERT_NE(NULL, page) TH_LOG("no mapping at %#lx", TOP_PAGE);
	ASSERT_EQ(0, pipe(fds));
	p = page + PAGE_SZ - 4;
	EXPECT_EQ(-EFAULT, rc_errno(write(fds[1], p, 8)))
		TH_LOG("write() of 8 bytes from %p", p);
	if (self->u48_on) {
		p = lam_tag(p, &lam_u48, 0x2a5);
		EXPECT_EQ(-EFAULT, rc_errno(write(fds[1], p, 8)))
			TH_LOG("write() of 8 bytes from %p", p);
	}
	close(fds[0]);
	close(fds[1]);
}

/* A pointer with bit 47 set, untagged or tagged: EFAULT, never a #GP */
TEST_F(u48_first, bit47_pointer_efault)
{
	char *p = (char *)(WINDOW_47 + 16 * PAGE_SZ);
	int fds[2];

	ASSERT_EQ(0, pipe(fds));
	EXPECT_EQ(-EFAULT, rc_errno(write(fds[1], p, 1)));
	EXPECT_EQ(-EFAULT, rc_errno(write(fds[1], lam_tag(p, &lam_u48, 0x15), 1)));
	close(fds[0]);
	close(fds[1]);
}

/*
 * A path that ends in the last bytes below the limit: strncpy_from_user()
 * bounds its copy by the same limit as the range check, so the name is
 * read up to its NUL and no further.
 */
TEST_F(u48_first, path_at_range_end)
{
	static const char name[] = "/dev/null";
	char *page = map_top_page();
	char *path;
	int fd;

	ASSERT_NE(NULL, page) TH_LOG("no mapping at %#lx", TOP_PAGE);
	path = page + PAGE_SZ - sizeof(name);
	memcpy(path, name, sizeof(name));
	fd = open(path, O_RDONLY);
	EXPECT_LE(0, fd) TH_LOG("open(%p): %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	if (self->u48_on) {
		path = lam_tag(path, &lam_u48, 0x3c1);
		fd = open(path, O_RDONLY);
		EXPECT_LE(0, fd) TH_LOG("open(%p): %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
	}
}

/*
 * execve()'s strings at the end of the user range: copy_strings() measures
 * each with strnlen_user(), which bounds the string by the same limit as
 * the range check (in a LAM_U48 process under 5-level paging the 47-bit
 * one, not 5-level paging's), so a string that ends in the last bytes
 * below it is taken whole, as an argument (also through a tagged pointer)
 * and as an environment string.  Bounded by 5-level paging's limit
 * instead, strnlen_user() would ask the range check for all the
 * MAX_ARG_STRLEN bytes the string may span, which run past the 47-bit
 * limit: refused, and execve() fails with EFAULT.  The program run prints
 * what it got ("--lam-args").
 */
TEST_F(u48_first, execve_strings_at_range_end)
{
	static const char str[] = "LAM_END=the last bytes below the limit";
	char *page = map_top_page(), *s, *args[5], *env[2];
	char out[512] = "", want[512] = "";
	int fds[2], n = 0, status;
	ssize_t len, got = 0;
	pid_t pid;

	ASSERT_NE(NULL, page) TH_LOG("no mapping at %#lx", TOP_PAGE);
	s = page + PAGE_SZ - sizeof(str);
	memcpy(s, str, sizeof(str));
	args[n++] = "lam_u48";
	args[n++] = "--lam-args";
	args[n++] = s;
	if (self->u48_on)
		args[n++] = lam_tag(s, &lam_u48, 0x2c7);
	args[n] = NULL;
	env[0] = s;
	env[1] = NULL;
	for (int i = 2; i < n; i++)
		snprintf(want + strlen(want), sizeof(want) - strlen(want),
			 "arg %s\n", str);
	snprintf(want + strlen(want), sizeof(want) - strlen(want), "env %s\n",
		 str);

	ASSERT_EQ(0, pipe(fds));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		dup2(fds[1], 1);
		execve("/proc/self/exe", args, env);
		printf("execve: %s\n", strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	while (got < (ssize_t)sizeof(out) - 1 &&
	       (len = read(fds[0], out + got, sizeof(out) - 1 - got)) > 0)
		got += len;
	out[got] = 0;
	close(fds[0]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status) TH_LOG("the strings at %p: %s", s, out);
	EXPECT_STREQ(want, out);
}

/*
 * get_user() and put_user() of an int at the end of the user range: the
 * last int below the limit is read (FIONBIO takes its argument with
 * get_user()) and written (a pipe's FIONREAD answers with put_user()); one
 * that starts 2 bytes lower and runs on into the guard page fails with
 * EFAULT, refused by the range check or faulting on the guard page,
 * whichever the kernel's limit makes it (on a CPU with LAM and 5-level
 * paging a LAM_U48 kernel compares with the per-CPU limit itself, not
 * limit - 3, and leaves the straddling access to fault).
 */
static void int_at_range_end(struct __test_metadata *_metadata, char *last)
{
	int *ok = (int *)last, *over = (int *)(last + 2);
	int fds[2], devnull = open("/dev/null", O_RDONLY);

	ASSERT_LE(0, devnull);
	ASSERT_EQ(0, pipe(fds));
	ASSERT_EQ(3, write(fds[1], "abc", 3));
	EXPECT_EQ(0, rc_errno(ioctl(devnull, FIONBIO, ok)))
		TH_LOG("get_user() of the int at %p", ok);
	EXPECT_EQ(0, rc_errno(ioctl(fds[0], FIONREAD, ok)))
		TH_LOG("put_user() of the int at %p", ok);
	EXPECT_EQ(3, *(int *)lam_untag(ok));
	EXPECT_EQ(-EFAULT, rc_errno(ioctl(devnull, FIONBIO, over)))
		TH_LOG("get_user() of the int at %p", over);
	EXPECT_EQ(-EFAULT, rc_errno(ioctl(fds[0], FIONREAD, over)))
		TH_LOG("put_user() of the int at %p", over);
	close(fds[0]);
	close(fds[1]);
	close(devnull);
}

TEST_F(u48_first, int_at_range_end)
{
	char *page = map_top_page();

	ASSERT_NE(NULL, page) TH_LOG("no mapping at %#lx", TOP_PAGE);
	int_at_range_end(_metadata, page + PAGE_SZ - 4);
	if (self->u48_on)
		int_at_range_end(_metadata, lam_tag(page + PAGE_SZ - 4,
						    &lam_u48, 0x1d3));
}

/* execve drops U48, so high mappings are possible again */
static int highmap_after_exec(int argc, char **argv)
{
	void *p = map_at(HIGH_HINT, 0);
	unsigned long m = 0x5a5a5a5aUL;
	int rc = lam_get_mask(&m);

	(void)argc;
	(void)argv;
	printf("getmask=%d mask=%#lx map=%p\n", rc, m, p);
	fflush(stdout);
	return 0;
}

/* after execve: the arguments and the environment, one a line */
static int print_args(int argc, char **argv)
{
	for (int i = 2; i < argc; i++)
		printf("arg %s\n", argv[i]);
	for (char **e = environ; *e; e++)
		printf("env %s\n", *e);
	fflush(stdout);
	return 0;
}

/* the modes of a lam_u48 run by a test (argv[1]) */
static int exec_mode(int argc, char **argv)
{
	if (!strcmp(argv[1], "--lam-args"))
		return print_args(argc, argv);
	return highmap_after_exec(argc, argv);
}

TEST_F(u48_first, execve_allows_high_again)
{
	char out[128] = "";
	unsigned long mask = 0;
	void *p = NULL;
	int fds[2], status, rc = -99;
	ssize_t len;
	pid_t pid;

	ASSERT_EQ(0, pipe(fds));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		dup2(fds[1], 1);
		execl("/proc/self/exe", "lam_u48", "--lam-highmap", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	len = read(fds[0], out, sizeof(out) - 1);
	ASSERT_LT(0, len);
	out[len] = 0;
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
	ASSERT_EQ(3, sscanf(out, "getmask=%d mask=%lx map=%p", &rc, &mask, &p))
		TH_LOG("report: %s", out);
	EXPECT_EQ(exp_get_mask_rc(), rc) TH_LOG("ARCH_GET_UNTAG_MASK after execve");
	if (exp_get_mask_rc() == 0 && rc == 0)
		EXPECT_EQ(LAM_MASK_NONE, mask);
	/* MAP_FAILED would look "high" */
	ASSERT_NE(MAP_FAILED, p) TH_LOG("the mapping after execve failed");
	EXPECT_EQ(exp_high_map(false), is_high(p)) TH_LOG("after exec: %p", p);
}

LAM_HARNESS_MAIN(exec_mode)
