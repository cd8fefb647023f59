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
 * cpu_tlbstate_update_lam(): the mask that strips its tag (-1UL: no LAM),
 * and the end of the user range that its untagged pointers may reach
 * (0: no LAM, so every pointer out of the usual range stays refused).
 */
DECLARE_PER_CPU(unsigned long, cpu_untag_mask);
DECLARE_PER_CPU(unsigned long, cpu_lam_user_end);

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
 * names no mapping; user accesses check the mode's range themselves
 * (__lam_access_ok() and the get_user()/put_user() slow paths).
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
/* The untag shift of the address space loaded on this CPU; see lam_untag() */
DECLARE_PER_CPU(u8, cpu_untag_shift);

/*
 * Untag a user pointer exactly as the CPU does, for a range check: one that
 * the CPU would refuse comes out in the kernel half.  Needed only where
 * LAM_U48 and 5-level paging meet (see asm/uaccess.h).  On a CPU without
 * LAM a NOP: boot-time patching puts the jump in place only with LAM.
 */
static __always_inline unsigned long lam_untag_strict(unsigned long addr)
{
	asm goto(ALTERNATIVE("", "jmp %l[lam]", X86_FEATURE_LAM)
		 : : : : lam);
	return addr;
lam:
	return lam_untag(addr, this_cpu_read(cpu_untag_shift));
}
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
 * only when the usual check (cmp \limit, \ptr; \limit holds the constant
 * TASK_SIZE_MAX - N) refused \ptr: it may carry the tag of the LAM mode of
 * the address space loaded on this CPU.  \ptr is untagged with this CPU's
 * mask and compared again with the same \limit, which is exact for every
 * mode the CPU may be in (a pointer the CPU would refuse keeps bit 56, or
 * bit 47, and so stays at or above \limit), except LAM_U48 under 5-level
 * paging, where the caller has untagged strictly already (see
 * uaccess_untagged()).  That last compare alone gates the access: \ok is
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
