/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_PAGE_64_H
#define _ASM_X86_PAGE_64_H

#include <asm/page_64_types.h>

#ifndef __ASSEMBLY__
#include <asm/cpufeatures.h>
#include <asm/alternative.h>

#include <linux/kmsan-checks.h>

/* duplicated to the one in bootmem.h */
extern unsigned long max_pfn;
extern unsigned long phys_base;

extern unsigned long page_offset_base;
extern unsigned long vmalloc_base;
extern unsigned long vmemmap_base;
extern unsigned long physmem_end;

static __always_inline unsigned long __phys_addr_nodebug(unsigned long x)
{
	unsigned long y = x - __START_KERNEL_map;

	/* use the carry flag to determine if x was < __START_KERNEL_map */
	x = y + ((x > y) ? phys_base : (__START_KERNEL_map - PAGE_OFFSET));

	return x;
}

#ifdef CONFIG_DEBUG_VIRTUAL
extern unsigned long __phys_addr(unsigned long);
extern unsigned long __phys_addr_symbol(unsigned long);
#else
#define __phys_addr(x)		__phys_addr_nodebug(x)
#define __phys_addr_symbol(x) \
	((unsigned long)(x) - __START_KERNEL_map + phys_base)
#endif

#define __phys_reloc_hide(x)	(x)

#ifdef CONFIG_FLATMEM
#define pfn_valid(pfn)          ((pfn) < max_pfn)
#endif

void clear_page_orig(void *page);
void clear_page_rep(void *page);
void clear_page_erms(void *page);

static inline void clear_page(void *page)
{
	/*
	 * Clean up KMSAN metadata for the page being cleared. The assembly call
	 * below clobbers @page, so we perform unpoisoning before it.
	 */
	kmsan_unpoison_memory(page, PAGE_SIZE);
	alternative_call_2(clear_page_orig,
			   clear_page_rep, X86_FEATURE_REP_GOOD,
			   clear_page_erms, X86_FEATURE_ERMS,
			   "=D" (page),
			   "0" (page)
			   : "cc", "memory", "rax", "rcx");
}

void copy_page(void *to, void *from);

#ifdef CONFIG_X86_5LEVEL
/*
 * User space process size.  This is the first address outside the user range.
 * There are a few constraints that determine this:
 *
 * On Intel CPUs, if a SYSCALL instruction is at the highest canonical
 * address, then that syscall will enter the kernel with a
 * non-canonical return address, and SYSRET will explode dangerously.
 * We avoid this particular problem by preventing anything
 * from being mapped at the maximum canonical address.
 *
 * On AMD CPUs in the Ryzen family, there's a nasty bug in which the
 * CPUs malfunction if they execute code from the highest canonical page.
 * They'll speculate right off the end of the canonical space, and
 * bad things happen.  This is worked around in the same way as the
 * Intel problem.
 *
 * With page table isolation enabled, we map the LDT in ... [stay tuned]
 */
static __always_inline unsigned long task_size_max(void)
{
	unsigned long ret;

	alternative_io("movq %[small],%0","movq %[large],%0",
			X86_FEATURE_LA57,
			"=r" (ret),
			[small] "i" ((1ul << 47)-PAGE_SIZE),
			[large] "i" ((1ul << 56)-PAGE_SIZE));

	return ret;
}
#endif	/* CONFIG_X86_5LEVEL */

#ifdef CONFIG_X86_LAM
#include <asm/percpu.h>

/*
 * The LAM state of the address space loaded on this CPU, kept by
 * cpu_tlbstate_update_lam(): the mask that strips its tag (-1UL: no LAM).
 */
DECLARE_PER_CPU(unsigned long, cpu_untag_mask);

/*
 * Untag a user pointer as the CPU does under LAM.  @shift is 63 - b, where
 * bit b is the highest address bit that the mode keeps (LAM_U57: b = 56,
 * shift 7; LAM_U48: b = 47, shift 16; no LAM: shift 0): the tag bits and
 * bit 63 take the value of bit b.  A user pointer whose bit b is set, which
 * the CPU refuses (bit 63 differs from bit b), thus comes out with bit 63
 * set and fails every user range check, so a user access never raises #GP
 * on it.  A kernel pointer (bit 63 set) passes unchanged: the CPU applies
 * no user LAM mode to it.
 */
static __always_inline unsigned long lam_untag(unsigned long addr,
					       unsigned long shift)
{
	shift &= ~(unsigned long)((long)addr >> 63);
	return (unsigned long)((long)(addr << shift) >> shift);
}

/* The shift of an untag mask whose tag is bits 62:(64 - shift); -1UL: 0 */
static __always_inline unsigned long lam_untag_shift(unsigned long mask)
{
	return mask == -1UL ? 0 : 64 - __builtin_ctzl(~mask);
}

/*
 * Strip the Linear Address Masking tag from a user pointer, with the rule
 * of the address space running on this CPU, for code that looks the
 * address up (VMAs, page tables, futex keys) rather than accessing it.
 *
 * One AND with this CPU's mask (-1UL until an address space with LAM is
 * loaded); on a CPU without LAM boot-time patching turns it into a NOP: no
 * memory load, no branch.  A
 * pointer the CPU would refuse keeps a bit above the mode's range (bit 56,
 * or bit 47, and a LAM_U48 address space has nothing above 47 bits), so it
 * names no mapping; user range checks compare it with the mode's limit
 * (lam_task_size_max()).
 */
static __always_inline unsigned long __untagged_addr(unsigned long addr)
{
	/*
	 * The AND is the original and CPUs without LAM patch it out: 6.1's
	 * alternatives copy a replacement as it is, so a replacement cannot
	 * carry the operand's relocation.
	 */
	asm (ALTERNATIVE("and " __percpu_arg([mask]) ", %[addr]", "",
			 ALT_NOT(X86_FEATURE_LAM))
	     : [addr] "+r" (addr)
	     : [mask] "m" (cpu_untag_mask));
	return addr;
}

#if defined(CONFIG_X86_LAM_U48) && defined(CONFIG_X86_5LEVEL)
/*
 * TASK_SIZE_MAX as the LAM mode of the address space loaded on this CPU
 * bounds it, kept by cpu_tlbstate_update_lam() on CPUs with LAM: 2^47 -
 * PAGE_SIZE for LAM_U48 (under LAM_U48 the CPU refuses a pointer with bit
 * 47 set, which 5-level paging otherwise puts inside the user range), else
 * TASK_SIZE_MAX.  It starts narrow: a CPU that has loaded no user address
 * space has no user range to check.
 */
DECLARE_PER_CPU(unsigned long, cpu_task_size_max);

/*
 * The limit of every user range check (access_ok(), get_user(),
 * put_user()), so that the whole range, its end included, lies where the
 * CPU accepts it.  One instruction, as TASK_SIZE_MAX is: CPUs without LAM
 * or without 5-level paging patch in the constant of their paging mode
 * (with LAM under 4-level paging every mode ends at 47 bits); only a CPU
 * with both loads this CPU's limit.  The load is the original: 6.1's
 * alternatives copy a replacement as it is, and objtool refuses a
 * relocation in one.  It is 8 bytes and the constants' MOVABS 10, so two
 * operand-size prefixes make it 10 too, or the CPUs that keep the load
 * would run a NOP after it: REX.W takes precedence over a 66H prefix (SDM
 * vol. 1, 3.6.1).  The assembler checks the length.
 */
static __always_inline unsigned long lam_task_size_max(void)
{
	unsigned long limit;

	asm (ALTERNATIVE_2("771: .byte 0x66, 0x66\n\t"
			   "movq " __percpu_arg([pcpu]) ", %[limit]\n"
			   "772: .if 772b - 771b != 10\n\t"
			   ".error \"the per-CPU limit load is not 10 bytes\"\n\t"
			   ".endif",
			   "movq %[l5], %[limit]", ALT_NOT(X86_FEATURE_LAM),
			   "movq %[l4], %[limit]", ALT_NOT(X86_FEATURE_LA57))
	     : [limit] "=r" (limit)
	     : [pcpu] "m" (cpu_task_size_max),
	       [l4] "i" ((1UL << 47) - PAGE_SIZE),
	       [l5] "i" ((1UL << 56) - PAGE_SIZE));
	return limit;
}
#else
/* The CPU accepts every untagged pointer below TASK_SIZE_MAX */
#define lam_task_size_max()	TASK_SIZE_MAX
#endif

#define untagged_addr(addr)	({					\
	unsigned long __addr = (__force unsigned long)(addr);		\
	(__force __typeof__(addr))__untagged_addr(__addr);		\
})

/*
 * The rule of another address space, for the kernel acting on it (remote
 * get_user_pages(), process_madvise(), move_pages(), /proc/PID/pagemap).
 * The mask changes once in the life of an mm, under mmap_lock held for
 * writing; a caller without the lock sees the old or the new mask.
 */
#define untagged_addr_remote(mm, addr)	({				\
	unsigned long __addr = (__force unsigned long)(addr);		\
	unsigned long __mask = READ_ONCE((mm)->context.untag_mask);	\
									\
	(__force __typeof__(addr))lam_untag(__addr,			\
					    lam_untag_shift(__mask));	\
})

/* See include/linux/mm.h: the untagging that only LAM needs */
#define lam_untagged_addr(addr)			untagged_addr(addr)
#define lam_untagged_addr_remote(mm, addr)	untagged_addr_remote(mm, addr)
#define lam_access_ok(ptr, size)		x86_access_ok(ptr, size)
#endif	/* CONFIG_X86_LAM */

#elif !defined(LINKER_SCRIPT)

/*
 * The LAM edge of __get_user_N() and __put_user_N() (arch/x86/lib), taken
 * only when the usual check (cmp \limit, \ptr; \limit holds
 * TASK_SIZE_MAX - N) refused \ptr: it may carry the tag of the LAM mode of
 * the address space loaded on this CPU.  \ptr is untagged with this CPU's
 * mask and compared again with the same \limit, which is exact for every
 * mode the CPU may be in: a pointer the CPU would refuse keeps bit 56, or
 * bit 47, and so stays at or above \limit (under LAM_U48 with 5-level
 * paging \limit is this CPU's, see lam_task_size_max()).  That last
 * compare alone gates the access: \ok is
 * reached with its CF, which __get_user_N() turns into its
 * array_index_mask_nospec() mask, so that no mispredicted branch brings a
 * pointer that this compare refused to the access.  Without LAM the mask is
 * -1: the pointer stays refused.  Without CONFIG_X86_LAM the usual check
 * jumps straight to \bad.
 */
#ifdef CONFIG_X86_LAM
#include <asm/percpu.h>
#endif

.macro JAE_LAM_USER_SLOW_PATH slow, bad
#ifdef CONFIG_X86_LAM
	jae \slow
#else
	jae \bad
#endif
.endm

.macro LAM_USER_SLOW_PATH ptr, limit, ok, bad
#ifdef CONFIG_X86_LAM
	and PER_CPU_VAR(cpu_untag_mask), \ptr
	cmp \limit, \ptr
	jb \ok
	jmp \bad
#endif
.endm

#endif	/* !__ASSEMBLY__, !LINKER_SCRIPT */

#ifdef CONFIG_X86_VSYSCALL_EMULATION
# define __HAVE_ARCH_GATE_AREA 1
#endif

#endif /* _ASM_X86_PAGE_64_H */
