/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_MMAN_KERNEL_H
#define _ASM_X86_MMAN_KERNEL_H

#include <uapi/asm/mman.h>

#ifdef CONFIG_X86_LAM_U48
#include <linux/errno.h>
#include <asm/page_types.h>

bool mmap_fixed_address_valid(unsigned long addr, unsigned long len);

/*
 * get_unmapped_area() asks this before any get_unmapped_area() method, so
 * every mapping at a fixed address meets it: mmap(), mremap() and shmat()
 * of any file, including those whose method returns a MAP_FIXED address
 * as it is (SGX's /dev/sgx_enclave).  A process in LAM_U48 mode may map
 * nothing above 47 bits; a range below them is not asked about (no call).
 */
static inline unsigned long lam_mmap_check(unsigned long addr,
					   unsigned long len,
					   unsigned long flags)
{
	if ((flags & MAP_FIXED) && addr + len > DEFAULT_MAP_WINDOW &&
	    !mmap_fixed_address_valid(addr, len))
		return -ENOMEM;
	return 0;
}

#define arch_mmap_check	lam_mmap_check
#endif

#endif /* _ASM_X86_MMAN_KERNEL_H */
