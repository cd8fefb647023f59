/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_MMAN_KERNEL_H
#define _ASM_X86_MMAN_KERNEL_H

#include <uapi/asm/mman.h>

/*
 * The end of the address space that a new mapping of current->mm may
 * reach.  get_unmapped_area() bounds by it the address that any method
 * returns, so every mapping meets it, at a fixed address or not: mmap(),
 * mremap(), shmat(), brk() and every file's method, including those that
 * return a MAP_FIXED address as it is (SGX's /dev/sgx_enclave); an mmap()
 * hint beyond it is not taken (mmap_address_hint_valid()).
 *
 * With LAM_U48 and 5-level paging it is TASK_SIZE with the user limit of
 * the address space loaded on this CPU, which is current's
 * (lam_task_size_max()): 2^47 - PAGE_SIZE in LAM_U48 mode, which keeps
 * tags in the address bits above 47.  One instruction for TASK_SIZE's
 * one: a process without LAM_U48 pays nothing.
 */
#if defined(CONFIG_X86_LAM_U48) && defined(CONFIG_X86_5LEVEL)
#define arch_mmap_limit()	(test_thread_flag(TIF_ADDR32) ?		\
				 IA32_PAGE_OFFSET : lam_task_size_max())
#else
#define arch_mmap_limit()	TASK_SIZE
#endif

#endif /* _ASM_X86_MMAN_KERNEL_H */
