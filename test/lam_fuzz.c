// SPDX-License-Identifier: GPL-2.0
/*
 * lam_fuzz: a seeded, bounded differential fuzzer over the system calls that
 * take user pointers.  Each iteration picks a call and random arguments
 * (sizes, offsets, flags, fd kinds) and makes it from the same state, rebuilt
 * before each run (buffers refilled, fds and mappings re-created, files
 * re-seeded), with:
 *   plain   untagged pointers
 *   tagged  some or all pointer arguments tagged (lam_tag(), random tags in
 *           the mode's bits: 62:57 for U57, 62:48 for U48)
 *   bad     one pointer argument replaced by one no mode accepts:
 *           0xffffffff81000000 or 0xffff888000000000 (plus the pointer's page
 *           offset), a tagged pointer with bit 63 set, an untagged one with it
 *   skip    the same set-up and observation, without the call
 * A run's observation is its result (return value, errno), every byte of the
 * buffer area (outputs and the bytes around them) and the state the call may
 * change (pipe, socket and file contents, offsets, the mm region's pages,
 * signal action, alternate stack, task name, a child's memory).  What to
 * expect comes from lam_expect.h (the runner's facts), never from the machine:
 *   - the mode takes every pointer: the tagged run's observation equals the
 *     plain run's, byte for byte;
 *   - it refuses one (a tag without LAM, a bad pointer, an address the kernel
 *     never untags): the call fails with that pointer's errno (a stat buffer
 *     also with the plain call's: a failed path lookup never uses it) and the
 *     observation equals the skip run's: nothing happened;
 *   - the plain call never fails with EFAULT or a signal.
 * Anything else is a mismatch, printed with the seed and the iteration; the
 * test fails iff there is one.
 *
 * Modes (fixture variants, each in a process of its own forked by the test:
 * LAM cannot be disabled once enabled); bad pointers are tried in all:
 *   lam_u57, lam_u48  ARCH_ENABLE_TAGGED_ADDR(6 / 15), if the table says it works
 *   nolam_u57tags     no LAM, tags in bits 62:57
 *   nolam_u48tags     no LAM, tags in bits 62:48; under 5-level paging a tag in
 *                     bits 56:48 alone is a plain (unmapped) user address, so
 *                     such a tag gets a bit of 62:57 too: non-canonical
 *
 * Options, in the environment (the harness owns argv):
 *   LAM_FUZZ_SEED=S     seed (default 1); iteration i depends on (S, i) only
 *   LAM_FUZZ_ITER=N     iterations per mode (default 200: the host does ~5000 a
 *                       second, TCG 50-100 times fewer: 2-4 s a mode)
 *   LAM_FUZZ_FIRST=I    first iteration (default 0); with LAM_FUZZ_ITER=1 it
 *                       replays iteration I alone
 *   LAM_FUZZ_CALL=TEXT  only the calls whose name contains TEXT
 *   LAM_FUZZ_VERBOSE=1  a line per iteration
 * Each mode ends with "# seed S, N iterations, M calls, K mismatches, R per
 * second".
 *
 * Errno of a refused pointer in 6.1 (EPTR: exp_ptr_errno(), EFAULT; EARCH:
 * exp_get_dest_rc(), EFAULT, or EINVAL without CONFIG_X86_LAM):
 *   data pointers of every call  EPTR: access_ok()/copy_*_user() fail first
 *   arch_prctl(ARCH_GET_UNTAG_MASK / ARCH_GET_MAX_TAG_BITS)  EARCH
 *   a user store and load        SIGSEGV
 *   munmap                       EINVAL (__do_munmap(): start > TASK_SIZE)
 *   mprotect, madvise, mlock, munlock, msync  ENOMEM (no VMA there)
 *   mincore                      ENOMEM (!access_ok(start, len)); vec EFAULT
 *   mremap old address           EFAULT (vma_lookup() finds nothing)
 *   mremap new_addr              EINVAL (ENOMEM under LAM_U48 with 5-level
 *                                paging for a tag in bits 55:48 only: a user
 *                                address the mode may never map) and mmap
 *                                MAP_FIXED's address ENOMEM, in every mode:
 *                                never untagged (no aliases, as on arm64)
 * Not byte for byte: getrandom and clock_gettime write other bytes each time;
 * their observation records that the buffer was written (and tv_nsec is
 * valid), then restores it.  recvmsg's msg_control is tagged only with LAM:
 * without it 6.1's put_cmsg() fails silently (MSG_CTRUNC).  Structures that
 * hold pointers (iovecs, msghdrs) sit in a zone outside the compared area, as
 * their tagged copies differ by design; what the kernel writes back into
 * them is recorded explicitly.
 */
#include "lam_common.h"
#include <fcntl.h>
#include <poll.h>
#include <time.h>
#include <linux/futex.h>
#include <linux/io_uring.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include "lam_harness.h"

#ifndef ARCH_GET_FS
#define ARCH_GET_FS	0x1003
#define ARCH_GET_GS	0x1004
#endif
#ifndef SS_AUTODISARM
#define SS_AUTODISARM	(1U << 31)
#endif
#ifndef MADV_COLD
#define MADV_COLD	20
#endif

#define AREA_SZ		(4 * PAGE_SZ)
#define ZONE_END	1024		/* [0, ZONE_END): structs holding pointers */
#define IN_END		(2 * PAGE_SZ)	/* [ZONE_END, IN_END): inputs; then outputs */
#define RG_PAGES	8		/* the mm calls' region */
#define RG_OBS		64		/* bytes per region page seeded and observed */
#define OBS_MAX		(64 * 1024)
#define MAX_PTR		4
#define MAX_REPORT	20

#define FZ_EPTR		-1		/* err[]: exp_ptr_errno() */
#define FZ_EARCH	-2		/* err[]: exp_get_dest_rc() */
#define FZ_SIG		-3		/* err[]: a user access, SIGSEGV */
#define FZ_ENEWADDR	-4		/* err[]: mremap's new_addr, EINVAL or ENOMEM */
#define FZ_ELATE	-5		/* err[]: EPTR, or the plain call's errno */
#define FZ_SIGBASE	1000		/* observed "errno" of signal s: FZ_SIGBASE + s */

enum fz_how { FZ_PLAIN, FZ_TAGGED, FZ_SKIP, FZ_BAD };
static const char *const how_name[] = { "plain", "tagged", "skip", "bad" };

struct obs {
	long rc;
	int err;
	unsigned int used;	/* pointers this run tagged or made bad */
	unsigned int len;
	bool over;
	unsigned char b[OBS_MAX];
};

struct fz;
struct fz_call {
	const char *name;
	void (*fn)(struct fz *f, const struct fz_call *c, struct obs *o);
	int arg;
	int nptr;		/* pointer arguments, numbered 0..nptr-1 */
	unsigned int always;	/* refused when tagged even with LAM */
	unsigned int quiet;	/* not tagged without LAM, never made bad */
	int err[MAX_PTR];	/* errno when pointer i is refused */
};

struct fz_progress {		/* shared with the test: where a crash happened */
	unsigned long iter;
	char call[48];
};

static struct fz {
	const struct lam_mode *mode;
	bool on, verbose;
	const char *only;		/* LAM_FUZZ_CALL */
	unsigned long long seed;
	unsigned long iter, calls, mism, refused, equal, skipped;
	uint64_t iseed, prm, tagr;	/* per iteration; parameter and tag streams */
	enum fz_how how;
	unsigned int tagmask, used, zat, iat, oat;
	int badidx, badkind;
	unsigned char *area, *rg;
	int *shm;
	char dir[64], cwd[256], *altstack;
	int dirfd, ffd, dfd, zero, ring;
	unsigned int *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
	pid_t target;
	struct fz_progress *pr;
} fz;

static struct obs obs_plain, obs_tag, obs_skip, obs_bad;
static unsigned char scratch[4 * AREA_SZ], save[1024], tmpl[AREA_SZ];

static void fz_cleanup(struct fz *f);

static void die(const char *what)
{
	printf("# lam_fuzz: %s: %s (a set-up failure of the fuzzer)\n", what, strerror(errno));
	fflush(stdout);
	fz_cleanup(&fz);
	_exit(3);
}

/* ---- randomness: xorshift64*, one stream per purpose ---- */

static uint64_t rnd(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dULL;
}

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x ? x : 1;
}

/* 0..n-1 from the parameter stream: the same in every run of an iteration */
static unsigned long R(struct fz *f, unsigned long n)
{
	return n ? rnd(&f->prm) % n : 0;
}

static void fill(uint64_t s, void *p, size_t n)
{
	unsigned char *b = p;
	uint64_t v;

	s = mix(s);
	for (size_t i = 0; i < n; i += 8) {
		v = rnd(&s);
		memcpy(b + i, &v, n - i < 8 ? n - i : 8);
	}
}

/* ---- buffers: a bump allocator per run, random gaps and alignment ---- */

static void *bump(struct fz *f, unsigned int *at, unsigned int end, size_t size, size_t align)
{
	unsigned int a = *at + R(f, 40);

	a = (a + align - 1) & ~(unsigned int)(align - 1);
	if (a + size > end) {
		errno = ENOSPC;
		die("buffer area overflow");
	}
	*at = a + size;
	return f->area + a;
}

#define ZBUF(sz)	bump(f, &f->zat, ZONE_END, (sz), 8)
#define IBUF(sz)	bump(f, &f->iat, IN_END, (sz), R(f, 2) ? 8 : 1)
#define OBUF(sz)	bump(f, &f->oat, AREA_SZ, (sz), R(f, 2) ? 8 : 1)

/* ---- pointer argument i, as this run wants it ---- */

static void *tagp(struct fz *f, const void *p)
{
	unsigned long t = rnd(&f->tagr);

	if (!f->on && f->mode->tag_width == 15 && exp_paging57() && !(t & (0x3fUL << 9)))
		t |= 1UL << (9 + rnd(&f->tagr) % 6);
	return lam_tag(p, f->mode, t);
}

static void *P(struct fz *f, int i, const void *p)
{
	unsigned long off = (unsigned long)p & (PAGE_SZ - 1);

	if (f->how == FZ_TAGGED && (f->tagmask >> i & 1)) {
		f->used |= 1U << i;
		return tagp(f, p);
	}
	if (f->how != FZ_BAD || f->badidx != i)
		return (void *)p;
	f->used |= 1U << i;
	switch (f->badkind) {
	case 0:
		return (void *)(0xffffffff81000000UL + off);
	case 1:
		return (void *)(0xffff888000000000UL + off);
	case 2:
		return lam_set_bit(tagp(f, p), 63);
	default:
		return lam_set_bit(p, 63);
	}
}

#define PU(i, a)	((unsigned long)P(f, (i), (const void *)(a)))

/* ---- observations ---- */

static void put(struct obs *o, const void *p, size_t n)
{
	if (o->len + n > OBS_MAX) {
		o->over = true;
		n = OBS_MAX - o->len;
	}
	memcpy(o->b + o->len, p, n);
	o->len += n;
}

static void putl(struct obs *o, long v)
{
	put(o, &v, sizeof(v));
}

/* The call under test (not made in a skip run): result and errno */
#define DO(expr) do {							\
	if (f->how != FZ_SKIP) {					\
		errno = 0;						\
		o->rc = (long)(expr);					\
		o->err = o->rc < 0 ? errno : 0;				\
		o->rc = o->rc < 0 ? -1 : o->rc;				\
		f->calls++;						\
	}								\
} while (0)

/* for calls that return -errno (raw_arch_prctl(), CQEs): DO(neg(...)) */
static long neg(long r)
{
	errno = r < 0 ? -r : 0;
	return r < 0 ? -1 : r;
}

/* ---- fds to read and write: a pipe, /dev/zero, a memfd, a tmp file ---- */

enum { K_PIPE, K_ZERO, K_MEMFD, K_FILE };

struct tgt {
	int kind, fd, p[2];
};

static void tgt_open(struct fz *f, struct tgt *t, int kind, size_t clen, long pos, bool wr)
{
	fill(rnd(&f->prm), scratch, clen);
	t->kind = kind;
	if (kind == K_PIPE) {
		if (pipe2(t->p, O_NONBLOCK | O_CLOEXEC))
			die("pipe2");
		t->fd = t->p[wr];
		if (write(t->p[1], scratch, clen) != (ssize_t)clen)
			die("pipe write");
		return;
	}
	t->fd = kind == K_ZERO ? f->zero : kind == K_FILE ? f->dfd :
		memfd_create("lam_fuzz", MFD_CLOEXEC);
	if (kind == K_ZERO)
		return;
	if (t->fd < 0 || (kind == K_FILE && ftruncate(t->fd, 0)))
		die("memfd_create/ftruncate");
	if (pwrite(t->fd, scratch, clen, 0) != (ssize_t)clen || lseek(t->fd, pos, SEEK_SET) != pos)
		die("seeding a file");
}

/* what is left in the pipe, or the offset and contents of the file */
static void tgt_done(struct tgt *t, struct obs *o)
{
	struct stat st;
	ssize_t n;

	if (t->kind == K_PIPE) {
		while ((n = read(t->p[0], scratch, sizeof(scratch))) > 0)
			put(o, scratch, n);
		putl(o, n < 0 ? -errno : 0);
		close(t->p[0]);
		close(t->p[1]);
		return;
	}
	putl(o, lseek(t->fd, 0, SEEK_CUR));
	if (t->kind == K_ZERO)
		return;
	if (fstat(t->fd, &st))
		die("fstat");
	n = pread(t->fd, scratch, sizeof(scratch), 0);
	putl(o, st.st_size);
	putl(o, n);
	put(o, scratch, n > 0 ? n : 0);
	if (t->kind == K_MEMFD)
		close(t->fd);
}

/* arg bit 0: positional (pread64, preadv2, ...), bit 1: vectored, bit 2: write */
static void f_rw(struct fz *f, const struct fz_call *c, struct obs *o)
{
	bool pos = c->arg & 1, vec = c->arg & 2, wr = c->arg & 4;
	int kind = pos ? K_ZERO + (int)R(f, 3) : (int)R(f, 4), cnt = 1 + R(f, 4);
	size_t clen = R(f, 6000), len = 1 + R(f, 4000);
	long at = R(f, clen + 100), flags = R(f, 2) ? (wr ? RWF_DSYNC : RWF_HIPRI) : 0;
	struct iovec *iov;
	void *buf;
	struct tgt t;

	tgt_open(f, &t, kind, clen, R(f, clen + 1), wr);
	if (vec && R(f, 3) == 0)
		at = -1;		/* preadv2/pwritev2: the file position */
	if (!vec) {
		buf = P(f, 0, wr ? IBUF(len) : OBUF(len));
		if (pos)
			DO(syscall(wr ? SYS_pwrite64 : SYS_pread64, t.fd, buf, len, at));
		else
			DO(syscall(wr ? SYS_write : SYS_read, t.fd, buf, len));
	} else {
		iov = ZBUF(cnt * sizeof(*iov));
		for (int i = 0; i < cnt; i++) {
			iov[i].iov_len = 1 + R(f, 1000);
			iov[i].iov_base = P(f, 1, wr ? IBUF(iov[i].iov_len) : OBUF(iov[i].iov_len));
		}
		if (pos)
			DO(syscall(wr ? SYS_pwritev2 : SYS_preadv2, t.fd, P(f, 0, iov), cnt, at, 0,
				   flags));
		else
			DO(syscall(wr ? SYS_writev : SYS_readv, t.fd, P(f, 0, iov), cnt));
	}
	tgt_done(&t, o);
}

/* ---- paths: the stat family, open, openat ---- */

static char *path_in(struct fz *f, const char *name, bool rel)
{
	char tmp[160];

	snprintf(tmp, sizeof(tmp), "%s%s%s", rel ? "" : f->dir, rel ? "" : "/", name);
	return strcpy(IBUF(strlen(tmp) + 1), tmp);
}

/* stat, lstat, newfstatat, statx (0: the path, 1: the buffer), fstat */
static void f_stat(struct fz *f, const struct fz_call *c, struct obs *o)
{
	static const char *const names[] = { "file", "link", ".", "missing" };
	bool rel = (c->arg == 2 || c->arg == 3) && R(f, 2);
	int flags = R(f, 2) ? AT_SYMLINK_NOFOLLOW : 0, dfd = rel ? f->dirfd : AT_FDCWD;
	char *s = path_in(f, names[R(f, 4)], rel);
	void *buf = OBUF(256);

	switch (c->arg) {
	case 0:
	case 1:
		DO(syscall(c->arg ? SYS_lstat : SYS_stat, P(f, 0, s), P(f, 1, buf)));
		break;
	case 2:
		DO(syscall(SYS_newfstatat, dfd, P(f, 0, s), P(f, 1, buf), flags));
		break;
	case 3:
		DO(syscall(SYS_statx, dfd, P(f, 0, s), flags, STATX_BASIC_STATS | STATX_BTIME,
			   P(f, 1, buf)));
		break;
	default:
		DO(syscall(SYS_fstat, f->ffd, P(f, 0, buf)));
	}
}

/* an existing file, a missing one, O_CREAT|O_EXCL of a new one */
static void f_open(struct fz *f, const struct fz_call *c, struct obs *o)
{
	static const char *const names[] = { "file", "missing", "new" };
	int which = R(f, 3), mode = 0600 | (R(f, 2) ? 044 : 0);
	int flags = (which == 2 ? O_WRONLY | O_CREAT | O_EXCL : O_RDONLY) | O_CLOEXEC;
	bool rel = c->arg == 1 && R(f, 2);
	char *s = path_in(f, names[which], rel);
	struct stat st;

	if (c->arg == 0)
		DO(syscall(SYS_open, P(f, 0, s), flags, mode));
	else
		DO(syscall(SYS_openat, rel ? f->dirfd : AT_FDCWD, P(f, 0, s), flags, mode));
	if (o->rc >= 0) {
		if (fstat(o->rc, &st))
			die("fstat");
		putl(o, st.st_mode);
		putl(o, which == 0 ? (long)st.st_ino : 0);	/* a new file's inode varies */
		close(o->rc);
	}
	putl(o, faccessat(f->dirfd, "new", F_OK, 0) ? errno : 0);
	unlinkat(f->dirfd, "new", 0);
}

/* ---- getcwd, uname, getrandom, clock_gettime, clock_getres ---- */

enum { M_GETCWD, M_UNAME, M_GETRANDOM, M_CLOCK_GETTIME, M_CLOCK_GETRES };

static void f_misc(struct fz *f, const struct fz_call *c, struct obs *o)
{
	static const clockid_t clocks[] = { CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_BOOTTIME,
					    CLOCK_PROCESS_CPUTIME_ID };
	clockid_t clk = clocks[R(f, 4)];
	struct timespec ts;
	size_t n = 8 + R(f, 505);
	void *buf;

	switch (c->arg) {
	case M_GETCWD:
		n = strlen(f->cwd) + 1 + R(f, 200);
		buf = OBUF(n);
		DO(syscall(SYS_getcwd, P(f, 0, buf), n));
		break;
	case M_UNAME:
		buf = OBUF(sizeof(struct utsname));
		DO(syscall(SYS_uname, P(f, 0, buf)));
		break;
	case M_GETRANDOM:	/* random: record that it was written (n >= 8 bytes) */
		buf = OBUF(n);
		memcpy(save, buf, n);
		DO(syscall(SYS_getrandom, P(f, 0, buf), n, GRND_INSECURE));
		putl(o, memcmp(save, buf, n) != 0);
		memcpy(buf, save, n);
		break;
	case M_CLOCK_GETTIME:	/* the time moves: record that it was written, validly */
		buf = OBUF(sizeof(ts));
		memcpy(save, buf, sizeof(ts));
		DO(syscall(SYS_clock_gettime, clk, P(f, 0, buf)));
		memcpy(&ts, buf, sizeof(ts));
		putl(o, memcmp(save, buf, sizeof(ts)) != 0);
		putl(o, ts.tv_nsec >= 0 && ts.tv_nsec < 1000000000L);
		memcpy(buf, save, sizeof(ts));
		break;
	default:
		buf = OBUF(sizeof(ts));
		DO(syscall(SYS_clock_getres, clk, P(f, 0, buf)));
	}
}

/* ---- poll, ppoll, select; epoll_ctl, epoll_wait, epoll_pwait ---- */

/* two pipes, the first with data; fds[]: its ends, the other's ends (or -1) */
static void two_pipes(struct fz *f, int fds[4], int p[4])
{
	if (pipe2(p, O_NONBLOCK | O_CLOEXEC) || pipe2(p + 2, O_NONBLOCK | O_CLOEXEC) ||
	    write(p[1], "lam", 3) != 3)
		die("pipe2");
	fds[0] = p[0];
	fds[1] = p[1];
	fds[2] = p[2];
	fds[3] = R(f, 2) ? -1 : p[3];
}

static void close4(int p[4])
{
	for (int i = 0; i < 4; i++)
		close(p[i]);
}

static void f_poll(struct fz *f, const struct fz_call *c, struct obs *o)
{
	int p[4], fds[4], ev[4], n = 1 + R(f, 4), nfds = 0;
	bool usemask = R(f, 2);
	void *ts, *mask, *set[3];
	struct pollfd *pf;

	two_pipes(f, fds, p);
	for (int i = 0; i < 4; i++) {
		ev[i] = (R(f, 2) ? POLLIN : 0) | (R(f, 2) ? POLLOUT : 0) | (R(f, 4) ? 0 : POLLPRI);
		nfds = fds[i] >= nfds ? fds[i] + 1 : nfds;
	}
	ts = memset(OBUF(sizeof(struct timespec)), 0, sizeof(struct timespec)); /* never block */
	mask = IBUF(8);
	if (c->arg < 2) {
		pf = OBUF(n * sizeof(*pf));
		for (int i = 0; i < n; i++) {
			pf[i].fd = fds[i];
			pf[i].events = ev[i];
		}
		if (c->arg == 0)
			DO(syscall(SYS_poll, P(f, 0, pf), n, 0));
		else
			DO(syscall(SYS_ppoll, P(f, 0, pf), n, P(f, 1, ts),
				   usemask ? P(f, 2, mask) : NULL, 8));
	} else {
		for (int s = 0; s < 3; s++) {
			set[s] = R(f, 4) ? OBUF(sizeof(fd_set)) : NULL;
			if (!set[s])
				continue;
			FD_ZERO((fd_set *)set[s]);
			for (int i = 0; i < n; i++)
				if (fds[i] >= 0 && (ev[i] >> s & 1))
					FD_SET(fds[i], (fd_set *)set[s]);
			set[s] = P(f, s, set[s]);
		}
		DO(syscall(SYS_select, nfds, set[0], set[1], set[2], P(f, 3, ts)));
	}
	close4(p);
}

static void f_epoll(struct fz *f, const struct fz_call *c, struct obs *o)
{
	static const unsigned int bits[] = { EPOLLIN, EPOLLOUT, EPOLLET, EPOLLONESHOT,
					     EPOLLRDHUP, EPOLLPRI };
	int ep = epoll_create1(EPOLL_CLOEXEC), p[4], fds[4], maxev = 1 + R(f, 8), fd, r;
	struct epoll_event out[8], *ev, e = { .events = EPOLLIN };
	bool mod = R(f, 2), usemask = R(f, 2);
	void *mask = IBUF(8);

	if (ep < 0)
		die("epoll_create1");
	two_pipes(f, fds, p);
	fd = fds[R(f, 3)];
	if (c->arg == 0) {
		ev = IBUF(sizeof(*ev));
		ev->events = 0;
		for (unsigned int i = 0; i < 6; i++)
			ev->events |= R(f, 2) ? bits[i] : 0;
		ev->data.u64 = rnd(&f->prm);
		if (mod && epoll_ctl(ep, EPOLL_CTL_ADD, fd, &e))
			die("epoll_ctl");
		DO(syscall(SYS_epoll_ctl, ep, mod ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, fd, P(f, 0, ev)));
		r = epoll_wait(ep, out, 8, 0);
		putl(o, r);
		put(o, out, r > 0 ? r * sizeof(out[0]) : 0);
	} else {
		for (int i = 0; i < 3; i++) {
			e.events = R(f, 2) ? EPOLLIN : EPOLLOUT;
			e.data.u64 = rnd(&f->prm);
			if (epoll_ctl(ep, EPOLL_CTL_ADD, fds[i], &e))
				die("epoll_ctl");
		}
		ev = OBUF(maxev * sizeof(*ev));
		if (c->arg == 1)
			DO(syscall(SYS_epoll_wait, ep, P(f, 0, ev), maxev, 0));
		else
			DO(syscall(SYS_epoll_pwait, ep, P(f, 0, ev), maxev, 0,
				   usemask ? P(f, 1, mask) : NULL, 8));
	}
	close(ep);
	close4(p);
}

/* ---- sendmsg, recvmsg on a socketpair; SCM_RIGHTS passes /dev/zero ---- */

static void put_rights(void *ctl, size_t len, int fd)
{
	struct msghdr m = { .msg_control = ctl, .msg_controllen = len };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&m);

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
}

/* close the fds in a received control buffer; record their inodes */
static void close_rights(struct obs *o, void *ctl, size_t len)
{
	struct msghdr m = { .msg_control = ctl, .msg_controllen = len };
	struct stat st;
	int fd;

	for (struct cmsghdr *cm = CMSG_FIRSTHDR(&m); cm; cm = CMSG_NXTHDR(&m, cm))
		for (size_t i = 0; cm->cmsg_type == SCM_RIGHTS &&
		     CMSG_LEN((i + 1) * sizeof(int)) <= cm->cmsg_len; i++) {
			memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int), sizeof(int));
			putl(o, fstat(fd, &st) ? -errno : (long)st.st_ino);
			close(fd);
		}
}

/* everything left in the socket */
static void drain_sock(struct obs *o, int fd)
{
	union { char b[CMSG_SPACE(4 * sizeof(int))]; struct cmsghdr align; } cb;
	struct iovec iov = { scratch, sizeof(scratch) };
	struct msghdr m;
	ssize_t n;

	do {
		memset(&m, 0, sizeof(m));
		m.msg_iov = &iov;
		m.msg_iovlen = 1;
		m.msg_control = cb.b;
		m.msg_controllen = sizeof(cb.b);
		n = recvmsg(fd, &m, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
		putl(o, n < 0 ? -errno : n);
		put(o, scratch, n > 0 ? n : 0);
		if (n > 0)
			close_rights(o, cb.b, m.msg_controllen);
	} while (n > 0);
}

/* arg 0: sendmsg, 1: recvmsg; pointers: msghdr, iovec array, buffers, control */
static void f_msg(struct fz *f, const struct fz_call *c, struct obs *o)
{
	int type = R(f, 2) ? SOCK_DGRAM : SOCK_STREAM, sv[2], cnt = 1 + R(f, 4);
	int flags = MSG_DONTWAIT | (R(f, 4) ? 0 : c->arg ? MSG_PEEK : MSG_NOSIGNAL);
	size_t clen = CMSG_SPACE(sizeof(int)), len = 1 + R(f, 3000);
	bool rights = R(f, 2), ctl_in = R(f, 2);
	struct msghdr *msg = memset(ZBUF(sizeof(*msg)), 0, sizeof(*msg)), sm = { 0 };
	struct iovec *iov = ZBUF(cnt * sizeof(*iov)), siov = { IBUF(len), len };
	void *ctl = NULL;

	if (socketpair(AF_UNIX, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv))
		die("socketpair");
	if (c->arg == 1) {	/* something to receive, sent untagged */
		sm.msg_iov = &siov;
		sm.msg_iovlen = 1;
		if (rights) {
			sm.msg_control = IBUF(clen);
			sm.msg_controllen = clen;
			put_rights(sm.msg_control, clen, f->zero);
		}
		if (sendmsg(sv[0], &sm, 0) != (ssize_t)len)
			die("sendmsg");
		flags |= MSG_CMSG_CLOEXEC;
	}
	for (int i = 0; i < cnt; i++) {
		iov[i].iov_len = 1 + R(f, 1000);
		iov[i].iov_base = P(f, 2, c->arg ? OBUF(iov[i].iov_len) : IBUF(iov[i].iov_len));
	}
	msg->msg_iov = P(f, 1, iov);
	msg->msg_iovlen = cnt;
	if (c->arg == 0 && rights) {
		ctl = IBUF(clen);
		put_rights(ctl, clen, f->zero);
	} else if (c->arg == 1 && ctl_in) {
		ctl = OBUF(clen = CMSG_SPACE(2 * sizeof(int)));
	}
	if (ctl) {
		msg->msg_control = P(f, 3, ctl);
		msg->msg_controllen = clen;
	}
	if (c->arg == 0) {
		DO(syscall(SYS_sendmsg, sv[0], P(f, 0, msg), flags));
	} else {
		DO(syscall(SYS_recvmsg, sv[1], P(f, 0, msg), flags));
		putl(o, msg->msg_flags);	/* written back; the fds are in ctl */
		putl(o, msg->msg_controllen);
		if (o->rc >= 0 && ctl)
			close_rights(o, ctl, msg->msg_controllen);
	}
	drain_sock(o, sv[1]);
	close(sv[0]);
	close(sv[1]);
}

/* ---- futex (uaddr, timeout, uaddr2): nothing that needs a second thread ---- */

static void f_futex(struct fz *f, const struct fz_call *c, struct obs *o)
{
	int op = R(f, 6), pf = R(f, 2) ? FUTEX_PRIVATE_FLAG : 0;
	int *w = R(f, 2) ? f->shm + R(f, 1024) : IBUF(4), *w2 = IBUF(4);
	int val = rnd(&f->prm), val3 = R(f, 2) ? val : val + 1;
	struct timespec *ts = IBUF(sizeof(*ts));
	bool timeout = R(f, 2);

	w = (int *)((unsigned long)w & ~3UL);
	w2 = (int *)((unsigned long)w2 & ~3UL);
	*w = val;
	*w2 = rnd(&f->prm);
	ts->tv_sec = 0;
	ts->tv_nsec = R(f, 1000);
	switch (op) {
	case 0:		/* nobody waits: 0 */
		DO(syscall(SYS_futex, P(f, 0, w), FUTEX_WAKE | pf, 1, NULL, NULL, 0));
		break;
	case 1:		/* value mismatch: EAGAIN, having read the word */
		DO(syscall(SYS_futex, P(f, 0, w), FUTEX_WAIT | pf, val + 1,
			   timeout ? P(f, 1, ts) : NULL, NULL, 0));
		break;
	case 2:		/* the value matches, a timeout (always) of < 1 us: ETIMEDOUT */
		DO(syscall(SYS_futex, P(f, 0, w), FUTEX_WAIT | pf, val, P(f, 1, ts), NULL, 0));
		break;
	case 3:		/* compares *w with val3: 0 or EAGAIN */
		DO(syscall(SYS_futex, P(f, 0, w), FUTEX_CMP_REQUEUE | pf, 1, 1, P(f, 2, w2), val3));
		break;
	case 4:
		DO(syscall(SYS_futex, P(f, 0, w), FUTEX_REQUEUE | pf, 1, 1, P(f, 2, w2), 0));
		break;
	default:	/* *w2 += 1 (an atomic op through the pointer), wake w */
		DO(syscall(SYS_futex, P(f, 0, w), FUTEX_WAKE_OP | pf, 1, 1, P(f, 2, w2),
			   FUTEX_OP(FUTEX_OP_ADD, 1, FUTEX_OP_CMP_EQ, 0)));
	}
	putl(o, *w);	/* the shared page is outside the area */
}

/* ---- io_uring by raw syscalls: READ, WRITE, READV, WRITEV on a memfd ---- */

static int uring_init(struct fz *f)
{
	struct io_uring_params p;
	size_t sz;
	char *q;

	memset(&p, 0, sizeof(p));
	f->ring = syscall(__NR_io_uring_setup, 4, &p);
	if (f->ring < 0 || !(p.features & IORING_FEAT_SINGLE_MMAP))
		return -1;
	sz = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (sz < p.sq_off.array + p.sq_entries * sizeof(unsigned int))
		sz = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	q = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, f->ring,
		 IORING_OFF_SQ_RING);
	f->sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_POPULATE, f->ring, IORING_OFF_SQES);
	if (q == MAP_FAILED || f->sqes == MAP_FAILED)
		return -1;
	f->sq_tail = (unsigned int *)(q + p.sq_off.tail);
	f->sq_mask = (unsigned int *)(q + p.sq_off.ring_mask);
	f->sq_array = (unsigned int *)(q + p.sq_off.array);
	f->cq_head = (unsigned int *)(q + p.cq_off.head);
	f->cq_tail = (unsigned int *)(q + p.cq_off.tail);
	f->cq_mask = (unsigned int *)(q + p.cq_off.ring_mask);
	f->cqes = (struct io_uring_cqe *)(q + p.cq_off.cqes);
	return 0;
}

/* one sqe, wait for its cqe: cqe->res (-errno) */
static int uring_submit_wait(struct fz *f, const struct io_uring_sqe *in)
{
	unsigned int tail = __atomic_load_n(f->sq_tail, __ATOMIC_ACQUIRE);
	unsigned int idx = tail & *f->sq_mask, head;
	int res;

	f->sqes[idx] = *in;
	f->sq_array[idx] = idx;
	__atomic_store_n(f->sq_tail, tail + 1, __ATOMIC_RELEASE);
	if (syscall(__NR_io_uring_enter, f->ring, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0)
		return -errno;
	head = __atomic_load_n(f->cq_head, __ATOMIC_ACQUIRE);
	if (head == __atomic_load_n(f->cq_tail, __ATOMIC_ACQUIRE))
		return -ENODATA;
	res = f->cqes[head & *f->cq_mask].res;
	__atomic_store_n(f->cq_head, head + 1, __ATOMIC_RELEASE);
	return res;
}

/* pointers: the buffer or the iovec array, the iovecs' buffers */
static void f_uring(struct fz *f, const struct fz_call *c, struct obs *o)
{
	bool wr = c->arg == IORING_OP_WRITE || c->arg == IORING_OP_WRITEV;
	bool vec = c->arg == IORING_OP_READV || c->arg == IORING_OP_WRITEV;
	size_t clen = 1 + R(f, 6000);
	struct io_uring_sqe sqe = { .opcode = c->arg };
	struct iovec *iov;
	struct tgt t;

	tgt_open(f, &t, K_MEMFD, clen, 0, wr);
	sqe.fd = t.fd;
	sqe.off = R(f, clen + 100);
	sqe.len = vec ? 1 + R(f, 4) : 1 + R(f, 4000);
	if (!vec) {
		sqe.addr = PU(0, wr ? IBUF(sqe.len) : OBUF(sqe.len));
	} else {
		iov = ZBUF(sqe.len * sizeof(*iov));
		for (unsigned int i = 0; i < sqe.len; i++) {
			iov[i].iov_len = 1 + R(f, 1000);
			iov[i].iov_base = P(f, 1, wr ? IBUF(iov[i].iov_len) : OBUF(iov[i].iov_len));
		}
		sqe.addr = PU(0, iov);
	}
	DO(neg(uring_submit_wait(f, &sqe)));
	tgt_done(&t, o);
}

/* ---- process_vm_readv/writev on self and on a child (same layout and mode) ---- */

static long pvm(bool wr, pid_t pid, void *local, void *remote, size_t len)
{
	struct iovec l = { local, len }, r = { remote, len };

	return syscall(wr ? SYS_process_vm_writev : SYS_process_vm_readv, pid, &l, 1, &r, 1, 0);
}

/* arg bit 0: writev, bit 1: the child; pointers: lvec, rvec, lvec's buffers, rvec's */
static void f_pvm(struct fz *f, const struct fz_call *c, struct obs *o)
{
	bool wr = c->arg & 1, child = c->arg & 2;
	pid_t pid = child ? f->target : getpid();
	size_t rl = 1 + R(f, 3000), half = AREA_SZ - IN_END;
	int cnt = 1 + R(f, 3);
	struct iovec *lv = ZBUF(cnt * sizeof(*lv)), *rv = ZBUF(sizeof(*rv));
	void *remote = wr ? OBUF(rl) : IBUF(rl);

	if (child && pvm(true, pid, f->area, f->area, AREA_SZ) != (long)AREA_SZ)
		die("process_vm_writev to the child");	/* its area := ours */
	for (int i = 0; i < cnt; i++) {
		lv[i].iov_len = 1 + R(f, 1200);
		lv[i].iov_base = P(f, 2, wr ? IBUF(lv[i].iov_len) : OBUF(lv[i].iov_len));
	}
	rv->iov_base = P(f, 3, remote);
	rv->iov_len = rl;
	DO(syscall(wr ? SYS_process_vm_writev : SYS_process_vm_readv, pid, P(f, 0, lv), cnt,
		   P(f, 1, rv), 1, 0));
	if (child && wr) {
		if (pvm(false, pid, scratch, f->area + IN_END, half) != (long)half)
			die("process_vm_readv from the child");
		put(o, scratch, half);
	}
}

/* ---- mm calls on a region: pages [0, k) mapped, [k, RG_PAGES) a hole ---- */

enum {
	MM_MUNMAP, MM_MPROTECT, MM_MADVISE, MM_MINCORE, MM_MLOCK, MM_MUNLOCK, MM_MSYNC,
	MM_MREMAP, MM_MMAP
};

/* 0: no access, 1: readable, 2: writable too; copies the first bytes */
static int __attribute__((noinline)) probe_page(volatile unsigned char *p, unsigned char *copy)
{
	volatile int r = 0;

	if (sigsetjmp(lam_probe_env, 1) == 0) {
		for (int j = 0; j < RG_OBS; j++)
			copy[j] = p[j];
		r = 1;
		p[0] = copy[0];
		r = 2;
	}
	return r;
}

/* per page: mapped and resident (mincore), readable, writable, first bytes */
static void pages_obs(struct obs *o, unsigned char *base, int npages)
{
	static unsigned char copy[RG_OBS];	/* static: survives siglongjmp() */
	struct sigaction os, ob;
	unsigned char v;

	for (int i = 0; i < npages; i++) {
		v = 0xfe;
		putl(o, mincore(base + i * PAGE_SZ, PAGE_SZ, &v) ? -errno : (v & 1));
	}
	lam_probe_arm(&os, &ob);
	for (int i = 0; i < npages; i++) {
		memset(copy, 0, sizeof(copy));
		putl(o, probe_page(base + i * PAGE_SZ, copy));
		put(o, copy, sizeof(copy));
	}
	lam_probe_disarm(&os, &ob);
}

static void f_mm(struct fz *f, const struct fz_call *c, struct obs *o)
{
	static const int prots[] = { PROT_NONE, PROT_READ, PROT_READ | PROT_WRITE,
				     PROT_READ | PROT_EXEC };
	static const int advs[] = { MADV_DONTNEED, MADV_WILLNEED, MADV_NORMAL, MADV_RANDOM,
				    MADV_SEQUENTIAL, MADV_COLD, MADV_DONTFORK, MADV_DOFORK };
	static const int syncs[] = { MS_ASYNC, MS_SYNC, MS_INVALIDATE, MS_ASYNC | MS_INVALIDATE };
	/* [s, s + n): mostly within the mapped pages, sometimes into the hole */
	int k = 1 + R(f, RG_PAGES - 1), s = R(f, k), nk = 1 + R(f, k - s);
	int n = R(f, 4) ? nk : 1 + (int)R(f, RG_PAGES - s), prot = prots[R(f, 4)];
	int nl = 1 + R(f, RG_PAGES - s), t = R(f, RG_PAGES - nl + 1), fixed = R(f, 3) == 0;
	int adv = advs[R(f, 8)], sync = syncs[R(f, 4)], lock = R(f, 2);
	unsigned long a = (unsigned long)f->rg + s * PAGE_SZ, len = n * PAGE_SZ, at;
	unsigned char *vec = OBUF(RG_PAGES);

	if (mmap(f->rg, k * PAGE_SZ, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != f->rg ||
	    munmap(f->rg + k * PAGE_SZ, (RG_PAGES - k) * PAGE_SZ))
		die("mmap/munmap (region)");
	for (int i = 0; i < k; i++)
		fill(rnd(&f->prm), f->rg + i * PAGE_SZ, RG_OBS);
	switch (c->arg) {
	case MM_MUNMAP:
		DO(syscall(SYS_munmap, PU(0, a), len));
		break;
	case MM_MPROTECT:
		DO(syscall(SYS_mprotect, PU(0, a), len, prot));
		break;
	case MM_MADVISE:
		DO(syscall(SYS_madvise, PU(0, a), len, adv));
		break;
	case MM_MINCORE:
		DO(syscall(SYS_mincore, PU(0, a), len, P(f, 1, vec)));
		break;
	case MM_MLOCK:
		DO(syscall(SYS_mlock, PU(0, a), len));
		break;
	case MM_MUNLOCK:
		if (lock && mlock(f->rg, k * PAGE_SZ))
			die("mlock");
		DO(syscall(SYS_munlock, PU(0, a), len));
		break;
	case MM_MSYNC:
		DO(syscall(SYS_msync, PU(0, a), len, sync));
		break;
	case MM_MREMAP:		/* [s, s + nk) is mapped: the plain call never EFAULTs */
		DO(syscall(SYS_mremap, PU(0, a), nk * PAGE_SZ, nl * PAGE_SZ,
			   MREMAP_MAYMOVE | (fixed ? MREMAP_FIXED : 0),
			   fixed ? PU(1, f->rg + t * PAGE_SZ) : 0));
		break;
	default:
		DO(syscall(SYS_mmap, PU(0, a), len, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
			   -1, 0));
	}
	/* an address returned: its offset in the region, or -2 and its pages */
	at = o->rc;
	if (o->rc > 0 && (c->arg == MM_MREMAP || c->arg == MM_MMAP)) {
		o->rc = at - (unsigned long)f->rg < RG_PAGES * PAGE_SZ ?
			(long)(at - (unsigned long)f->rg) : -2;
		if (o->rc == -2) {
			pages_obs(o, (unsigned char *)at, nl);
			munmap((void *)at, nl * PAGE_SZ);
		}
	}
	pages_obs(o, f->rg, RG_PAGES);
	if (mmap(f->rg, RG_PAGES * PAGE_SZ, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0) != f->rg)
		die("mmap (region)");
}

/* ---- rt_sigaction, sigaltstack, prctl names: arg 0 sets, 1 gets ---- */

struct ksigaction {
	unsigned long handler, flags, restorer, mask;
};

static void fz_handler(int sig)
{
}

static void f_sigaction(struct fz *f, const struct fz_call *c, struct obs *o)
{
	static const int sigs[] = { SIGUSR1, SIGUSR2, 40 };
	static const unsigned long sflags[] = { SA_RESTART, SA_NODEFER, SA_RESETHAND,
						SA_SIGINFO, SA_ONSTACK };
	int sig = sigs[R(f, 3)];
	struct ksigaction dfl = { 0 }, cur, *act = IBUF(sizeof(*act)), *old = OBUF(sizeof(*old));

	act->handler = R(f, 3) ? (unsigned long)fz_handler : (unsigned long)SIG_IGN;
	act->flags = 0;
	for (int i = 0; i < 5; i++)
		act->flags |= R(f, 2) ? sflags[i] : 0;
	act->restorer = 0;
	act->mask = rnd(&f->prm);
	if (syscall(SYS_rt_sigaction, sig, &dfl, NULL, 8) ||
	    (c->arg && syscall(SYS_rt_sigaction, sig, act, NULL, 8)))
		die("rt_sigaction");
	if (c->arg == 0)
		DO(syscall(SYS_rt_sigaction, sig, P(f, 0, act), old, 8));
	else
		DO(syscall(SYS_rt_sigaction, sig, NULL, P(f, 0, old), 8));
	if (syscall(SYS_rt_sigaction, sig, &dfl, &cur, 8))
		die("rt_sigaction");
	put(o, &cur, sizeof(cur));
}

static void f_altstack(struct fz *f, const struct fz_call *c, struct obs *o)
{
	stack_t off = { .ss_flags = SS_DISABLE }, cur, *ss = IBUF(sizeof(*ss));
	stack_t *old = OBUF(sizeof(*old));

	ss->ss_sp = f->altstack + R(f, 4096);
	ss->ss_size = 32768 + R(f, 32768);
	ss->ss_flags = R(f, 2) ? SS_AUTODISARM : 0;
	if (sigaltstack(&off, NULL) || (c->arg && sigaltstack(ss, NULL)))
		die("sigaltstack");
	if (c->arg == 0)
		DO(syscall(SYS_sigaltstack, P(f, 0, ss), NULL));
	else
		DO(syscall(SYS_sigaltstack, NULL, P(f, 0, old)));
	if (sigaltstack(&off, &cur))
		die("sigaltstack");
	put(o, &cur, sizeof(cur));
}

static void f_prctl(struct fz *f, const struct fz_call *c, struct obs *o)
{
	int len = 1 + R(f, 24);
	char *name = IBUF(len + 1), *out = OBUF(16), cur[16];

	for (int i = 0; i < len; i++)
		name[i] = 'a' + R(f, 26);
	name[len] = 0;
	if (c->arg == 0) {
		DO(syscall(SYS_prctl, PR_SET_NAME, P(f, 0, name), 0, 0, 0));
	} else {
		prctl(PR_SET_NAME, name);
		DO(syscall(SYS_prctl, PR_GET_NAME, P(f, 0, out), 0, 0, 0));
	}
	prctl(PR_GET_NAME, cur);
	put(o, cur, sizeof(cur));
	prctl(PR_SET_NAME, "lam_fuzz");
}

/* ---- arch_prctl GETs into a pointer; a user store and load ---- */

static void f_arch(struct fz *f, const struct fz_call *c, struct obs *o)
{
	DO(neg(raw_arch_prctl(c->arg, PU(0, OBUF(8)))));
}

static void f_store(struct fz *f, const struct fz_call *c, struct obs *o)
{
	unsigned char *p = OBUF(1), v = R(f, 256);
	int r;

	if (f->how == FZ_SKIP)
		return;
	r = lam_probe_write(P(f, 0, p), p, v);
	o->rc = r ? -1 : 0;
	o->err = r > 0 ? FZ_SIGBASE + r : 0;
	f->calls++;
}

/* ---- the table ---- */

#define E	FZ_EPTR
#define L	FZ_ELATE
#define C(name, fn, arg, nptr, always, quiet, ...) \
	{ name, fn, arg, nptr, always, quiet, { __VA_ARGS__ } }

static const struct fz_call calls[] = {
	C("read", f_rw, 0, 1, 0, 0, E),
	C("pread64", f_rw, 1, 1, 0, 0, E),
	C("readv", f_rw, 2, 2, 0, 0, E, E),		/* the iovec array, the buffers */
	C("preadv2", f_rw, 3, 2, 0, 0, E, E),
	C("write", f_rw, 4, 1, 0, 0, E),
	C("pwrite64", f_rw, 5, 1, 0, 0, E),
	C("writev", f_rw, 6, 2, 0, 0, E, E),
	C("pwritev2", f_rw, 7, 2, 0, 0, E, E),
	C("stat", f_stat, 0, 2, 0, 0, E, L),		/* the path, the buffer */
	C("lstat", f_stat, 1, 2, 0, 0, E, L),
	C("newfstatat", f_stat, 2, 2, 0, 0, E, L),
	C("statx", f_stat, 3, 2, 0, 0, E, L),
	C("fstat", f_stat, 4, 1, 0, 0, E),
	C("open", f_open, 0, 1, 0, 0, E),
	C("openat", f_open, 1, 1, 0, 0, E),
	C("getcwd", f_misc, M_GETCWD, 1, 0, 0, E),
	C("uname", f_misc, M_UNAME, 1, 0, 0, E),
	C("getrandom", f_misc, M_GETRANDOM, 1, 0, 0, E),
	C("clock_gettime", f_misc, M_CLOCK_GETTIME, 1, 0, 0, E),
	C("clock_getres", f_misc, M_CLOCK_GETRES, 1, 0, 0, E),
	C("poll", f_poll, 0, 1, 0, 0, E),
	C("ppoll", f_poll, 1, 3, 0, 0, E, E, E),	/* fds, timeout, sigmask */
	C("select", f_poll, 2, 4, 0, 0, E, E, E, E),	/* three fd_sets, timeout */
	C("epoll_ctl", f_epoll, 0, 1, 0, 0, E),
	C("epoll_wait", f_epoll, 1, 1, 0, 0, E),
	C("epoll_pwait", f_epoll, 2, 2, 0, 0, E, E),
	C("sendmsg", f_msg, 0, 4, 0, 0, E, E, E, E),
	C("recvmsg", f_msg, 1, 4, 0, 1U << 3, E, E, E, E),
	C("futex", f_futex, 0, 3, 0, 0, E, E, E),
	C("io_uring READ", f_uring, IORING_OP_READ, 1, 0, 0, E),
	C("io_uring WRITE", f_uring, IORING_OP_WRITE, 1, 0, 0, E),
	C("io_uring READV", f_uring, IORING_OP_READV, 2, 0, 0, E, E),
	C("io_uring WRITEV", f_uring, IORING_OP_WRITEV, 2, 0, 0, E, E),
	C("process_vm_readv self", f_pvm, 0, 4, 0, 0, E, E, E, E),
	C("process_vm_writev self", f_pvm, 1, 4, 0, 0, E, E, E, E),
	C("process_vm_readv child", f_pvm, 2, 4, 0, 0, E, E, E, E),
	C("process_vm_writev child", f_pvm, 3, 4, 0, 0, E, E, E, E),
	C("munmap", f_mm, MM_MUNMAP, 1, 0, 0, EINVAL),
	C("mprotect", f_mm, MM_MPROTECT, 1, 0, 0, ENOMEM),
	C("madvise", f_mm, MM_MADVISE, 1, 0, 0, ENOMEM),
	C("mincore", f_mm, MM_MINCORE, 2, 0, 0, ENOMEM, E),
	C("mlock", f_mm, MM_MLOCK, 1, 0, 0, ENOMEM),
	C("munlock", f_mm, MM_MUNLOCK, 1, 0, 0, ENOMEM),
	C("msync", f_mm, MM_MSYNC, 1, 0, 0, ENOMEM),
	C("mremap", f_mm, MM_MREMAP, 2, 1U << 1, 0, EFAULT, FZ_ENEWADDR),
	C("mmap MAP_FIXED", f_mm, MM_MMAP, 1, 1U << 0, 0, ENOMEM),
	C("rt_sigaction act", f_sigaction, 0, 1, 0, 0, E),
	C("rt_sigaction oldact", f_sigaction, 1, 1, 0, 0, E),
	C("sigaltstack ss", f_altstack, 0, 1, 0, 0, E),
	C("sigaltstack old_ss", f_altstack, 1, 1, 0, 0, E),
	C("prctl PR_SET_NAME", f_prctl, 0, 1, 0, 0, E),
	C("prctl PR_GET_NAME", f_prctl, 1, 1, 0, 0, E),
	C("arch_prctl ARCH_GET_FS", f_arch, ARCH_GET_FS, 1, 0, 0, E),
	C("arch_prctl ARCH_GET_GS", f_arch, ARCH_GET_GS, 1, 0, 0, E),
	C("arch_prctl ARCH_GET_UNTAG_MASK", f_arch, ARCH_GET_UNTAG_MASK, 1, 0, 0, FZ_EARCH),
	C("arch_prctl ARCH_GET_MAX_TAG_BITS", f_arch, ARCH_GET_MAX_TAG_BITS, 1, 0, 0, FZ_EARCH),
	C("user store/load", f_store, 0, 1, 0, 0, FZ_SIG),
};
#define NCALLS	ARRAY_SIZE(calls)
#undef C
#undef E
#undef L

/*
 * The errno the kernel must give when pointer @i of @c is tagged (@bad
 * false) or bad, in this mode; 0: it must take it as the plain pointer.
 */
static int want_err(const struct fz *f, const struct fz_call *c, int i, bool bad)
{
	switch (c->err[i]) {
	case FZ_EPTR:
	case FZ_ELATE:
		return exp_ptr_errno(bad ? LAM_PTR_KERNEL : LAM_PTR_TAGGED, f->on);
	case FZ_EARCH:
		return exp_get_dest_rc(bad ? LAM_DEST_BAD : LAM_DEST_TAGGED, f->on);
	case FZ_SIG:
		return bad || !f->on ? FZ_SIGBASE + SIGSEGV : 0;
	case FZ_ENEWADDR:	/* never untagged; fz_check() also takes ENOMEM */
		return EINVAL;
	default:
		return bad || !f->on || (c->always >> i & 1) ? c->err[i] : 0;
	}
}

/* ---- runs and iterations ---- */

static void fz_run(struct fz *f, const struct fz_call *c, enum fz_how how, struct obs *o)
{
	f->how = how;
	f->used = 0;
	f->prm = f->iseed;
	f->tagr = mix(f->iseed ^ 0x7461677321ULL);
	memcpy(f->area, tmpl, AREA_SZ);
	f->zat = R(f, 64);
	f->iat = ZONE_END + R(f, 1024);
	f->oat = IN_END + R(f, 3072);
	o->rc = -1;
	o->err = 0;
	o->len = 0;
	o->over = false;
	c->fn(f, c, o);
	o->used = f->used;
	put(o, f->area + ZONE_END, AREA_SZ - ZONE_END);
}

static const char *err_name(int e, char *buf)
{
	if (e >= FZ_SIGBASE)
		sprintf(buf, "signal %d", e - FZ_SIGBASE);
	else
		snprintf(buf, 40, "%s", e ? strerror(e) : "-");
	return buf;
}

static void mismatch(struct fz *f, const struct fz_call *c, const struct obs *a,
		     const struct obs *b, const char *what, long d)
{
	char e1[40], e2[40];

	if (++f->mism > MAX_REPORT) {
		if (f->mism == MAX_REPORT + 1)
			printf("# (further mismatches are counted, not printed)\n");
		return;
	}
	printf("# MISMATCH seed=%llu iter=%lu LAM %s, %s tags: \"%s\", %s run: %s; %s rc=%ld errno=%s, %s rc=%ld errno=%s, pointers 0x%x",
	       f->seed, f->iter, f->on ? "on" : "off", f->mode->name, c->name, how_name[f->how],
	       what, a == &obs_skip ? "skip" : "plain", a->rc, err_name(a->err, e1),
	       how_name[f->how], b->rc, err_name(b->err, e2), b->used);
	if (d >= 0)
		printf("; observations differ from byte %ld: 0x%02x vs 0x%02x", d,
		       d < a->len ? a->b[d] : 0, d < b->len ? b->b[d] : 0);
	printf(" [replay: LAM_FUZZ_SEED=%llu LAM_FUZZ_FIRST=%lu LAM_FUZZ_ITER=1%s%s]\n",
	       f->seed, f->iter, f->only ? " LAM_FUZZ_CALL=" : "", f->only ? f->only : "");
}

/* first differing byte of two observations, -1 if equal */
static long obs_diff(const struct obs *a, const struct obs *b)
{
	unsigned int n = a->len < b->len ? a->len : b->len;

	if (a->len == b->len && !a->over && !b->over && !memcmp(a->b, b->b, n))
		return -1;
	for (unsigned int i = 0; i < n; i++)
		if (a->b[i] != b->b[i])
			return i;
	return n;
}

/* a tagged or bad run @x against the table */
static void fz_check(struct fz *f, const struct fz_call *c, struct obs *x, bool *have_skip)
{
	bool bad = f->how == FZ_BAD, ok = false;
	int want[2 * MAX_PTR], nwant = 0, w;
	enum fz_how how = f->how;
	char msg[96], e[40];
	long d;

	for (int i = 0; i < c->nptr; i++) {
		w = x->used >> i & 1 ? want_err(f, c, i, bad) : 0;
		if (w) {
			want[nwant++] = w;
			if (c->err[i] == FZ_ENEWADDR)
				want[nwant++] = ENOMEM;
			if (c->err[i] == FZ_ELATE && obs_plain.rc == -1)
				want[nwant++] = obs_plain.err;
		}
	}
	if (!nwant) {	/* every pointer taken: as the plain run, byte for byte */
		f->equal++;
		d = obs_diff(&obs_plain, x);
		if (x->rc != obs_plain.rc || x->err != obs_plain.err)
			mismatch(f, c, &obs_plain, x, "the results differ", d);
		else if (d >= 0)
			mismatch(f, c, &obs_plain, x, "the observations differ", d);
		return;
	}
	/*
	 * Refused: the errno of a refused pointer (the kernel's order of checks
	 * picks one), and nothing happened.
	 */
	f->refused++;
	for (int i = 0; i < nwant; i++)
		ok |= x->err == want[i];
	if (!*have_skip) {
		fz_run(f, c, FZ_SKIP, &obs_skip);
		f->how = how;
		*have_skip = true;
	}
	d = obs_diff(&obs_skip, x);
	if (x->rc != -1 || !ok) {
		snprintf(msg, sizeof(msg), "want rc -1, errno %s%s", err_name(want[0], e),
			 nwant > 1 ? " or another refused pointer's" : "");
		mismatch(f, c, &obs_plain, x, msg, -1);
	} else if (d >= 0) {
		mismatch(f, c, &obs_skip, x, "refused, but something happened", d);
	}
}

static void fz_iter(struct fz *f, const struct fz_call *const *pool, unsigned int npool,
		    unsigned long i)
{
	uint64_t s = mix(f->seed * 0x9e3779b97f4a7c15ULL ^ mix(i)), r = mix(s ^ 0x626164ULL);
	const struct fz_call *c = pool[s % npool];
	unsigned int all = (1U << c->nptr) - 1, tagok = all & ~(f->on ? 0 : c->quiet);
	unsigned int badok = all & ~c->quiet;
	bool have_skip = false;
	int k;

	f->iter = i;
	f->iseed = s;
	f->pr->iter = i;
	snprintf(f->pr->call, sizeof(f->pr->call), "%s", c->name);
	if (c->fn == f_uring && f->ring < 0) {
		f->skipped++;
		return;
	}
	fill(s, tmpl, AREA_SZ);
	do		/* a random non-empty subset of tagok */
		f->tagmask = rnd(&r) & tagok;
	while (!f->tagmask && tagok);
	f->badidx = -1;
	if (badok) {	/* one of badok, uniformly */
		k = rnd(&r) % __builtin_popcount(badok);
		for (f->badidx = 0; !(badok >> f->badidx & 1) || k--; f->badidx++)
			;
	}
	f->badkind = rnd(&r) % 4;
	if (f->verbose)
		printf("# iter %lu: %s, tagged 0x%x, bad %d (kind %d)\n", i, c->name,
		       f->tagmask, f->badidx, f->badkind);

	fz_run(f, c, FZ_PLAIN, &obs_plain);
	if (obs_plain.err == EFAULT || obs_plain.err >= FZ_SIGBASE)
		mismatch(f, c, &obs_plain, &obs_plain, "the untagged call faulted", -1);
	fz_run(f, c, FZ_TAGGED, &obs_tag);
	fz_check(f, c, &obs_tag, &have_skip);
	if (f->badidx >= 0) {
		fz_run(f, c, FZ_BAD, &obs_bad);
		fz_check(f, c, &obs_bad, &have_skip);
	}
}

/* ---- a mode: set up, enable LAM or not, fork the remote target, iterate ---- */

static unsigned long long env_num(const char *name, unsigned long long def)
{
	const char *v = getenv(name);

	return v && *v ? strtoull(v, NULL, 0) : def;
}

static void fz_setup(struct fz *f)
{
	int fd;

	f->area = mmap(NULL, AREA_SZ, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	f->rg = mmap(NULL, RG_PAGES * PAGE_SZ, PROT_NONE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	f->shm = mmap(NULL, PAGE_SZ, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	f->altstack = malloc(72 * 1024);
	if (f->area == MAP_FAILED || f->rg == MAP_FAILED || f->shm == MAP_FAILED || !f->altstack)
		die("allocating buffers");
	umask(022);
	strcpy(f->dir, "/tmp/lam_fuzz_XXXXXX");
	if (!mkdtemp(f->dir))
		die("mkdtemp");
	f->dirfd = open(f->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	fd = openat(f->dirfd, "file", O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (f->dirfd < 0 || fd < 0 || write(fd, "lam fuzz\n", 9) != 9 ||
	    symlinkat("file", f->dirfd, "link"))
		die("creating files");
	close(fd);
	f->ffd = openat(f->dirfd, "file", O_RDONLY | O_CLOEXEC);
	f->dfd = openat(f->dirfd, "data", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	f->zero = open("/dev/zero", O_RDWR | O_CLOEXEC);
	if (f->ffd < 0 || f->dfd < 0 || f->zero < 0 || !getcwd(f->cwd, sizeof(f->cwd)))
		die("opening files");
	if (uring_init(f)) {
		printf("# io_uring_setup: %s: the io_uring calls are skipped\n", strerror(errno));
		f->ring = -1;
	}
	signal(SIGPIPE, SIG_IGN);
	prctl(PR_SET_NAME, "lam_fuzz");
}

static void fz_cleanup(struct fz *f)
{
	static const char *const names[] = { "file", "link", "data", "new" };

	if (f->target > 0) {
		kill(f->target, SIGKILL);
		waitpid(f->target, NULL, 0);
	}
	for (int i = 0; f->dir[0] && i < 4; i++)
		unlinkat(f->dirfd, names[i], 0);
	if (f->dir[0])
		rmdir(f->dir);
}

static int fz_mode(bool enable, unsigned long nbits, struct fz_progress *pr)
{
	unsigned long first = env_num("LAM_FUZZ_FIRST", 0), n = env_num("LAM_FUZZ_ITER", 200), m;
	const struct fz_call *pool[NCALLS];
	unsigned int npool = 0;
	struct timespec t0, t1;
	struct fz *f = &fz;
	pid_t parent = getpid();
	double secs;
	int rc, want;

	f->mode = lam_mode_of(nbits);
	f->seed = env_num("LAM_FUZZ_SEED", 1);
	f->verbose = env_num("LAM_FUZZ_VERBOSE", 0);
	f->pr = pr;
	f->only = getenv("LAM_FUZZ_CALL");
	for (unsigned int i = 0; i < NCALLS; i++)
		if (!f->only || strstr(calls[i].name, f->only))
			pool[npool++] = &calls[i];
	if (!npool) {
		printf("# LAM_FUZZ_CALL=%s matches no call\n", f->only);
		return 2;
	}
	/*
	 * Before any set-up: io_uring may add threads.  Where the table says
	 * the mode is refused, the refusal is checked and the run fuzzes with
	 * LAM off (its tags must be refused).  Under wrong facts the enable
	 * is a set-up step (lam_harness.h): logged, and the run believes the
	 * facts.
	 */
	want = enable ? exp_enable(nbits, LAM_FRESH, false) : 0;
	rc = enable ? lam_enable(nbits) : 0;
	if (rc != want) {
		printf("# ARCH_ENABLE_TAGGED_ADDR(%lu): %s, but the table says %s%s\n",
		       nbits, rc ? strerror(rc) : "ok", want ? strerror(want) : "ok",
		       lam_facts_wrong ? " (not checked: the facts are wrong on purpose)" : "");
		if (!lam_facts_wrong)
			return 1;
	}
	f->on = enable && !want;
	fz_setup(f);
	if (!lam_facts_wrong && !lam_mask_is(f->on ? exp_mask_for(nbits) : LAM_MASK_NONE, &rc, &m)) {
		printf("# MISMATCH seed=%llu: ARCH_GET_UNTAG_MASK: %s, mask %#lx\n", f->seed,
		       rc ? strerror(rc) : "ok", m);
		f->mism++;
	}
	fflush(stdout);
	f->target = fork();
	if (f->target < 0)
		die("fork");
	if (f->target == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(0);
		for (;;)
			pause();
	}
	printf("# LAM %s, %s tags (bits 62:%d); LAM_FUZZ_SEED=%llu LAM_FUZZ_FIRST=%lu LAM_FUZZ_ITER=%lu; %u calls to pick from\n",
	       f->on ? "on" : "off", f->mode->name, f->mode->tag_lsb, f->seed, first, n, npool);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (unsigned long i = first; i < first + n; i++)
		fz_iter(f, pool, npool, i);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("# seed %llu, %lu iterations, %lu calls, %lu mismatches, %.0f per second (LAM %s, %s tags: %lu runs refused as expected, %lu equal to plain%s)\n",
	       f->seed, n, f->calls, f->mism, secs > 0 ? n / secs : 0.0, f->on ? "on" : "off",
	       f->mode->name, f->refused, f->equal, f->skipped ? "; io_uring skipped" : "");
	fz_cleanup(f);
	return f->mism ? 1 : 0;
}

/* ---- the tests ---- */

FIXTURE(fuzz) {};

FIXTURE_VARIANT(fuzz) {
	bool enable;
	unsigned long nbits;
};

FIXTURE_VARIANT_ADD(fuzz, lam_u57) { .enable = true, .nbits = 6 };
FIXTURE_VARIANT_ADD(fuzz, lam_u48) { .enable = true, .nbits = 15 };
FIXTURE_VARIANT_ADD(fuzz, nolam_u57tags) { .enable = false, .nbits = 6 };
FIXTURE_VARIANT_ADD(fuzz, nolam_u48tags) { .enable = false, .nbits = 15 };

FIXTURE_SETUP(fuzz) {}
FIXTURE_TEARDOWN(fuzz) {}

TEST_F_TIMEOUT(fuzz, differential, 600)
{
	unsigned long long seed = env_num("LAM_FUZZ_SEED", 1);
	const char *only = getenv("LAM_FUZZ_CALL");
	struct fz_progress *pr;
	int st;
	pid_t pid;

	pr = mmap(NULL, sizeof(*pr), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, pr);
	fflush(stdout);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int r = fz_mode(variant->enable, variant->nbits, pr);

		fflush(stdout);
		_exit(r);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	if (WIFSIGNALED(st))
		printf("# the fuzzing process died of signal %d: seed %llu, iteration %lu (%s) [replay: LAM_FUZZ_SEED=%llu LAM_FUZZ_FIRST=%lu LAM_FUZZ_ITER=1%s%s]\n",
		       WTERMSIG(st), seed, pr->iter, pr->call, seed, pr->iter,
		       only ? " LAM_FUZZ_CALL=" : "", only ? only : "");
	ASSERT_TRUE(WIFEXITED(st));
	EXPECT_EQ(0, WEXITSTATUS(st)) TH_LOG("mismatches (above), or exit status %d",
					     WEXITSTATUS(st));
}

/*
 * The options may also come as LAM_FUZZ_X=V words on the command line (a
 * guest job gets arguments, not an environment: make fuzz SEED=... ITER=...).
 */
static int fuzz_harness_main(int argc, char **argv)
{
	int j = 1;

	for (int i = 1; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (!strncmp(argv[i], "LAM_FUZZ_", 9) && eq) {
			*eq = 0;
			setenv(argv[i], eq + 1, 1);
		} else {
			argv[j++] = argv[i];
		}
	}
	argv[j] = NULL;
	setvbuf(stdout, NULL, _IOLBF, 0);
	lam_facts_init(&j, argv);
	return test_harness_run(j, argv);
}

int main(int argc, char **argv)
{
	return fuzz_harness_main(argc, argv);
}
