/* SPDX-License-Identifier: GPL-2.0 */
/*
 * __get_user functions.
 *
 * (C) Copyright 1998 Linus Torvalds
 * (C) Copyright 2005 Andi Kleen
 * (C) Copyright 2008 Glauber Costa
 *
 * These functions have a non-standard call interface
 * to make them more efficient, especially as they
 * return an error value in addition to the "real"
 * return value.
 */

/*
 * __get_user_X
 *
 * Inputs:	%[r|e]ax contains the address.
 *
 * Outputs:	%[r|e]ax is error code (0 or -EFAULT)
 *		%[r|e]dx contains zero-extended value
 *		%ecx contains the high half for 32-bit __get_user_8
 *
 *
 * These functions should not modify any other registers,
 * as they get called from within inline assembly.
 */

#include <linux/linkage.h>
#include <asm/page_types.h>
#include <asm/errno.h>
#include <asm/asm-offsets.h>
#include <asm/thread_info.h>
#include <asm/asm.h>
#include <asm/smap.h>
#include <asm/export.h>

#define ASM_BARRIER_NOSPEC ALTERNATIVE "", "lfence", X86_FEATURE_LFENCE_RDTSC

#ifdef CONFIG_X86_5LEVEL
#define LOAD_TASK_SIZE_MINUS_N(n) \
	ALTERNATIVE __stringify(mov $((1 << 47) - 4096 - (n)),%rdx), \
		    __stringify(mov $((1 << 56) - 4096 - (n)),%rdx), X86_FEATURE_LA57
#else
#define LOAD_TASK_SIZE_MINUS_N(n) \
	mov $(TASK_SIZE_MAX - (n)),%_ASM_DX
#endif

	.text
SYM_FUNC_START(__get_user_1)
	LOAD_TASK_SIZE_MINUS_N(0)
	cmp %_ASM_DX,%_ASM_AX
	JAE_LAM_USER_SLOW_PATH .Lget_user_1_lam, bad_get_user
.Lget_user_1_ok:
	sbb %_ASM_DX, %_ASM_DX		/* array_index_mask_nospec() */
	and %_ASM_DX, %_ASM_AX
	ASM_STAC
1:	movzbl (%_ASM_AX),%edx
	xor %eax,%eax
	ASM_CLAC
	RET
.Lget_user_1_lam:
	LAM_USER_SLOW_PATH %rax, %rdx, .Lget_user_1_ok, bad_get_user
SYM_FUNC_END(__get_user_1)
EXPORT_SYMBOL(__get_user_1)

SYM_FUNC_START(__get_user_2)
	LOAD_TASK_SIZE_MINUS_N(1)
	cmp %_ASM_DX,%_ASM_AX
	JAE_LAM_USER_SLOW_PATH .Lget_user_2_lam, bad_get_user
.Lget_user_2_ok:
	sbb %_ASM_DX, %_ASM_DX		/* array_index_mask_nospec() */
	and %_ASM_DX, %_ASM_AX
	ASM_STAC
2:	movzwl (%_ASM_AX),%edx
	xor %eax,%eax
	ASM_CLAC
	RET
.Lget_user_2_lam:
	LAM_USER_SLOW_PATH %rax, %rdx, .Lget_user_2_ok, bad_get_user
SYM_FUNC_END(__get_user_2)
EXPORT_SYMBOL(__get_user_2)

SYM_FUNC_START(__get_user_4)
	LOAD_TASK_SIZE_MINUS_N(3)
	cmp %_ASM_DX,%_ASM_AX
	JAE_LAM_USER_SLOW_PATH .Lget_user_4_lam, bad_get_user
.Lget_user_4_ok:
	sbb %_ASM_DX, %_ASM_DX		/* array_index_mask_nospec() */
	and %_ASM_DX, %_ASM_AX
	ASM_STAC
3:	movl (%_ASM_AX),%edx
	xor %eax,%eax
	ASM_CLAC
	RET
.Lget_user_4_lam:
	LAM_USER_SLOW_PATH %rax, %rdx, .Lget_user_4_ok, bad_get_user
SYM_FUNC_END(__get_user_4)
EXPORT_SYMBOL(__get_user_4)

SYM_FUNC_START(__get_user_8)
#ifdef CONFIG_X86_64
	LOAD_TASK_SIZE_MINUS_N(7)
	cmp %_ASM_DX,%_ASM_AX
	JAE_LAM_USER_SLOW_PATH .Lget_user_8_lam, bad_get_user
.Lget_user_8_ok:
	sbb %_ASM_DX, %_ASM_DX		/* array_index_mask_nospec() */
	and %_ASM_DX, %_ASM_AX
	ASM_STAC
4:	movq (%_ASM_AX),%rdx
	xor %eax,%eax
	ASM_CLAC
	RET
.Lget_user_8_lam:
	LAM_USER_SLOW_PATH %rax, %rdx, .Lget_user_8_ok, bad_get_user
#else
	LOAD_TASK_SIZE_MINUS_N(7)
	cmp %_ASM_DX,%_ASM_AX
	jae bad_get_user_8
	sbb %_ASM_DX, %_ASM_DX		/* array_index_mask_nospec() */
	and %_ASM_DX, %_ASM_AX
	ASM_STAC
4:	movl (%_ASM_AX),%edx
5:	movl 4(%_ASM_AX),%ecx
	xor %eax,%eax
	ASM_CLAC
	RET
#endif
SYM_FUNC_END(__get_user_8)
EXPORT_SYMBOL(__get_user_8)

/* .. and the same for __get_user, just without the range checks */
SYM_FUNC_START(__get_user_nocheck_1)
	ASM_STAC
	ASM_BARRIER_NOSPEC
6:	movzbl (%_ASM_AX),%edx
	xor %eax,%eax
	ASM_CLAC
	RET
SYM_FUNC_END(__get_user_nocheck_1)
EXPORT_SYMBOL(__get_user_nocheck_1)

SYM_FUNC_START(__get_user_nocheck_2)
	ASM_STAC
	ASM_BARRIER_NOSPEC
7:	movzwl (%_ASM_AX),%edx
	xor %eax,%eax
	ASM_CLAC
	RET
SYM_FUNC_END(__get_user_nocheck_2)
EXPORT_SYMBOL(__get_user_nocheck_2)

SYM_FUNC_START(__get_user_nocheck_4)
	ASM_STAC
	ASM_BARRIER_NOSPEC
8:	movl (%_ASM_AX),%edx
	xor %eax,%eax
	ASM_CLAC
	RET
SYM_FUNC_END(__get_user_nocheck_4)
EXPORT_SYMBOL(__get_user_nocheck_4)

SYM_FUNC_START(__get_user_nocheck_8)
	ASM_STAC
	ASM_BARRIER_NOSPEC
#ifdef CONFIG_X86_64
9:	movq (%_ASM_AX),%rdx
#else
9:	movl (%_ASM_AX),%edx
10:	movl 4(%_ASM_AX),%ecx
#endif
	xor %eax,%eax
	ASM_CLAC
	RET
SYM_FUNC_END(__get_user_nocheck_8)
EXPORT_SYMBOL(__get_user_nocheck_8)


#ifdef CONFIG_X86_LAM
#ifdef CONFIG_X86_5LEVEL
#define LOAD_TASK_SIZE_MAX_RCX \
	ALTERNATIVE __stringify(mov $((1 << 47) - 4096),%rcx), \
		    __stringify(mov $((1 << 56) - 4096),%rcx), X86_FEATURE_LA57
#else
#define LOAD_TASK_SIZE_MAX_RCX \
	mov $TASK_SIZE_MAX,%rcx
#endif

/*
 * __lam_access_ok_slow: access_ok()'s slow path (see asm/uaccess.h), taken
 * only when the usual range check refused the pointer: it may carry the tag
 * of the LAM mode loaded on this CPU.  Its untagged form must start within
 * the mode's range, which excludes every pointer that the CPU would refuse,
 * and the block must end within the address space, as without LAM.  Without
 * LAM (on this CPU or in this address space) the mask is -1 and the mode's
 * range empty: the pointer stays refused.
 *
 * Inputs:	the pointer at 8(%rsp), the size at 16(%rsp)
 * Outputs:	at 8(%rsp) 1 if the block may be valid, else 0
 * Clobbers only the flags: it is called from inline assembly.
 */
SYM_FUNC_START(__lam_access_ok_slow)
	push %rax
	push %rcx
	mov 24(%rsp), %rax
	and PER_CPU_VAR(cpu_untag_mask), %rax
	cmp PER_CPU_VAR(cpu_lam_user_end), %rax
	ja .Llam_refused
	LOAD_TASK_SIZE_MAX_RCX
	sub 32(%rsp), %rcx
	jb .Llam_refused
	cmp %rcx, %rax
	ja .Llam_refused
	movq $1, 24(%rsp)
	pop %rcx
	pop %rax
	RET
.Llam_refused:
	movq $0, 24(%rsp)
	pop %rcx
	pop %rax
	RET
SYM_FUNC_END(__lam_access_ok_slow)
EXPORT_SYMBOL(__lam_access_ok_slow)
#endif	/* CONFIG_X86_LAM */

SYM_CODE_START_LOCAL(.Lbad_get_user_clac)
	ASM_CLAC
bad_get_user:
	xor %edx,%edx
	mov $(-EFAULT),%_ASM_AX
	RET
SYM_CODE_END(.Lbad_get_user_clac)

#ifdef CONFIG_X86_32
SYM_CODE_START_LOCAL(.Lbad_get_user_8_clac)
	ASM_CLAC
bad_get_user_8:
	xor %edx,%edx
	xor %ecx,%ecx
	mov $(-EFAULT),%_ASM_AX
	RET
SYM_CODE_END(.Lbad_get_user_8_clac)
#endif

/* get_user */
	_ASM_EXTABLE_UA(1b, .Lbad_get_user_clac)
	_ASM_EXTABLE_UA(2b, .Lbad_get_user_clac)
	_ASM_EXTABLE_UA(3b, .Lbad_get_user_clac)
#ifdef CONFIG_X86_64
	_ASM_EXTABLE_UA(4b, .Lbad_get_user_clac)
#else
	_ASM_EXTABLE_UA(4b, .Lbad_get_user_8_clac)
	_ASM_EXTABLE_UA(5b, .Lbad_get_user_8_clac)
#endif

/* __get_user */
	_ASM_EXTABLE_UA(6b, .Lbad_get_user_clac)
	_ASM_EXTABLE_UA(7b, .Lbad_get_user_clac)
	_ASM_EXTABLE_UA(8b, .Lbad_get_user_clac)
#ifdef CONFIG_X86_64
	_ASM_EXTABLE_UA(9b, .Lbad_get_user_clac)
#else
	_ASM_EXTABLE_UA(9b, .Lbad_get_user_8_clac)
	_ASM_EXTABLE_UA(10b, .Lbad_get_user_8_clac)
#endif
