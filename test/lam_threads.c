// SPDX-License-Identifier: GPL-2.0
/*
 * lam_threads: ARCH_ENABLE_TAGGED_ADDR in a process that already has
 * threads running.
 *
 * Enforces the seed's "Remove no-threads restriction on LAM enabling":
 * the mode belongs to the whole process (the mm), and the kernel makes
 * every CPU that runs a thread of the process switch to it (IPI) before the
 * call returns.  So, with other threads alive and running:
 *  - the enable succeeds exactly when it would in a single-threaded process
 *    (exp_enable(n, LAM_FRESH, false));
 *  - a thread that sees the "enabled" flag (set by the enabling thread once
 *    the call returned 0) can at once load and store through tagged
 *    pointers and pass them to read()/write();
 *  - a thread created afterwards runs in the mode;
 *  - a second enable, from any thread, is EBUSY and changes nothing;
 *  - /proc/PID/task/TID/status shows the mask the thread itself reports.
 * Where the facts say LAM cannot be enabled, every tagged syscall is EFAULT
 * throughout.  Expected results come from lam_expect.h (the facts given by
 * the runner), never from the machine.  Iterations are bounded (not time)
 * and printed.
 */
#include "lam_common.h"
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <time.h>
#include <sys/wait.h>
#include "lam_harness.h"

#define MAX_WORKERS	64
#define PRE_ITERS	50	/* per worker, before the enable is tried */
#define POST_ITERS	200	/* per worker, after it saw the enable return */
#define NEW_ITERS	20	/* the thread created after enabling */
#define ROUNDS		16
#define ROUNDS_U48	2
#define POST_ITERS_U48	100
#define ROUND_TIMEOUT	15	/* seconds: alarm() of one round's child */

/* bits of a round child's exit status */
#define RF_ENABLE	1	/* the enable's errno is not the expected one */
#define RF_WORKER	2	/* a worker saw a wrong result */
#define RF_NEWTHR	4	/* the thread created after enabling did */
#define RF_SETUP	8	/* open / pthread_create / affinity failed */
#define RF_MAIN		16	/* mask or second enable in the enabling thread */

/*
 * A tag with the field's top bit (62) set: without LAM such a pointer is
 * never a user address, also under 5-level paging, where a U48 tag in bits
 * 56:48 alone would name plain (unmapped) user memory that write() to
 * /dev/null accepts without touching.
 */
static inline void *thr_tag(const void *p, const struct lam_mode *m, unsigned long tag)
{
	return lam_tag(p, m, tag | (1UL << (m->tag_width - 1)));
}

/* ---- per-thread fault probe (lam_common.h's probe is not per thread) ---- */
static __thread sigjmp_buf thr_env;
static __thread volatile sig_atomic_t thr_armed;

static void thr_fault(int sig)
{
	if (thr_armed) {
		thr_armed = 0;
		siglongjmp(thr_env, sig);
	}
	/* a fault outside a probe: die of it, the parent reports the signal */
	signal(sig, SIG_DFL);
}

static void thr_fault_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = thr_fault;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
}

/*
 * Store through the tagged @t and load back through the untagged @p, then
 * store through @p and load through @t.  0 if all worked, -1 if a value was
 * wrong, else the signal.
 */
static int __attribute__((noinline)) tagged_rw(volatile unsigned char *t,
					       volatile unsigned char *p,
					       unsigned char v)
{
	int sig;

	thr_armed = 1;
	sig = sigsetjmp(thr_env, 1);
	if (sig == 0) {
		t[2] = v;
		if (p[2] != v)
			sig = -1;
		p[3] = (unsigned char)~v;
		if (t[3] != (unsigned char)~v)
			sig = -1;
	}
	thr_armed = 0;
	return sig;
}

/* ---- one round: a fresh child process with workers ---- */

enum io_want { IO_EITHER, IO_OK, IO_EFAULT };

struct round {
	const struct lam_mode *mode;
	unsigned long nbits;
	int post_iters;
	bool strict;		/* the facts say no LAM: tagged syscalls EFAULT */
	int zfd, nfd;		/* /dev/zero, /dev/null */
	int enabled;		/* set (release) once the enable returned 0 */
	int attempted;		/* set (release) once the enable returned */
	unsigned char shared[MAX_WORKERS * 64] __attribute__((aligned(64)));
};

struct worker {
	struct round *r;
	int idx;
	long pre;		/* iterations before seeing "attempted" */
	long post;		/* iterations after */
	long early_ok;		/* tagged syscalls that worked before the flag */
	int fails;
	char why[128];		/* the first failure */
	unsigned char buf[64] __attribute__((aligned(64)));
};

static struct round rnd;
static struct worker workers[MAX_WORKERS + 1];	/* the last: the new thread */

static void __attribute__((format(printf, 2, 3))) fail(struct worker *w, const char *fmt, ...)
{
	va_list ap;

	if (!w->fails++) {
		va_start(ap, fmt);
		vsnprintf(w->why, sizeof(w->why), fmt, ap);
		va_end(ap);
	}
}

static void untagged_step(struct worker *w, long i)
{
	volatile unsigned char *mine = &w->r->shared[w->idx * 64];
	volatile unsigned char *next = &w->r->shared[((w->idx + 1) % MAX_WORKERS) * 64];
	unsigned char v = (unsigned char)(i + w->idx);

	mine[i % 64] = v;
	(void)next[i % 64];	/* another worker's line: a shared load */
	if (mine[i % 64] != v)
		fail(w, "iteration %ld: untagged store/load mismatch", i);
}

/* 1 worked, 0 EFAULT (buffer untouched), -1 anything else */
static int io_result(ssize_t n, int err, bool touched_ok)
{
	if (n == 1 && touched_ok)
		return 1;
	if (n == -1 && err == EFAULT)
		return 0;
	return -1;
}

/* read(/dev/zero) into and write(/dev/null) from tagged pointers to w->buf */
static void tagged_io(struct worker *w, long i, enum io_want want)
{
	static const char *const names[] = { "read(/dev/zero)", "write(/dev/null)" };
	const struct lam_mode *m = w->r->mode;
	volatile unsigned char *own = w->buf;
	int res[2];
	ssize_t n;

	own[0] = 0xa5;
	n = read(w->r->zfd, thr_tag(w->buf, m, i + w->idx + 1), 1);
	res[0] = io_result(n, errno, own[0] == 0);
	if (res[0] == 0 && own[0] != 0xa5)
		res[0] = -1;	/* EFAULT, yet the buffer was written */
	n = write(w->r->nfd, thr_tag(w->buf + 1, m, i + w->idx + 2), 1);
	res[1] = io_result(n, errno, true);

	for (int k = 0; k < 2; k++) {
		if (res[k] < 0)
			fail(w, "iteration %ld: tagged %s: neither 1 nor EFAULT", i, names[k]);
		else if (want == IO_OK && res[k] != 1)
			fail(w, "iteration %ld: tagged %s: EFAULT after the enable", i, names[k]);
		else if (want == IO_EFAULT && res[k] != 0)
			fail(w, "iteration %ld: tagged %s worked without LAM", i, names[k]);
		else if (want == IO_EITHER && res[k] == 1)
			w->early_ok++;
	}
}

/* the iterations once the mode is known; @on: LAM is on */
static void post_steps(struct worker *w, long iters, bool on)
{
	unsigned long want_mask = on ? exp_mask_for(w->r->nbits) : LAM_MASK_NONE;
	const struct lam_mode *m = w->r->mode;
	unsigned long mask;
	int rc, sig;

	for (long i = 0; i < iters; i++) {
		untagged_step(w, i);
		tagged_io(w, i, on ? IO_OK : IO_EFAULT);
		if (on) {
			sig = tagged_rw(thr_tag(w->buf, m, i + 3), w->buf, (unsigned char)i);
			if (sig)
				fail(w, "iteration %ld: tagged load/store: %s", i,
				     sig < 0 ? "wrong value" : strsignal(sig));
		}
		if ((i == 0 || i == iters - 1) && !lam_mask_is(want_mask, &rc, &mask))
			fail(w, "iteration %ld: ARCH_GET_UNTAG_MASK %s, mask %#lx, want %#lx",
			     i, rc ? strerror(rc) : "ok", mask, want_mask);
		__atomic_store_n(&w->post, w->post + 1, __ATOMIC_RELAXED);
	}
}

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	struct round *r = w->r;
	bool on;

	/* no tagged load or store before the flag: only syscalls */
	while (!__atomic_load_n(&r->attempted, __ATOMIC_ACQUIRE)) {
		untagged_step(w, w->pre);
		tagged_io(w, w->pre, r->strict ? IO_EFAULT : IO_EITHER);
		__atomic_store_n(&w->pre, w->pre + 1, __ATOMIC_RELAXED);
	}
	on = __atomic_load_n(&r->enabled, __ATOMIC_ACQUIRE);
	post_steps(w, r->post_iters, on);
	return NULL;
}

/* created after the enable: the facts say what it must see at once */
static void *new_thread_fn(void *arg)
{
	struct worker *w = arg;
	bool on = !w->r->strict;
	int sig;

	post_steps(w, NEW_ITERS, on);
	if (!on) {
		sig = tagged_rw(thr_tag(w->buf, w->r->mode, 1), w->buf, 1);
		if (sig != SIGSEGV)
			fail(w, "tagged load/store without LAM: %s",
			     sig > 0 ? strsignal(sig) : sig ? "wrong value" : "worked");
	}
	return NULL;
}

static int nworkers(void)
{
	int n = lam_facts.ncpu > 2 ? lam_facts.ncpu : 2;

	return n > MAX_WORKERS ? MAX_WORKERS : n;
}

static bool all_started(int nw)
{
	for (int i = 0; i < nw; i++)
		if (__atomic_load_n(&workers[i].pre, __ATOMIC_RELAXED) < PRE_ITERS)
			return false;
	return true;
}

/* the round child; returns its exit status (RF_* bits) */
static int run_round(unsigned long nbits, int post_iters, int round, int rounds)
{
	struct timespec nap = { 0, 100 * 1000 };
	int want = exp_enable(nbits, LAM_FRESH, false);
	int nw = nworkers(), ret = 0, rc, rc2, mrc;
	long early = 0;
	enum lam_state st;
	pthread_t th[MAX_WORKERS + 1];
	char line[512];
	unsigned long mask;
	size_t len;

	alarm(ROUND_TIMEOUT);
	thr_fault_install();
	memset(&rnd, 0, sizeof(rnd));
	memset(workers, 0, sizeof(workers));
	rnd.mode = lam_mode_of(nbits);
	rnd.nbits = nbits;
	rnd.post_iters = post_iters;
	rnd.strict = want != 0;
	rnd.zfd = open("/dev/zero", O_RDONLY);
	rnd.nfd = open("/dev/null", O_WRONLY);
	if (rnd.zfd < 0 || rnd.nfd < 0) {
		printf("# round %d: cannot open /dev/zero or /dev/null: %s\n",
		       round, strerror(errno));
		return RF_SETUP;
	}

	for (int i = 0; i < nw; i++) {
		pthread_attr_t attr;
		cpu_set_t set;
		int e;

		int cpu = lam_facts.ncpu > 1 ? i % lam_facts.ncpu : -1;

		workers[i].r = &rnd;
		workers[i].idx = i;
		pthread_attr_init(&attr);
		if (cpu >= 0) {
			CPU_ZERO(&set);
			CPU_SET(cpu, &set);
			pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		}
		e = pthread_create(&th[i], &attr, worker_fn, &workers[i]);
		pthread_attr_destroy(&attr);
		if (e) {
			printf("# round %d: worker %d (CPU %d): pthread_create: %s\n",
			       round, i, cpu, strerror(e));
			return RF_SETUP;	/* _exit() ends the other threads */
		}
	}
	while (!all_started(nw))
		nanosleep(&nap, NULL);

	/* the workers are running, on every CPU when pinned */
	rc = lam_enable(nbits);
	if (rc == 0)
		__atomic_store_n(&rnd.enabled, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&rnd.attempted, 1, __ATOMIC_RELEASE);
	if (rc != want) {
		printf("# round %d: ARCH_ENABLE_TAGGED_ADDR(%lu) with %d threads running: %s, want %s\n",
		       round, nbits, nw, rc ? strerror(rc) : "0", want ? strerror(want) : "0");
		ret |= RF_ENABLE;
	}

	/* a thread created now runs in the mode from its first instruction */
	workers[nw].r = &rnd;
	workers[nw].idx = nw;
	if (pthread_create(&th[nw], NULL, new_thread_fn, &workers[nw])) {
		printf("# round %d: new thread: pthread_create failed\n", round);
		ret |= RF_SETUP;
	} else {
		pthread_join(th[nw], NULL);
		if (workers[nw].fails) {
			printf("# round %d: thread created after the enable: %d failures, first: %s\n",
			       round, workers[nw].fails, workers[nw].why);
			ret |= RF_NEWTHR;
		}
	}
	for (int i = 0; i < nw; i++)
		pthread_join(th[i], NULL);

	/* the enabling thread: mask, and a second enable changes nothing */
	if (!lam_mask_is(exp_mask_after(nbits, LAM_FRESH, false), &mrc, &mask)) {
		printf("# round %d: enabling thread: ARCH_GET_UNTAG_MASK %s, mask %#lx\n",
		       round, mrc ? strerror(mrc) : "ok", mask);
		ret |= RF_MAIN;
	}
	st = want == 0 ? LAM_ENABLED : LAM_FRESH;
	rc2 = lam_enable(nbits);
	if (rc2 != exp_enable(nbits, st, false)) {
		printf("# round %d: second enable: %s, want %s\n", round,
		       rc2 ? strerror(rc2) : "0", strerror(exp_enable(nbits, st, false)));
		ret |= RF_MAIN;
	}

	len = snprintf(line, sizeof(line), "# round %d/%d %s: enable %s; iterations pre+post:",
		       round, rounds, rnd.mode->name, rc ? strerror(rc) : "ok");
	for (int i = 0; i < nw; i++) {
		struct worker *w = &workers[i];

		early += w->early_ok;
		if (len < sizeof(line))
			len += snprintf(line + len, sizeof(line) - len, " %ld+%ld",
					w->pre, w->post);
		if (w->fails) {
			printf("# round %d: worker %d: %d failures, first: %s\n",
			       round, i, w->fails, w->why);
			ret |= RF_WORKER;
		}
	}
	printf("%s; tagged syscalls that worked before the flag: %ld; new thread: %ld\n",
	       line, early, workers[nw].post);
	return ret;
}

static void run_rounds(struct __test_metadata *_metadata, unsigned long nbits,
		       int rounds, int post_iters)
{
	printf("# %d rounds, %d workers (%s), enable(%lu) expected: %s\n", rounds,
	       nworkers(), lam_facts.ncpu > 1 ? "pinned round-robin" : "unpinned",
	       nbits, exp_enable(nbits, LAM_FRESH, false) ?
	       strerror(exp_enable(nbits, LAM_FRESH, false)) : "0");
	for (int r = 1; r <= rounds && _metadata->passed; r++) {
		int status;
		pid_t pid;

		fflush(stdout);
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0)
			_exit(run_round(nbits, post_iters, r, rounds));
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_FALSE(WIFSIGNALED(status))
			TH_LOG("round %d: the child was killed by signal %d (%s)%s", r,
			       WTERMSIG(status), strsignal(WTERMSIG(status)),
			       WTERMSIG(status) == SIGALRM ? ": round timeout" : "");
		EXPECT_EQ(0, status)
			TH_LOG("round %d: exit status %d (bits: 1 enable rc, 2 worker, 4 new thread, 8 setup, 16 enabling thread)",
			       r, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	}
}

FIXTURE(threads) {};
FIXTURE_SETUP(threads) {}
FIXTURE_TEARDOWN(threads) {}

/* the stress test: U57 enabled while workers run on every CPU */
TEST_F_TIMEOUT(threads, enable_with_threads_running, 120)
{
	run_rounds(_metadata, 6, ROUNDS, POST_ITERS);
}

/* the same for U48 (EINVAL unless CONFIG_X86_LAM_U48) */
TEST_F_TIMEOUT(threads, enable_u48_with_threads, 60)
{
	run_rounds(_metadata, 15, ROUNDS_U48, POST_ITERS_U48);
}

/* ---- a second enable from another thread ---- */

struct busy {
	int go[2];		/* A -> B: A has tried */
	int rc_a;
	int rc_b6, rc_b15;
	bool mask_ok;
	int mask_rc;
	unsigned long mask, want_mask;
	int access;
	unsigned char buf[16];
};

static void *busy_a(void *arg)
{
	struct busy *b = arg;

	b->rc_a = lam_enable(6);
	pipe_put(b->go[1], 'a');
	return NULL;
}

static void *busy_b(void *arg)
{
	struct busy *b = arg;

	pipe_get(b->go[0]);
	b->rc_b6 = lam_enable(6);
	b->rc_b15 = lam_enable(15);
	b->mask_ok = lam_mask_is(b->want_mask, &b->mask_rc, &b->mask);
	b->access = tagged_rw(thr_tag(b->buf, &lam_u57, 5), b->buf, 0x5a);
	return NULL;
}

TEST_F(threads, second_enable_from_other_thread_busy)
{
	int want = exp_enable(6, LAM_FRESH, false);
	enum lam_state st = want == 0 ? LAM_ENABLED : LAM_FRESH;
	struct busy b = { .rc_a = -1, .rc_b6 = -1, .rc_b15 = -1, .access = -2 };
	pthread_t ta, tb;

	b.want_mask = exp_mask_after(6, LAM_FRESH, false);
	thr_fault_install();
	ASSERT_EQ(0, pipe(b.go));
	/* B exists (and waits) while A enables: three threads share the mm */
	ASSERT_EQ(0, pthread_create(&tb, NULL, busy_b, &b));
	ASSERT_EQ(0, pthread_create(&ta, NULL, busy_a, &b));
	ASSERT_EQ(0, pthread_join(ta, NULL));
	ASSERT_EQ(0, pthread_join(tb, NULL));

	EXPECT_EQ(want, b.rc_a) TH_LOG("thread A's enable(6), with two other threads");
	EXPECT_EQ(exp_enable(6, st, false), b.rc_b6) TH_LOG("thread B's enable(6) after A's");
	EXPECT_EQ(exp_enable(15, st, false), b.rc_b15) TH_LOG("thread B's enable(15) after A's");
	EXPECT_TRUE(b.mask_ok)
		TH_LOG("thread B: ARCH_GET_UNTAG_MASK %s, mask %#lx, want %#lx",
		       b.mask_rc ? strerror(b.mask_rc) : "ok", b.mask, b.want_mask);
	EXPECT_EQ(want == 0 ? 0 : SIGSEGV, b.access) TH_LOG("thread B: tagged load/store");
	EXPECT_UNTAG_MASK(b.want_mask, "main thread, after A's and B's enables");
	EXPECT_EQ(exp_enable(6, st, false), lam_enable(6)) TH_LOG("main thread's enable(6)");
	EXPECT_UNTAG_MASK(b.want_mask, "main thread, after its own enable");
}

/* ---- /proc/PID/task/TID/status of another thread ---- */

struct procthr {
	int go[2], done[2];
	pid_t tid;
	int mask_rc;
	unsigned long mask;
	int main_r;		/* what the thread read of the main thread's status */
	unsigned long main_mask;
};

static void *proc_thread(void *arg)
{
	struct procthr *p = arg;
	char file[40];

	p->tid = syscall(SYS_gettid);
	pipe_get(p->go[0]);		/* the main thread has tried to enable */
	p->mask = 0x5a5a5a5aUL;
	p->mask_rc = lam_get_mask(&p->mask);
	snprintf(file, sizeof(file), "task/%d/status", (int)getpid());
	p->main_mask = 0x5a5a;
	p->main_r = proc_untag_mask(getpid(), file, &p->main_mask, NULL, NULL);
	pipe_put(p->done[1], 'r');
	pipe_get(p->go[0]);		/* stay alive while the main thread reads */
	return NULL;
}

TEST_F(threads, thread_sees_mask_via_proc)
{
	unsigned long want = exp_mask_after(6, LAM_FRESH, false);
	struct procthr p = { .tid = -1 };
	unsigned long mask = 0x5a5a;
	char status[40], arch_status[40];
	bool after_thp = false;
	pthread_t th;
	int r;

	ASSERT_EQ(0, pipe(p.go));
	ASSERT_EQ(0, pipe(p.done));
	ASSERT_EQ(0, pthread_create(&th, NULL, proc_thread, &p));
	LAM_SETUP_ENABLE(exp_enable(6, LAM_FRESH, false), 6);
	pipe_put(p.go[1], 'g');
	ASSERT_EQ('r', pipe_get(p.done[0]));

	/* the thread's own view */
	EXPECT_EQ(exp_get_mask_rc(), p.mask_rc) TH_LOG("the thread's ARCH_GET_UNTAG_MASK");
	if (p.mask_rc == 0 && exp_get_mask_rc() == 0)
		EXPECT_EQ(want, p.mask) TH_LOG("the thread's untag mask");

	/* its status file, read by the main thread */
	snprintf(status, sizeof(status), "task/%d/status", (int)p.tid);
	snprintf(arch_status, sizeof(arch_status), "task/%d/arch_status", (int)p.tid);
	r = proc_untag_mask(getpid(), status, &mask, "THP_enabled:", &after_thp);
	if (exp_status_line()) {
		EXPECT_EQ(1, r) TH_LOG("no untag_mask line in /proc/%d/%s (%d)",
				       getpid(), status, r);
		EXPECT_EQ(want, mask) TH_LOG("/proc/%d/%s", getpid(), status);
		if (p.mask_rc == 0)
			EXPECT_EQ(p.mask, mask)
				TH_LOG("status vs the thread's own ARCH_GET_UNTAG_MASK");
		EXPECT_TRUE(after_thp) TH_LOG("untag_mask: is not right after THP_enabled:");
		EXPECT_TRUE(proc_untag_line_is(getpid(), status, want));
		/* and the thread's view of the enabling (main) thread */
		EXPECT_EQ(1, p.main_r)
			TH_LOG("the thread read the main thread's status: %d", p.main_r);
		EXPECT_EQ(want, p.main_mask) TH_LOG("the main thread's status, read by the thread");
	} else {
		/*
		 * No line expected (an X86_LAM=n overlay kernel).  Only
		 * readability is asserted: a mainline kernel prints the line
		 * always (fs/proc/array.c), and its absence is lam_abi's to
		 * check (proc_self_initial).
		 */
		EXPECT_LE(0, r) TH_LOG("/proc/%d/%s unreadable (%d)", getpid(), status, r);
		EXPECT_LE(0, p.main_r)
			TH_LOG("the thread read the main thread's status: %d", p.main_r);
		if (r > 0)
			printf("# %s has \"untag_mask:\t%#lx\" although no line is expected (not asserted here)\n",
			       status, mask);
	}
	mask = 0x5a5a;
	r = proc_untag_mask(getpid(), arch_status, &mask, NULL, NULL);
	if (exp_arch_status_line()) {
		EXPECT_EQ(1, r) TH_LOG("no untag_mask line in /proc/%d/%s (%d)",
				       getpid(), arch_status, r);
		EXPECT_EQ(want, mask) TH_LOG("/proc/%d/%s", getpid(), arch_status);
	} else {
		EXPECT_EQ(0, r) TH_LOG("/proc/%d/%s has an untag_mask line (or is unreadable)",
				       getpid(), arch_status);
	}
	pipe_put(p.go[1], 'q');
	ASSERT_EQ(0, pthread_join(th, NULL));
}

LAM_HARNESS_MAIN(NULL)
