/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lam_harness.h - the kselftest harness as the LAM guest tests use it.
 * Include it after lam_common.h, in place of kselftest_harness.h.
 *
 * Where the runner's facts are wrong on purpose (LAM_FACTS_WRONG=1: a
 * must-fail cell of test/matrix.tsv), a test counts as failing as it must
 * only if its body fails on its own checks, not its set-up (the enable
 * that puts the process in a mode, a fixture's set-up).  Two things make
 * that visible to test/run-matrix:
 *
 *  - every FIXTURE_SETUP() that completes prints "# NAME: set-up done, the
 *    body runs" in that mode: the harness runs a test's body only after a
 *    set-up that did not fail, so a failure printed after that line is the
 *    body's;
 *  - LAM_SETUP_ENABLE() and LAM_SETUP_UNTAG_MASK() check an enable that is
 *    a set-up step against the facts, and in that mode log the result
 *    instead, so the body goes on believing the facts.
 *
 * An enable that is what the test is about stays an EXPECT_EQ().
 */
#ifndef LAM_HARNESS_H
#define LAM_HARNESS_H

#include "lam_common.h"
#include "kselftest_harness.h"

static inline void lam_setup_done(struct __test_metadata *_metadata)
{
	if (lam_facts_wrong && _metadata->passed)
		fprintf(TH_LOG_STREAM, "# %s: set-up done, the body runs\n",
			_metadata->name);
}

#undef FIXTURE_SETUP
#define FIXTURE_SETUP(fixture_name)						\
	static void lam_setup_of_##fixture_name(					\
		struct __test_metadata *_metadata,				\
		FIXTURE_DATA(fixture_name) *self,				\
		const FIXTURE_VARIANT(fixture_name) *variant);			\
	void fixture_name##_setup(						\
		struct __test_metadata *_metadata,				\
		FIXTURE_DATA(fixture_name) *self,				\
		const FIXTURE_VARIANT(fixture_name) *variant)			\
	{									\
		lam_setup_of_##fixture_name(_metadata, self, variant);		\
		lam_setup_done(_metadata);					\
	}									\
	static void lam_setup_of_##fixture_name(					\
		struct __test_metadata __attribute__((unused)) *_metadata,	\
		FIXTURE_DATA(fixture_name) __attribute__((unused)) *self,	\
		const FIXTURE_VARIANT(fixture_name)				\
			__attribute__((unused)) *variant)

/*
 * ARCH_ENABLE_TAGGED_ADDR(@nbits) as a set-up step: the errno must be
 * @want (the facts' prediction), except under wrong facts, where it is
 * logged.  Evaluates to the errno; callers go on with @want, not with it.
 * A macro, so that a failure names the caller's line.
 */
#define LAM_SETUP_ENABLE(want, nbits) ({					\
	int __lam_want = (want), __lam_rc;					\
	unsigned long __lam_n = (nbits);					\
										\
	__lam_rc = lam_enable(__lam_n);						\
	if (!lam_facts_wrong) {							\
		EXPECT_EQ(__lam_want, __lam_rc)					\
			TH_LOG("ARCH_ENABLE_TAGGED_ADDR(%lu), a set-up step", __lam_n); \
	} else if (__lam_rc != __lam_want) {					\
		TH_LOG("set-up: ARCH_ENABLE_TAGGED_ADDR(%lu) is %s, the facts say %s (not checked: the facts are wrong on purpose)", \
		       __lam_n, __lam_rc ? strerror(__lam_rc) : "ok",		\
		       __lam_want ? strerror(__lam_want) : "ok");		\
	}									\
	__lam_rc;								\
})

/* EXPECT_UNTAG_MASK() as a set-up step: not checked under wrong facts */
#define LAM_SETUP_UNTAG_MASK(want, fmt, ...) do {				\
	if (!lam_facts_wrong)							\
		EXPECT_UNTAG_MASK(want, fmt, ##__VA_ARGS__);			\
} while (0)

#endif /* LAM_HARNESS_H */
