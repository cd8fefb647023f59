// SPDX-License-Identifier: GPL-2.0
/*
 * lam_churn: SMP churn, bounded in time.
 *
 * A supervisor keeps 2 * LAM_NCPU worker processes alive for a while.
 * Each worker draws a life from its PRNG (seed and worker number): it stays
 * without LAM or enables LAM_U57 (1..6 bits) or LAM_U48 (7..15 bits; where
 * the table refuses them but accepts U57, the refusal is checked and U57
 * enabled instead), then
 *  - forks children that must inherit the mode and cannot change it (EBUSY),
 *  - execs itself (/proc/self/exe EXEC_ARG) and must come back with LAM off
 *    (mask ~0, tagged pointers refused) and able to enable again,
 *  - spawns threads, one of which enables LAM while the others run tagged
 *    syscalls: once the call returned, every thread's tagged loads, stores
 *    and syscalls must work at once (the seed's multi-threaded enable),
 *  - migrates itself between CPUs with sched_setaffinity(),
 *  - maps pages and unmaps/protects/advises them through tagged addresses,
 *  - or runs tagged read()/write()/uname() on /dev/zero and a pipe.
 * Now and then and at its end a worker checks that its untag mask
 * (ARCH_GET_UNTAG_MASK, /proc/self/status) is what its history predicts
 * and that its data (a worker-specific pattern) reads back through tagged
 * and untagged pointers (tagged ones fault without LAM).  It reports its
 * counts and first failure through a pipe (fixed-size records, one write
 * each); the supervisor counts workers started against final reports, and
 * a worker that dies of a signal, exits without its report or outlives
 * WORKER_TIMEOUT (then killed with its process group) is a failure.
 *
 * Without LAM (the facts say ENABLE fails) the same churn runs: every
 * enable must fail with the table's errno and tagged pointers give EFAULT
 * in syscalls and SIGSEGV in loads and stores.
 *
 * Environment: LAM_CHURN_SECONDS (guest seconds of churn.mixed, default 20,
 * at most 600; the other two tests run a quarter of it, at least 1 s) and
 * LAM_CHURN_SEED (default: from the clock).  A seed replays the lives, not
 * the timing.  Expected results come from lam_expect.h only.
 */
#include "lam_common.h"
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include "lam_harness.h"

#define DEFAULT_SECONDS	20
#define MAX_SECONDS	600
#define WORKER_TIMEOUT	60	/* alarm() of a worker (kept across its execve) */
#define KILL_GRACE	10	/* then the supervisor SIGKILLs its process group */
#define CHURN_TIMEOUT	(MAX_SECONDS + WORKER_TIMEOUT + KILL_GRACE + 60)
#define MAX_LIVE	32
#define MAX_THREADS	5
#define POST_ITERS	3	/* per thread, after the enable returned */
#define DATA_LEN	256
#define IO_LEN		64
#define MAX_PRINT	10	/* failing workers described in the log */
#define EXEC_ARG	"--lam-churn-exec"

enum { C_ENABLE, C_EN_U57, C_EN_U48, C_EN_OK, C_FORK, C_EXEC, C_MIGRATE, C_MAP,
	C_SYSCALL, NCNT };

/* plain: LAM off; enable: a mode, then tagged syscalls */
enum life { LIFE_PLAIN, LIFE_ENABLE, LIFE_FORK, LIFE_EXEC, LIFE_THREADS,
	    LIFE_MIGRATE, LIFE_MAP, NLIVES };

static const char *const life_names[NLIVES] = {
	"plain", "enable", "fork", "exec", "threads", "migrate", "map",
};

/* one record on the report pipe: well below PIPE_BUF, so written at once */
struct report {
	int id;			/* the worker's number (also in its fork children) */
	int final;		/* the worker's last record */
	int fails;		/* failed checks since the previous record */
	long cnt[NCNT];
	char why[200];		/* the first of them */
};

struct worker {
	int id, life, rfd, zfd, pp[2];
	bool force_on;		/* exec_resets: always try to enable first */
	uint64_t rng;
	long deadline;		/* CLOCK_MONOTONIC ms */
	enum lam_state st;	/* predicted from the table, never observed */
	bool on;		/* predicted: LAM is on */
	unsigned long mask;	/* predicted untag mask */
	const struct lam_mode *mode;	/* tag layout (of the mode tried) */
	unsigned char *data, *scratch;
	struct utsname *uts;
	bool failed;
	struct report rep;	/* since the last one sent */
};

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* splitmix64 */
static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static const char *errstr(int e)
{
	return e ? strerror(e) : "success";
}

static void __attribute__((format(printf, 2, 3))) wfail(struct worker *w, const char *fmt, ...)
{
	va_list ap;

	w->failed = true;
	if (!w->rep.fails++) {
		va_start(ap, fmt);
		vsnprintf(w->rep.why, sizeof(w->rep.why), fmt, ap);
		va_end(ap);
	}
}

/*
 * A tag with the field's top bit (62) set, the rest random: without LAM
 * such a pointer is no user address under any paging mode (a U48 tag in
 * bits 56:48 alone could name plain user memory with 5-level paging).
 */
static void *wtag(struct worker *w, const void *p)
{
	return lam_tag(p, w->mode, rnd(&w->rng) | (1UL << (w->mode->tag_width - 1)));
}

static unsigned char pat(int id, int i)
{
	return (unsigned char)(id * 37 + i * 11 + (i >> 5) + 1);
}

static void report_send(struct worker *w, bool final)
{
	struct report r = w->rep;

	r.id = w->id;
	r.final = final;
	if (write(w->rfd, &r, sizeof(r)) != (ssize_t)sizeof(r))
		_exit(98);
	memset(&w->rep, 0, sizeof(w->rep));
}

/* memcmp through @t under the fault probe: 0, -1 (wrong data) or the signal */
static int __attribute__((noinline)) probe_cmp(const void *t, const void *want, size_t len)
{
	struct sigaction os, ob;
	int ret;

	lam_probe_sig = 0;
	lam_probe_arm(&os, &ob);
	if (sigsetjmp(lam_probe_env, 1) == 0)
		ret = memcmp(t, want, len) ? -1 : 0;
	else
		ret = lam_probe_sig;
	lam_probe_disarm(&os, &ob);
	return ret;
}

static const char *probe_str(int r)
{
	return r > 0 ? strsignal(r) : r ? "wrong data" : "worked";
}

/* a tagged access under the probe gave @r: it works with LAM, faults without */
static void access_want(struct worker *w, int r, const char *what)
{
	if (r != (w->on ? 0 : SIGSEGV))
		wfail(w, "%s: %s, LAM %s", what, probe_str(r), w->on ? "on" : "off");
}

/* ---- the checker ---- */

static void check_mask(struct worker *w, const char *where)
{
	unsigned long m, pm = 0x5a5a;
	bool after = false;
	int rc, r;

	if (!lam_mask_is(w->mask, &rc, &m))
		wfail(w, "%s: ARCH_GET_UNTAG_MASK %s, mask %#lx; want %s, %#lx", where,
		      errstr(rc), m, errstr(exp_get_mask_rc()), w->mask);
	r = proc_untag_mask(getpid(), "status", &pm, "THP_enabled:", &after);
	if (exp_status_line()) {
		if (r != 1 || pm != w->mask || !after)
			wfail(w, "%s: /proc/self/status: untag_mask %s %#lx%s, want %#lx",
			      where, r == 1 ? "line" : "no line", pm,
			      after ? "" : " (not after THP_enabled:)", w->mask);
	} else if (r < 0) {
		/* no line expected: only readability (lam_abi checks absence) */
		wfail(w, "%s: /proc/self/status unreadable: %s", where, strerror(-r));
	}
}

/* the pattern, untagged and tagged; tagged accesses fault without LAM */
static void check_data(struct worker *w, const char *where)
{
	unsigned char want[DATA_LEN];
	char what[96];
	int k;

	for (k = 0; k < DATA_LEN; k++)
		want[k] = pat(w->id, k);
	if (memcmp(w->data, want, DATA_LEN))
		wfail(w, "%s: data changed (untagged view)", where);
	snprintf(what, sizeof(what), "%s: data read through a tagged pointer", where);
	access_want(w, probe_cmp(wtag(w, w->data), want, DATA_LEN), what);
	k = rnd(&w->rng) % DATA_LEN;
	snprintf(what, sizeof(what), "%s: data[%d] stored through a tagged pointer", where, k);
	access_want(w, lam_probe_write(wtag(w, w->data + k), w->data + k, want[k]), what);
}

static void check_all(struct worker *w, const char *where)
{
	check_mask(w, where);
	check_data(w, where);
}

/* ---- enabling, with the prediction kept up to date ---- */

/* a history step: ARCH_ENABLE_TAGGED_ADDR(@n) was tried and gave @rc */
static void note_enable(struct worker *w, unsigned long n, int rc, const char *who)
{
	int want = exp_enable(n, w->st, false);

	w->rep.cnt[C_ENABLE]++;
	w->rep.cnt[n <= 6 ? C_EN_U57 : C_EN_U48]++;
	if (rc == 0)
		w->rep.cnt[C_EN_OK]++;
	if (rc != want)
		wfail(w, "%s: ARCH_ENABLE_TAGGED_ADDR(%lu): %s, want %s", who, n,
		      errstr(rc), errstr(want));
	if (w->st == LAM_ENABLED)
		return;		/* refused: the mode stays */
	w->mask = exp_mask_after(n, w->st, false);
	w->mode = lam_mode_of(n);
	if (want == 0) {
		w->st = LAM_ENABLED;
		w->on = true;
	}
}

static void try_enable(struct worker *w, unsigned long n)
{
	note_enable(w, n, lam_enable(n), "worker");
}

static unsigned long pick_nbits(struct worker *w, bool u48)
{
	uint64_t r = rnd(&w->rng);

	return u48 ? 7 + r % 9 : 1 + r % 6;
}

/* U48 where the table accepts it, or where it accepts nothing at all */
static bool u48_direct(void)
{
	return !exp_enable(15, LAM_FRESH, false) || exp_enable(6, LAM_FRESH, false);
}

/* none (1/4), U57 (3/8) or U48 (3/8); @force: never none */
static void mode_setup(struct worker *w, bool force)
{
	uint64_t r = force ? 2 + rnd(&w->rng) % 6 : rnd(&w->rng) % 8;
	unsigned long n;

	if (r < 2) {
		w->mode = lam_mode_of(r ? 6 : 15);	/* tags that must fault */
		return;
	}
	if (r < 5) {
		try_enable(w, pick_nbits(w, false));
		return;
	}
	n = pick_nbits(w, true);
	if (!u48_direct()) {
		try_enable(w, n);	/* refused (no CONFIG_X86_LAM_U48): checked */
		n = pick_nbits(w, false);
	}
	try_enable(w, n);
}

/* ---- tagged system calls ---- */

/* a syscall given a tagged pointer returned @r (errno @err); @ok if it used it */
static void io_want(struct worker *w, const char *what, long r, int err, long ok)
{
	int want = exp_ptr_errno(LAM_PTR_TAGGED, w->on);

	w->rep.cnt[C_SYSCALL]++;
	if (want ? (r != -1 || err != want) : r != ok)
		wfail(w, "tagged %s: %ld (%s), want %s", what, r,
		      r < 0 ? strerror(err) : "ok", errstr(want));
}

static void tagged_syscalls(struct worker *w)
{
	unsigned char *s = w->scratch, *d = w->data, fill = w->on ? 0 : 0xa5;
	struct utsname plain;
	long r;
	int k;

	/* read(/dev/zero) into a tagged buffer: zeroes, or untouched */
	memset(s, 0xa5, IO_LEN);
	r = read(w->zfd, wtag(w, s), IO_LEN);
	io_want(w, "read(/dev/zero)", r, errno, IO_LEN);
	for (k = 0; k < IO_LEN; k++)
		if (s[k] != fill) {
			wfail(w, "read(/dev/zero) into a tagged buffer: byte %d is %#x", k, s[k]);
			break;
		}

	/* write() from a tagged pointer into a pipe, read back untagged */
	r = write(w->pp[1], wtag(w, d), IO_LEN);
	io_want(w, "write(pipe)", r, errno, IO_LEN);
	if (r > 0 && (read(w->pp[0], s, IO_LEN) != r || memcmp(s, d, r)))
		wfail(w, "write(pipe) from a tagged pointer: other data came out");

	/* uname() into a tagged struct */
	memset(w->uts, 0, sizeof(*w->uts));
	r = uname(wtag(w, w->uts));
	io_want(w, "uname", r, errno, 0);
	if (uname(&plain) || strcmp(r ? "" : plain.release, w->uts->release))
		wfail(w, "uname into a tagged struct: release \"%s\"", w->uts->release);
}

/* ---- map/unmap ---- */

static void mm_want(struct worker *w, const char *what, long r, int err, int want)
{
	w->rep.cnt[C_MAP]++;
	if (want ? (r != -1 || err != want) : r != 0)
		wfail(w, "%s, LAM %s: %s, want %s", what, w->on ? "on" : "off",
		      r ? strerror(err) : "0", errstr(want));
}

/* @call (on the tagged address t) returns 0, or -1 with errno @want */
#define MM_WANT(w, call, want) do {					\
	long __r = (call);						\
									\
	mm_want(w, #call, __r, errno, want);				\
} while (0)

static void step_map(struct worker *w)
{
	int n = 1 + rnd(&w->rng) % 3, r;
	size_t len = n * PAGE_SZ;
	unsigned char v = pat(w->id, 7);
	unsigned char *p;
	char *t;

	/* mmap() does not untag its address (a hint, or MAP_FIXED): untagged */
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	w->rep.cnt[C_MAP]++;
	if (p == MAP_FAILED) {
		wfail(w, "mmap(%zu): %s", len, strerror(errno));
		return;
	}
	memset(p, v, len);
	t = wtag(w, p);
	if (w->on) {
		MM_WANT(w, mprotect(t, len, PROT_READ), 0);
		r = lam_probe_write(p, p, v);
		if (r != SIGSEGV)
			wfail(w, "store after a tagged mprotect(PROT_READ): %s", probe_str(r));
		MM_WANT(w, mprotect(t, len, PROT_READ | PROT_WRITE), 0);
		MM_WANT(w, madvise(t + len - PAGE_SZ, PAGE_SZ, MADV_DONTNEED), 0);
		if (p[len - 1] != 0 || p[0] != (n > 1 ? v : 0))
			wfail(w, "tagged madvise(MADV_DONTNEED) of the last of %d pages: %#x %#x",
			      n, p[0], p[len - 1]);
		MM_WANT(w, munmap(t, len), 0);
		r = lam_probe_write(p, p, v);
		if (r != SIGSEGV)
			wfail(w, "store after a tagged munmap: %s", probe_str(r));
		return;
	}
	/*
	 * Without LAM, Linux 6.1 (untagged_addr() is the identity) sees an
	 * address above TASK_SIZE: munmap() EINVAL (do_mas_munmap(): start >
	 * TASK_SIZE), mprotect() ENOMEM (no VMA at or above start) and
	 * madvise() ENOMEM (madvise_walk_vmas(): range not mapped).
	 */
	MM_WANT(w, munmap(t, len), EINVAL);
	MM_WANT(w, mprotect(t, len, PROT_READ), ENOMEM);
	MM_WANT(w, madvise(t, len, MADV_DONTNEED), ENOMEM);
	r = lam_probe_write(p + len - 1, p + len - 1, v);
	if (r || p[0] != v)
		wfail(w, "mapping after refused tagged mm calls: %s, %#x", probe_str(r), p[0]);
	w->rep.cnt[C_MAP]++;
	if (munmap(p, len))
		wfail(w, "munmap: %s", strerror(errno));
}

/* ---- migration ---- */

static void step_migrate(struct worker *w)
{
	int cpu = rnd(&w->rng) % lam_facts.ncpu, r;
	unsigned char v = (unsigned char)rnd(&w->rng);
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		wfail(w, "sched_setaffinity(CPU %d): %s", cpu, strerror(errno));
		return;
	}
	w->rep.cnt[C_MIGRATE]++;
	if (sched_getcpu() != cpu)
		wfail(w, "on CPU %d after sched_setaffinity(CPU %d)", sched_getcpu(), cpu);
	access_want(w, lam_probe_write(wtag(w, w->scratch), w->scratch, v),
		    "tagged store after migrating");
	r = read(w->zfd, wtag(w, w->scratch), 8);
	io_want(w, "read(/dev/zero) after migrating", r, errno, 8);
	if (!lam_mask_is(w->mask, NULL, NULL))
		wfail(w, "CPU %d: untag mask changed", cpu);
}

/* ---- fork: the child inherits the mode and cannot change it ---- */

static void life_fork(struct worker *w)
{
	unsigned long n = pick_nbits(w, rnd(&w->rng) & 1);
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0) {
		wfail(w, "fork: %s", strerror(errno));
		return;
	}
	if (pid == 0) {
		alarm(WORKER_TIMEOUT);
		memset(&w->rep, 0, sizeof(w->rep));
		w->failed = false;
		check_all(w, "fork child");
		note_enable(w, n, lam_enable(n), "fork child");	/* EBUSY if inherited */
		check_all(w, "fork child after its enable");
		tagged_syscalls(w);
		report_send(w, false);
		_exit(w->failed ? 1 : 0);
	}
	w->rep.cnt[C_FORK]++;
	if (waitpid(pid, &status, 0) != pid)
		wfail(w, "waitpid(fork child): %s", strerror(errno));
	else if (status)
		wfail(w, "fork child: %s %d", WIFSIGNALED(status) ? "signal" : "exit status",
		      WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
}

/* ---- threads: one enables while the others run ---- */

struct tround {
	unsigned long nbits;
	unsigned long mask;	/* predicted after the enable */
	int want, rc, nthreads, enabler, zfd;
	int ready, attempted;	/* atomics */
};

/* a thread: its own struct worker for the tags, the PRNG and the failures */
struct tctx {
	struct tround *r;
	struct worker w;
	int idx;
	long pre;
	unsigned char buf[64] __attribute__((aligned(64)));
	struct utsname uts;
};

/* before the flag: LAM may be on or off yet, but never on if it cannot be */
static void thread_pre(struct tctx *t)
{
	unsigned char v = (unsigned char)t->pre;
	ssize_t n;

	n = read(t->r->zfd, wtag(&t->w, t->buf), 8);
	t->w.rep.cnt[C_SYSCALL]++;
	if (n == 8 ? t->r->want != 0 : (n != -1 || errno != EFAULT))
		wfail(&t->w, "pre %ld: tagged read: %zd (%s)", t->pre, n,
		      n < 0 ? strerror(errno) : "ok");
	t->buf[32 + t->pre % 16] = v;
	if (t->buf[32 + t->pre % 16] != v)
		wfail(&t->w, "pre %ld: untagged store/load", t->pre);
}

/* after the flag: the table decides, at once */
static void thread_post(struct tctx *t, long i)
{
	int rc;
	unsigned char v = (unsigned char)(i * 7 + t->idx);
	unsigned long m;
	long n;

	n = read(t->r->zfd, wtag(&t->w, t->buf), 8);
	io_want(&t->w, "read(/dev/zero) after the enable", n, errno, 8);
	n = uname(wtag(&t->w, &t->uts));
	io_want(&t->w, "uname after the enable", n, errno, 0);
	if (t->w.on) {
		/* a plain tagged store and load: a fault kills the worker */
		volatile unsigned char *p = wtag(&t->w, t->buf + 16);

		p[0] = v;
		t->buf[17] = (unsigned char)~v;
		if (t->buf[16] != v || p[1] != (unsigned char)~v)
			wfail(&t->w, "post %ld: tagged store/load: wrong value", i);
	}
	if (!lam_mask_is(t->r->mask, &rc, &m))
		wfail(&t->w, "post %ld: ARCH_GET_UNTAG_MASK %s, mask %#lx, want %#lx", i,
		      errstr(rc), m, t->r->mask);
}

static void *thread_fn(void *arg)
{
	struct tctx *t = arg;
	struct tround *r = t->r;

	if (t->idx == r->enabler) {
		while (__atomic_load_n(&r->ready, __ATOMIC_ACQUIRE) < r->nthreads - 1)
			sched_yield();
		r->rc = lam_enable(r->nbits);
		__atomic_store_n(&r->attempted, 1, __ATOMIC_RELEASE);
	} else {
		while (!__atomic_load_n(&r->attempted, __ATOMIC_ACQUIRE)) {
			thread_pre(t);
			if (t->pre++ == 0)
				__atomic_add_fetch(&r->ready, 1, __ATOMIC_RELEASE);
		}
	}
	for (long i = 0; i < POST_ITERS; i++)
		thread_post(t, i);
	return NULL;
}

static void life_threads(struct worker *w)
{
	static struct tctx tc[MAX_THREADS];
	int ncpu = lam_facts.ncpu, max = ncpu < MAX_THREADS - 1 ? ncpu + 1 : MAX_THREADS;
	bool pin = ncpu > 1 && (rnd(&w->rng) & 1);
	struct tround r = { .zfd = w->zfd };
	pthread_t th[MAX_THREADS];
	int i, e;

	r.nbits = pick_nbits(w, u48_direct() && (rnd(&w->rng) & 1));
	r.want = exp_enable(r.nbits, w->st, false);
	r.mask = exp_mask_after(r.nbits, w->st, false);
	r.nthreads = 2 + rnd(&w->rng) % (max - 1);
	r.enabler = rnd(&w->rng) % r.nthreads;
	for (i = 0; i < r.nthreads; i++) {
		pthread_attr_t attr;
		cpu_set_t set;

		memset(&tc[i], 0, sizeof(tc[i]));
		tc[i].r = &r;
		tc[i].idx = i;
		tc[i].w.rng = rnd(&w->rng);
		tc[i].w.mode = lam_mode_of(r.nbits);
		tc[i].w.on = r.want == 0;	/* once the enable returned */
		pthread_attr_init(&attr);
		if (pin) {
			CPU_ZERO(&set);
			CPU_SET(i % ncpu, &set);
			pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		}
		e = pthread_create(&th[i], &attr, thread_fn, &tc[i]);
		pthread_attr_destroy(&attr);
		if (e) {
			wfail(w, "pthread_create: %s", strerror(e));
			report_send(w, true);
			_exit(1);	/* the threads started wait forever */
		}
	}
	for (i = 0; i < r.nthreads; i++)
		pthread_join(th[i], NULL);
	note_enable(w, r.nbits, r.rc, "a thread, with others running");
	for (i = 0; i < r.nthreads; i++) {
		w->rep.cnt[C_SYSCALL] += tc[i].w.rep.cnt[C_SYSCALL];
		if (tc[i].w.rep.fails)
			wfail(w, "thread %d of %d (enabler %d, %lu bits, %ld iterations before): %d failures, first: %s",
			      i, r.nthreads, r.enabler, r.nbits, tc[i].pre, tc[i].w.rep.fails,
			      tc[i].w.rep.why);
	}
	/* single-threaded again: a second enable changes nothing */
	try_enable(w, r.nbits);
}

/* ---- exec: LAM off after execve, may be enabled again ---- */

static void worker_setup(struct worker *w)
{
	w->zfd = open("/dev/zero", O_RDONLY);
	w->data = malloc(DATA_LEN);
	w->scratch = malloc(IO_LEN * 2);
	w->uts = malloc(sizeof(*w->uts));
	if (w->zfd < 0 || pipe2(w->pp, O_NONBLOCK) || !w->data || !w->scratch || !w->uts) {
		wfail(w, "setup: %s", strerror(errno));
		report_send(w, true);
		_exit(1);
	}
	for (int k = 0; k < DATA_LEN; k++)
		w->data[k] = pat(w->id, k);
	if (!w->mode)
		w->mode = &lam_u57;
}

/* argv: EXEC_ARG "fd:id:rng:deadline:nbits" and the facts as NAME=V */
static void life_exec(struct worker *w)
{
	char state[128], facts[LAM_NFACTS][48];
	char *argv[4 + LAM_NFACTS] = { "lam_churn", EXEC_ARG, state };
	unsigned long n = pick_nbits(w, u48_direct() && (rnd(&w->rng) & 1));

	snprintf(state, sizeof(state), "%d:%d:%llu:%ld:%lu", w->rfd, w->id,
		 (unsigned long long)rnd(&w->rng), w->deadline, n);
	for (unsigned int i = 0; i < LAM_NFACTS; i++) {
		snprintf(facts[i], sizeof(facts[i]), "%s=%d", lam_fact_names[i].name,
			 *lam_fact_names[i].val);
		argv[3 + i] = facts[i];
	}
	report_send(w, false);	/* what was done before: the image goes */
	execv("/proc/self/exe", argv);
	wfail(w, "execv(/proc/self/exe): %s", strerror(errno));
}

/* main() of the exec'd image */
static int exec_main(int argc, char **argv)
{
	struct worker w = { .life = LIFE_EXEC, .st = LAM_FRESH, .mask = LAM_MASK_NONE };
	unsigned long long rng;
	unsigned long n;

	if (argc < 3 || sscanf(argv[2], "%d:%d:%llu:%ld:%lu", &w.rfd, &w.id, &rng,
				&w.deadline, &n) != 5)
		return 2;	/* no report: the supervisor counts it lost */
	for (int i = 3; i < argc; i++)
		lam_fact_set(argv[i]);
	for (unsigned int i = 0; i < LAM_NFACTS; i++)
		if (*lam_fact_names[i].val < 0)
			return 2;
	w.rng = rng;
	w.mode = lam_mode_of(n);
	w.rep.cnt[C_EXEC] = 1;
	worker_setup(&w);
	/* LAM off: mask ~0, tagged loads fault, tagged syscalls EFAULT */
	check_all(&w, "after execve");
	tagged_syscalls(&w);
	/* and it can be enabled again */
	try_enable(&w, n);
	check_all(&w, "after execve and enable");
	tagged_syscalls(&w);
	report_send(&w, true);
	return w.failed ? 1 : 0;
}

/* ---- a worker ---- */

static void __attribute__((noreturn)) worker_main(struct worker *w)
{
	int iters = 2 + rnd(&w->rng) % 5;

	alarm(WORKER_TIMEOUT);
	w->st = LAM_FRESH;
	w->mask = LAM_MASK_NONE;
	worker_setup(w);
	if (w->life == LIFE_THREADS)
		life_threads(w);
	else if (w->life == LIFE_PLAIN)
		w->mode = lam_mode_of(rnd(&w->rng) & 1 ? 6 : 15);
	else
		mode_setup(w, w->force_on || w->life == LIFE_FORK);
	check_all(w, "start");
	for (int i = 0; i < iters && now_ms() < w->deadline; i++) {
		if (w->life == LIFE_FORK && i < 2)
			life_fork(w);
		else if (w->life == LIFE_MIGRATE)
			step_migrate(w);
		else if (w->life == LIFE_MAP)
			step_map(w);
		else
			tagged_syscalls(w);
		if (i & 1)
			check_all(w, "periodic");
	}
	if (w->life == LIFE_EXEC)
		life_exec(w);	/* returns only if execv failed */
	check_all(w, "end");
	report_send(w, true);
	_exit(w->failed ? 1 : 0);
}

/* ---- the supervisor ---- */

struct churn_cfg {
	const char *name;
	int div;		/* runs LAM_CHURN_SECONDS / div */
	bool force_on;		/* workers first try to enable */
	unsigned int lives;	/* bit mask of enum life */
};

struct slot {
	bool used, final, exited, killed;
	int id, life, status, fails;
	pid_t pid;
	long t0;
	char why[200];
};

struct sup {
	const struct churn_cfg *cfg;
	unsigned long long seed;
	long deadline;
	int rp[2], live, maxlive, printed;
	long started, finals, ok, failed, signaled, hung, lost, stray, forkfail;
	long cnt[NCNT], lives[NLIVES];
	struct slot slot[MAX_LIVE];
	unsigned char buf[8 * sizeof(struct report)];
	size_t blen;
};

static void spawn(struct sup *s, struct slot *sl)
{
	struct worker w = { .id = s->started++, .force_on = s->cfg->force_on,
			    .rfd = s->rp[1], .deadline = s->deadline };
	int lives[NLIVES], n = 0;
	pid_t pid;

	w.rng = s->seed ^ ((uint64_t)(w.id + 1) * 0xd1342543de82ef95ULL);
	for (int l = 0; l < NLIVES; l++)
		if (s->cfg->lives & (1U << l))
			lives[n++] = l;
	w.life = lives[rnd(&w.rng) % n];
	s->lives[w.life]++;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		close(s->rp[0]);
		setpgid(0, 0);	/* its fork children go with it if it is killed */
		worker_main(&w);
	}
	if (pid < 0) {
		s->forkfail++;
		return;
	}
	setpgid(pid, pid);
	*sl = (struct slot){ .used = true, .id = w.id, .life = w.life, .pid = pid,
			     .t0 = now_ms() };
	s->live++;
}

static void take(struct sup *s, const struct report *r)
{
	struct slot *sl = NULL;

	for (int i = 0; i < MAX_LIVE; i++)
		if (s->slot[i].used && s->slot[i].id == r->id)
			sl = &s->slot[i];
	for (int k = 0; k < NCNT; k++)
		s->cnt[k] += r->cnt[k];
	if (!sl || (r->final && sl->final)) {
		s->stray++;	/* of no live worker, or a second final one */
		return;
	}
	if (r->fails && !sl->fails)
		memcpy(sl->why, r->why, sizeof(sl->why));
	sl->fails += r->fails;
	sl->final |= r->final;
}

static void drain(struct sup *s)
{
	struct report r;
	ssize_t n;

	while ((n = read(s->rp[0], s->buf + s->blen, sizeof(s->buf) - s->blen)) > 0) {
		s->blen += n;
		while (s->blen >= sizeof(r)) {
			memcpy(&r, s->buf, sizeof(r));
			s->blen -= sizeof(r);
			memmove(s->buf, s->buf + sizeof(r), s->blen);
			take(s, &r);
		}
	}
}

/* an ended worker: its records are all in the pipe (drained before this) */
static void judge(struct sup *s, struct slot *sl)
{
	char what[300] = "";
	int st = sl->status;

	if (sl->killed) {
		s->hung++;
		snprintf(what, sizeof(what), "hung: killed after %d s", WORKER_TIMEOUT + KILL_GRACE);
	} else if (WIFSIGNALED(st)) {
		s->signaled++;
		snprintf(what, sizeof(what), "killed by signal %d (%s)%s%s%s", WTERMSIG(st),
			 strsignal(WTERMSIG(st)), WTERMSIG(st) == SIGALRM ? ": worker timeout" : "",
			 sl->fails ? "; first failure: " : "", sl->fails ? sl->why : "");
	} else if (!sl->final) {
		s->lost++;
		snprintf(what, sizeof(what), "exit status %d without a final report",
			 WEXITSTATUS(st));
	} else if (sl->fails || WEXITSTATUS(st)) {
		s->failed++;
		snprintf(what, sizeof(what), "exit status %d, %d failures, first: %s",
			 WEXITSTATUS(st), sl->fails, sl->why);
	} else {
		s->ok++;
	}
	s->finals += sl->final;
	if (what[0] && s->printed++ < MAX_PRINT)
		printf("# %s: worker %d (pid %d, %s life) failed: %s (seed %#llx)\n", s->cfg->name,
		       sl->id, (int)sl->pid, life_names[sl->life], what, s->seed);
	sl->used = false;
	s->live--;
}

static void churn_run(struct __test_metadata *_metadata, const struct churn_cfg *cfg)
{
	static struct sup s;
	const char *e_secs = getenv("LAM_CHURN_SECONDS"), *e_seed = getenv("LAM_CHURN_SEED");
	long secs = e_secs && *e_secs ? strtol(e_secs, NULL, 0) : DEFAULT_SECONDS;
	struct pollfd pfd;
	struct timespec ts;
	char lives[256];
	size_t len = 0;
	long t0;
	int st;
	pid_t pid;

	memset(&s, 0, sizeof(s));
	s.cfg = cfg;
	clock_gettime(CLOCK_REALTIME, &ts);
	s.seed = e_seed && *e_seed ? strtoull(e_seed, NULL, 0) :
		 (ts.tv_sec * 1000000007ULL) ^ ts.tv_nsec ^ ((unsigned long long)getpid() << 32);
	secs = (secs > MAX_SECONDS ? MAX_SECONDS : secs) / cfg->div;
	secs = secs < 1 ? 1 : secs;
	s.maxlive = 2 * lam_facts.ncpu;
	s.maxlive = s.maxlive < 2 ? 2 : s.maxlive > MAX_LIVE ? MAX_LIVE : s.maxlive;
	ASSERT_LE(1, lam_facts.ncpu);
	ASSERT_EQ(0, pipe(s.rp));
	ASSERT_EQ(0, fcntl(s.rp[0], F_SETFL, O_NONBLOCK));
	printf("# %s: seed %#llx (LAM_CHURN_SEED), %ld s, %d workers alive, enable(6) %s, enable(15) %s\n",
	       cfg->name, s.seed, secs, s.maxlive, errstr(exp_enable(6, LAM_FRESH, false)),
	       errstr(exp_enable(15, LAM_FRESH, false)));
	t0 = now_ms();
	s.deadline = t0 + secs * 1000;
	pfd = (struct pollfd){ .fd = s.rp[0], .events = POLLIN };
	for (;;) {
		long now = now_ms();

		if (now < s.deadline) {
			for (int i = 0; i < s.maxlive; i++)
				if (!s.slot[i].used)
					spawn(&s, &s.slot[i]);
		} else if (!s.live) {
			break;
		}
		poll(&pfd, 1, 10);
		while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
			for (int i = 0; i < MAX_LIVE; i++)
				if (s.slot[i].used && s.slot[i].pid == pid) {
					s.slot[i].exited = true;
					s.slot[i].status = st;
				}
		drain(&s);	/* after waitpid(): all records of the ended are in */
		for (int i = 0; i < MAX_LIVE; i++) {
			struct slot *sl = &s.slot[i];

			if (sl->used && sl->exited) {
				judge(&s, sl);
			} else if (sl->used && !sl->killed &&
				   now - sl->t0 > (WORKER_TIMEOUT + KILL_GRACE) * 1000L) {
				kill(-sl->pid, SIGKILL);
				kill(sl->pid, SIGKILL);
				sl->killed = true;
			}
		}
	}
	drain(&s);
	close(s.rp[0]);
	close(s.rp[1]);

	printf("# churn: %ld processes, %ld enables (U57 %ld, U48 %ld), %ld forks, %ld execs, %ld migrations, %ld map/unmap, %ld tagged syscalls in %.1f s\n",
	       s.started + s.cnt[C_FORK], s.cnt[C_ENABLE], s.cnt[C_EN_U57], s.cnt[C_EN_U48],
	       s.cnt[C_FORK], s.cnt[C_EXEC], s.cnt[C_MIGRATE], s.cnt[C_MAP], s.cnt[C_SYSCALL],
	       (now_ms() - t0) / 1000.0);
	for (int l = 0; l < NLIVES; l++)
		if (s.lives[l] && len < sizeof(lives))
			len += snprintf(lives + len, sizeof(lives) - len, " %s %ld",
					life_names[l], s.lives[l]);
	printf("# %s: %ld workers (lives:%s), %ld final reports, %ld passed; %ld enables succeeded; failed: %ld checks, %ld signals, %ld hung, %ld lost, %ld stray records, %ld forks refused\n",
	       cfg->name, s.started, lives, s.finals, s.ok, s.cnt[C_EN_OK], s.failed,
	       s.signaled, s.hung, s.lost, s.stray, s.forkfail);

	EXPECT_LT(0L, s.started);
	EXPECT_EQ(s.started, s.finals) TH_LOG("workers started vs. final reports (seed %#llx)", s.seed);
	EXPECT_EQ(s.started, s.ok) TH_LOG("workers started vs. passed (seed %#llx)", s.seed);
	EXPECT_EQ(0L, s.failed + s.signaled + s.hung + s.lost)
		TH_LOG("failing workers (seed %#llx): see above", s.seed);
	EXPECT_EQ(0L, s.stray + s.forkfail)
		TH_LOG("stray records / fork failures (seed %#llx)", s.seed);
	/* the supervisor never enabled: nothing of its workers' modes leaked to it */
	EXPECT_UNTAG_MASK(LAM_MASK_NONE, "the supervisor");
}

FIXTURE(churn) {};
FIXTURE_SETUP(churn) {}
FIXTURE_TEARDOWN(churn) {}

/* every life, LAM_CHURN_SECONDS */
TEST_F_TIMEOUT(churn, mixed, CHURN_TIMEOUT)
{
	churn_run(_metadata, &(struct churn_cfg){ "churn.mixed", 1, false, ~0U });
}

/* the multi-threaded enable, one round per process, a quarter of the time */
TEST_F_TIMEOUT(churn, enable_while_threads_run, CHURN_TIMEOUT)
{
	churn_run(_metadata, &(struct churn_cfg){ "churn.enable_while_threads_run", 4, false,
						   1U << LIFE_THREADS });
}

/* enable (U57 or U48), execve, LAM off, enable again: a quarter of the time */
TEST_F_TIMEOUT(churn, exec_resets, CHURN_TIMEOUT)
{
	churn_run(_metadata, &(struct churn_cfg){ "churn.exec_resets", 4, true,
						   1U << LIFE_EXEC });
}

LAM_HARNESS_MAIN(exec_main)
