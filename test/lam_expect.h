/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lam_expect.h - THE expectation table of the LAM guest tests.
 *
 * A guest test never looks at the machine it runs on to decide what to
 * expect (that would make it unable to fail).  The runner (test/run-matrix,
 * from test/matrix.tsv) passes the facts of the cell on the command line as
 * LAM_KERNEL=0|1 LAM_U48=0|1 LAM_5LEVEL=0|1 LAM_CPU=0|1 LAM_LA57=0|1
 * LAM_NCPU=N LAM_POLICY=0|1|2 LAM_MITIGATIONS=0|1 (or in the environment,
 * argv wins).  A missing fact is an error.
 *
 * Every expected result is computed here, from those facts only:
 *
 *  fact          meaning
 *  LAM_KERNEL    kernel built with CONFIG_X86_LAM=y
 *  LAM_U48       kernel built with CONFIG_X86_LAM_U48=y
 *  LAM_5LEVEL    kernel built with CONFIG_X86_5LEVEL=y
 *  LAM_CPU       the CPU enumerates LAM (CPUID.(7,1):EAX[26])
 *  LAM_LA57      the CPU enumerates LA57 (5-level paging)
 *  LAM_NCPU      number of CPUs the guest has
 *  LAM_POLICY    the kernel's "lam=" policy in force: 0 off, 1 on, 2 auto
 *                (the default when the command line has no lam=)
 *  LAM_MITIGATIONS  CPU mitigations on (1) or off (0, mitigations=off)
 *
 *  LAM usable    KERNEL && CPU && (POLICY on || (POLICY auto && !MITIGATIONS)):
 *                the emulator has no LASS and this kernel never enables
 *                LASS, so auto allows LAM only with mitigations off.
 *
 *  The ABI is written once, in overlay/Documentation/x86/lam.rst (codes,
 *  errors and their order, the rules of threads, fork, vfork and execve).
 *  This file predicts it for a cell; exp_enable() carries one "lam.rst:"
 *  marker per row of lam.rst's ARCH_ENABLE_TAGGED_ADDR error table, in the
 *  table's order, and test/abi-doc fails when the two disagree.
 *  ARCH_ENABLE_TAGGED_ADDR(n), in short: EINVAL without the kernel option,
 *    ENODEV, EPERM (policy), EBUSY (enabled, also by fork, or the mm lent
 *    to a vfork child), EINVAL (n), EBUSY (U48 with a mapping above 47 bits).
 *    Other threads or CLONE_VM processes (without CLONE_VFORK) on the mm
 *    change nothing: the mode is the mm's, every thread of the process
 *    gets it at once (also a thread that enables it for the main one).
 *  fork: the child has the parent's mode; if LAM is on it cannot change it
 *    (EBUSY).  execve: LAM off, may be enabled again.
 *  ARCH_GET_UNTAG_MASK     !KERNEL -> EINVAL; ~0 / ~GENMASK(62,57) / ~GENMASK(62,48)
 *  ARCH_GET_MAX_TAG_BITS   !KERNEL -> EINVAL.  With LAM on it reports the
 *    tag bits of the process's mode (6 for U57, 15 for U48); with LAM off it
 *    reports the largest nr_bits ARCH_ENABLE_TAGGED_ADDR would accept at that
 *    moment (15 if CONFIG_X86_LAM_U48 and nothing is mapped above 47 bits,
 *    else 6), and 0 if ENABLE would accept none (CPU without LAM, the
 *    policy refuses LAM, or a vfork child of a process without LAM).
 *  The GET calls' destination: NULL, unmapped, read-only or a kernel-half
 *    address -> EFAULT (EINVAL if !KERNEL); a tagged writable one -> written
 *    when LAM is on, else EFAULT.
 *  /proc/PID/arch_status   "untag_mask:" line iff KERNEL
 *  /proc/PID/status        "untag_mask:" line right after "THP_enabled:" iff
 *                          KERNEL (guarded by CONFIG_X86_LAM: other
 *                          architectures keep their format)
 *  Syscall pointer arguments: untagged user address -> used; tagged (tag in
 *    the enabled mode's bits) -> used iff LAM is on, else EFAULT; canonical
 *    kernel-half address (0xffffffff81000000, 0xffff888000000000) -> EFAULT
 *    whatever the mode.
 *  Futexes: under LAM a futex is named by the memory, not the pointer:
 *    FUTEX_WAIT through one alias (tagged or not) is woken by FUTEX_WAKE
 *    through any other, for private futexes (FUTEX_PRIVATE_FLAG) and for
 *    shared ones (no private flag, MAP_SHARED|MAP_ANONYMOUS page) alike.
 *    Without LAM a tagged uaddr is EFAULT.
 *  5-level paging in use   5LEVEL && LA57
 *  mapping above 47 bits   possible iff 5-level paging in use and U48 not on
 */
#ifndef LAM_EXPECT_H
#define LAM_EXPECT_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lam_facts {
	int kernel;	/* CONFIG_X86_LAM */
	int u48;	/* CONFIG_X86_LAM_U48 */
	int l5;		/* CONFIG_X86_5LEVEL */
	int cpu;	/* CPU has LAM */
	int la57;	/* CPU has LA57 */
	int ncpu;	/* CPUs in the guest */
	int policy;	/* lam=: 0 off, 1 on, 2 auto */
	int mitigations; /* CPU mitigations on */
};

static struct lam_facts lam_facts = { -1, -1, -1, -1, -1, -1, -1, -1 };

/*
 * LAM_FACTS_WRONG=1 (optional, 0 by default): the runner gives facts that
 * are wrong on purpose (a must-fail cell).  The tests' set-up steps then
 * log what they see instead of checking it (lam_harness.h), so that each
 * test body runs under the wrong facts and must fail on its own checks.
 */
static int lam_facts_wrong;

static const struct {
	const char *name;
	int *val;
} lam_fact_names[] = {
	{ "LAM_KERNEL", &lam_facts.kernel },
	{ "LAM_U48", &lam_facts.u48 },
	{ "LAM_5LEVEL", &lam_facts.l5 },
	{ "LAM_CPU", &lam_facts.cpu },
	{ "LAM_LA57", &lam_facts.la57 },
	{ "LAM_NCPU", &lam_facts.ncpu },
	{ "LAM_POLICY", &lam_facts.policy },
	{ "LAM_MITIGATIONS", &lam_facts.mitigations },
};
#define LAM_NFACTS (sizeof(lam_fact_names) / sizeof(lam_fact_names[0]))

static int lam_fact_set(const char *arg)
{
	for (unsigned int i = 0; i < LAM_NFACTS; i++) {
		size_t l = strlen(lam_fact_names[i].name);

		if (!strncmp(arg, lam_fact_names[i].name, l) && arg[l] == '=') {
			*lam_fact_names[i].val = atoi(arg + l + 1);
			return 1;
		}
	}
	return 0;
}

/*
 * Read the facts from the environment, then from argv ("LAM_X=V" words,
 * which are removed from argv).  Exits with status 2 if one is missing.
 */
static void __attribute__((unused)) lam_facts_init(int *argc, char **argv)
{
	const char *e;
	char buf[64];
	int j = 1;

	for (unsigned int i = 0; i < LAM_NFACTS; i++) {
		e = getenv(lam_fact_names[i].name);
		if (e) {
			snprintf(buf, sizeof(buf), "%s=%s", lam_fact_names[i].name, e);
			lam_fact_set(buf);
		}
	}
	e = getenv("LAM_FACTS_WRONG");
	if (e)
		lam_facts_wrong = atoi(e);
	for (int i = 1; i < *argc; i++) {
		if (!strncmp(argv[i], "LAM_FACTS_WRONG=", 16))
			lam_facts_wrong = atoi(argv[i] + 16);
		else if (!lam_fact_set(argv[i]))
			argv[j++] = argv[i];
	}
	argv[j] = NULL;
	*argc = j;
	for (unsigned int i = 0; i < LAM_NFACTS; i++) {
		if (*lam_fact_names[i].val < 0) {
			printf("Bail out! fact %s not given (the runner must pass all of LAM_KERNEL LAM_U48 LAM_5LEVEL LAM_CPU LAM_LA57 LAM_NCPU LAM_POLICY LAM_MITIGATIONS)\n",
			       lam_fact_names[i].name);
			exit(2);
		}
	}
	printf("# facts: LAM_KERNEL=%d LAM_U48=%d LAM_5LEVEL=%d LAM_CPU=%d LAM_LA57=%d LAM_NCPU=%d LAM_POLICY=%d LAM_MITIGATIONS=%d\n",
	       lam_facts.kernel, lam_facts.u48, lam_facts.l5, lam_facts.cpu,
	       lam_facts.la57, lam_facts.ncpu, lam_facts.policy,
	       lam_facts.mitigations);
	if (lam_facts_wrong)
		printf("# facts: LAM_FACTS_WRONG=1: these facts are wrong on purpose; set-up steps are logged, not checked\n");
}

#define LAM_MASK_NONE	(~0UL)
#define LAM_MASK_U57	(~(0x3fUL << 57))	/* ~GENMASK(62, 57) */
#define LAM_MASK_U48	(~(0x7fffUL << 48))	/* ~GENMASK(62, 48) */

/* What the process has done before the call whose result we predict. */
enum lam_state {
	LAM_FRESH,	/* LAM never enabled on this mm (fork of such included) */
	LAM_ENABLED,	/* a previous ARCH_ENABLE_TAGGED_ADDR succeeded (or fork of such) */
	LAM_SHARED_MM,	/* LAM off, other threads / CLONE_VM (not vfork): as LAM_FRESH */
	LAM_VFORK_LENT,	/* the mm is lent to a vfork child (until its execve/_exit): */
			/* the child, its threads and CLONE_VM children, the parent's threads */
};

/* The kernel's lam= policy lets a process enable LAM (see the table) */
static inline bool exp_policy_allows(void)
{
	return lam_facts.policy == 1 ||
	       (lam_facts.policy == 2 && !lam_facts.mitigations);
}

/* 5-level paging is in use: kernel supports it and the CPU has LA57 */
static inline bool exp_paging57(void)
{
	return lam_facts.l5 && lam_facts.la57;
}

/* Does a mapping attempt above 47 bits (hint or MAP_FIXED) land there? */
static inline bool exp_high_map(bool u48_on)
{
	return exp_paging57() && !u48_on;
}

/* errno of ARCH_GET_UNTAG_MASK (0 = success) */
static inline int exp_get_mask_rc(void)
{
	return lam_facts.kernel ? 0 : EINVAL;
}

/* Untag mask after ARCH_ENABLE_TAGGED_ADDR(nbits) succeeded */
static inline unsigned long exp_mask_for(unsigned long nbits)
{
	if (nbits >= 1 && nbits <= 6)
		return LAM_MASK_U57;
	if (nbits >= 7 && nbits <= 15)
		return LAM_MASK_U48;
	return LAM_MASK_NONE;
}

/* Tag bits of the mode ARCH_ENABLE_TAGGED_ADDR(nbits) selects (0: none) */
static inline unsigned long exp_tag_bits_for(unsigned long nbits)
{
	if (nbits >= 1 && nbits <= 6)
		return 6;
	if (nbits >= 7 && nbits <= 15)
		return 15;
	return 0;
}

/*
 * errno of ARCH_ENABLE_TAGGED_ADDR(nbits) (0 = success).
 * @high_mapped: the process attempted a mapping above 47 bits before.
 * Other threads (LAM_SHARED_MM) do not matter; a vfork child is refused
 * before nbits is looked at, like a second enable.
 */
static inline int exp_enable(unsigned long nbits, enum lam_state st, bool high_mapped)
{
	/* lam.rst, before the table: EINVAL without CONFIG_X86_LAM */
	if (!lam_facts.kernel)
		return EINVAL;
	/* lam.rst: ENODEV the CPU has no LAM */
	if (!lam_facts.cpu)
		return ENODEV;
	/* lam.rst: EPERM the policy refuses LAM */
	if (!exp_policy_allows())
		return EPERM;
	/*
	 * lam.rst: EINVAL not predicted here: not the caller's mm, or x32
	 * (lam_inherit.c ptrace_arch_prctl_cannot_enable, lam_compat.c)
	 */
	/*
	 * lam.rst: EINTR not predicted: a fatal signal while waiting for the
	 * mmap lock, which no cell can place inside that wait
	 */
	/* lam.rst: EBUSY already enabled, also through fork() */
	if (st == LAM_ENABLED)
		return EBUSY;
	/* lam.rst: EBUSY the mm is lent to a vfork() child */
	if (st == LAM_VFORK_LENT)
		return EBUSY;
	/*
	 * lam.rst: EBUSY not predicted: a device shares the mm through a
	 * PASID; no emulated device can bind SVA, so no cell has one
	 */
	/* lam.rst: EINVAL nr_bits 0, more than 15, or 7 to 15 without U48 */
	if (nbits == 0 || nbits > 15)
		return EINVAL;
	if (nbits <= 6)
		return 0;
	if (!lam_facts.u48)
		return EINVAL;
	/* lam.rst: EBUSY nr_bits 7 to 15 and something mapped above 47 bits */
	if (high_mapped && exp_high_map(false))
		return EBUSY;
	return 0;
}

/* Untag mask expected after trying ARCH_ENABLE_TAGGED_ADDR(nbits) */
static inline unsigned long exp_mask_after(unsigned long nbits, enum lam_state st,
					   bool high_mapped)
{
	return exp_enable(nbits, st, high_mapped) == 0 ? exp_mask_for(nbits)
						       : LAM_MASK_NONE;
}

/*
 * The mode after trying ARCH_ENABLE_TAGGED_ADDR(nbits): @nbits if the call
 * succeeds, else 0 (LAM off).  What exp_max_tag_bits_of() takes.
 */
static inline unsigned long exp_mode_after(unsigned long nbits, enum lam_state st,
					   bool high_mapped)
{
	return exp_enable(nbits, st, high_mapped) == 0 ? nbits : 0;
}

/* errno of ARCH_GET_MAX_TAG_BITS, and the value it reports */
static inline int exp_max_tag_bits_rc(void)
{
	return lam_facts.kernel ? 0 : EINVAL;
}

/*
 * ARCH_GET_MAX_TAG_BITS: with LAM on it reports the tag bits of the
 * process's mode (6 for U57, 15 for U48); with LAM off it reports the
 * largest nr_bits ARCH_ENABLE_TAGGED_ADDR would accept at that moment (15
 * if CONFIG_X86_LAM_U48 and nothing is mapped above 47 bits, else 6), and 0
 * if ENABLE would accept none (CPU without LAM, the policy refuses LAM, or
 * a vfork child of a process without LAM).
 * @mode_nbits: the nr_bits the mm's mode was enabled with (0: LAM off; see
 * exp_mode_after()), @st: the caller's state, @high_mapped: as exp_enable().
 */
static inline unsigned long exp_max_tag_bits_of(unsigned long mode_nbits,
						enum lam_state st, bool high_mapped)
{
	if (mode_nbits)
		return exp_tag_bits_for(mode_nbits);
	if (!lam_facts.cpu || !exp_policy_allows() || st == LAM_VFORK_LENT)
		return 0;
	if (lam_facts.u48 && !(high_mapped && exp_high_map(false)))
		return 15;
	return 6;
}

/* The same for a process that has not enabled LAM and is no vfork child */
static inline unsigned long exp_max_tag_bits(bool high_mapped)
{
	return exp_max_tag_bits_of(0, LAM_FRESH, high_mapped);
}

/* Where the destination of ARCH_GET_UNTAG_MASK / ARCH_GET_MAX_TAG_BITS points */
enum lam_dest {
	LAM_DEST_OK,		/* writable, untagged */
	LAM_DEST_BAD,		/* NULL, unmapped, read-only, kernel half */
	LAM_DEST_TAGGED,	/* writable, tagged in the bits of the enabled mode */
};

/* errno of ARCH_GET_UNTAG_MASK / ARCH_GET_MAX_TAG_BITS for @d (@lam_on: LAM on) */
static inline int exp_get_dest_rc(enum lam_dest d, bool lam_on)
{
	if (!lam_facts.kernel)
		return EINVAL;
	if (d == LAM_DEST_BAD || (d == LAM_DEST_TAGGED && !lam_on))
		return EFAULT;
	return 0;
}

/* A pointer argument of a syscall (read, write, uname, open, futex, ...) */
enum lam_ptr {
	LAM_PTR_PLAIN,		/* untagged user address */
	LAM_PTR_TAGGED,		/* tag in the bits of the enabled mode */
	LAM_PTR_KERNEL,		/* canonical kernel-half address */
};

/* errno of a syscall given such a pointer (0: the memory is used) */
static inline int exp_ptr_errno(enum lam_ptr p, bool lam_on)
{
	if (p == LAM_PTR_KERNEL || (p == LAM_PTR_TAGGED && !lam_on))
		return EFAULT;
	return 0;
}

/* /proc/PID/arch_status has an "untag_mask:" line */
static inline bool exp_arch_status_line(void)
{
	return lam_facts.kernel;
}

/* /proc/PID/status has "untag_mask:" right after "THP_enabled:" (CONFIG_X86_LAM only) */
static inline bool exp_status_line(void)
{
	return lam_facts.kernel;
}

#endif /* LAM_EXPECT_H */
