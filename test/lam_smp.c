// SPDX-License-Identifier: GPL-2.0
/*
 * lam_smp: context switches between a process with LAM and one without,
 * on one CPU and across CPUs (pinned, unpinned, migrating).  The LAM
 * process must keep its tagged access (CR3 LAM bits restored on every
 * switch), the other must keep faulting on tagged pointers.
 * Uses the LAM_NCPU fact for the CPU numbers; expected results come from
 * lam_expect.h.
 */
#include "lam_common.h"
#include <pthread.h>
#include <sched.h>
#include <sys/wait.h>
#include "lam_harness.h"

#define ROUNDS 3000

enum pin { PIN_SAME, PIN_SPLIT, PIN_NONE, PIN_MIGRATE };

FIXTURE(pingpong) {};
FIXTURE_SETUP(pingpong) {}
FIXTURE_TEARDOWN(pingpong) {}

FIXTURE_VARIANT(pingpong) {
	enum pin pin;
	unsigned long nbits;
};

FIXTURE_VARIANT_ADD(pingpong, same_cpu_u57) { .pin = PIN_SAME, .nbits = 6 };
FIXTURE_VARIANT_ADD(pingpong, split_cpus_u57) { .pin = PIN_SPLIT, .nbits = 6 };
FIXTURE_VARIANT_ADD(pingpong, unpinned_u57) { .pin = PIN_NONE, .nbits = 6 };
FIXTURE_VARIANT_ADD(pingpong, migrating_u57) { .pin = PIN_MIGRATE, .nbits = 6 };
FIXTURE_VARIANT_ADD(pingpong, same_cpu_u48) { .pin = PIN_SAME, .nbits = 15 };
FIXTURE_VARIANT_ADD(pingpong, migrating_u48) { .pin = PIN_MIGRATE, .nbits = 15 };

static int pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		printf("# pid %d: cannot pin to CPU %d: %s\n", getpid(), cpu, strerror(errno));
		return errno;
	}
	return 0;
}

/* the guest really has the CPUs the cell asks for (else the rest is moot) */
TEST(cpus_online)
{
	EXPECT_EQ(lam_facts.ncpu, sysconf(_SC_NPROCESSORS_ONLN))
		TH_LOG("the guest was started with %d CPUs", lam_facts.ncpu);
}

static int last_cpu(void)
{
	return lam_facts.ncpu > 1 ? lam_facts.ncpu - 1 : 0;
}

/* the process with LAM: tagged accesses and a tagged write() each round */
static int lam_side(const FIXTURE_VARIANT(pingpong) *variant, int in, int out)
{
	const struct lam_mode *m = lam_mode_of(variant->nbits);
	int want = exp_enable(variant->nbits, LAM_FRESH, false);
	unsigned long mask = exp_mask_after(variant->nbits, LAM_FRESH, false);
	volatile unsigned char *buf = calloc(1, 64);
	int bad = 0;

	if (variant->pin == PIN_SAME || variant->pin == PIN_SPLIT)
		if (pin_to(0))
			return 10;
	if (lam_enable(variant->nbits) != want && !lam_facts_wrong)
		bad++;	/* a set-up step: not checked under wrong facts */
	for (int i = 0; i < ROUNDS; i++) {
		char tok;

		if (variant->pin == PIN_MIGRATE && lam_facts.ncpu > 1)
			if (pin_to(i % lam_facts.ncpu))
				return 11;
		if (read(in, &tok, 1) != 1)
			return 12;
		if (lam_probe_write(lam_tag((void *)buf, m, i + 1), buf, (unsigned char)i) !=
		    (want == 0 ? 0 : SIGSEGV))
			bad++;
		if (!lam_mask_is(mask, NULL, NULL))
			bad++;
		buf[1] = tok;
		/* a syscall with a tagged pointer */
		if (want == 0) {
			if (write(out, lam_tag((void *)(buf + 1), m, 0), 1) != 1)
				return 13;
		} else if (write(out, (void *)(buf + 1), 1) != 1) {
			return 13;
		}
		if (bad) {
			printf("# LAM side: %d bad checks by round %d\n", bad, i);
			return 1;
		}
	}
	return 0;
}

/* the process without LAM: tagged pointers keep faulting */
static int plain_side(const FIXTURE_VARIANT(pingpong) *variant, int in, int out)
{
	const struct lam_mode *m = lam_mode_of(variant->nbits);
	volatile unsigned char *buf = calloc(1, 64);
	int bad = 0;

	if (variant->pin == PIN_SAME)
		if (pin_to(0))
			return 10;
	if (variant->pin == PIN_SPLIT)
		if (pin_to(last_cpu()))
			return 10;
	for (int i = 0; i < ROUNDS; i++) {
		char tok = (char)i;

		if (write(out, &tok, 1) != 1)
			return 12;
		if (read(in, &tok, 1) != 1)
			return 12;
		if (tok != (char)i)
			bad++;
		buf[0] = (unsigned char)i;
		if (i % 50 == 0 &&
		    lam_probe_write(lam_tag((void *)buf, m, 1), buf, 1) != SIGSEGV)
			bad++;
		if (!lam_mask_is(LAM_MASK_NONE, NULL, NULL))
			bad++;
		if (bad) {
			printf("# plain side: %d bad checks by round %d\n", bad, i);
			return 1;
		}
	}
	return 0;
}

TEST_F_TIMEOUT(pingpong, tagged_access_survives_switches, 120)
{
	int a2b[2], b2a[2], sa, sb;
	pid_t a, b;

	ASSERT_EQ(0, pipe(a2b));
	ASSERT_EQ(0, pipe(b2a));
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		close(a2b[0]);
		close(b2a[1]);
		_exit(lam_side(variant, b2a[0], a2b[1]));
	}
	b = fork();
	ASSERT_LE(0, b);
	if (b == 0) {
		close(a2b[1]);
		close(b2a[0]);
		_exit(plain_side(variant, a2b[0], b2a[1]));
	}
	close(a2b[0]);
	close(a2b[1]);
	close(b2a[0]);
	close(b2a[1]);
	ASSERT_EQ(a, waitpid(a, &sa, 0));
	ASSERT_EQ(b, waitpid(b, &sb, 0));
	EXPECT_EQ(0, sa) TH_LOG("LAM process: status %#x", sa);
	EXPECT_EQ(0, sb) TH_LOG("non-LAM process: status %#x", sb);
}

/* threads of one LAM process on all CPUs */
static volatile int thr_bad;

static void *thr_fn(void *arg)
{
	const struct lam_mode *m = arg;
	volatile unsigned char *buf = calloc(1, 64);

	for (int i = 0; i < ROUNDS; i++) {
		if (lam_facts.ncpu > 1 && i % 100 == 0)
			pin_to((i / 100) % lam_facts.ncpu);
		/* no probe (signals + threads): a plain tagged access */
		*(volatile unsigned char *)lam_tag((void *)buf, m, i + 1) = (unsigned char)i;
		if (buf[0] != (unsigned char)i)
			thr_bad++;
		sched_yield();
	}
	return NULL;
}

TEST_F_TIMEOUT(pingpong, threads_across_cpus, 120)
{
	const struct lam_mode *m = lam_mode_of(variant->nbits);
	int want = exp_enable(variant->nbits, LAM_FRESH, false);
	static unsigned char one[64];
	pthread_t th[2];

	LAM_SETUP_ENABLE(want, variant->nbits);
	if (want != 0) {
		/* without LAM the threads' tagged accesses would fault: one here */
		EXPECT_EQ(SIGSEGV, lam_probe_write(lam_tag(one, m, 1), one, 1));
		return;
	}
	for (int i = 0; i < 2; i++)
		ASSERT_EQ(0, pthread_create(&th[i], NULL, thr_fn, (void *)m));
	for (int i = 0; i < 2; i++)
		ASSERT_EQ(0, pthread_join(th[i], NULL));
	EXPECT_EQ(0, thr_bad);
}

LAM_HARNESS_MAIN(NULL)
