/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Mutant: the untagged copy is compared, the tagged original accessed:
 * fails.
 */
	.include "user-access.inc"
	GET_USER_4_CHECK
	jae .Llam
	GET_USER_4_TAIL
.Llam:
	mov %rax,%rcx
	and %gs:cpu_untag_mask,%rcx
	cmp %rdx,%rcx
	jb .Lok
	jmp .Lbad
