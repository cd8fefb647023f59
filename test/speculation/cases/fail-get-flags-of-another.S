/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Mutant: the mask is made from the flags of another instruction than
 * the compare: fails.
 */
	.include "user-access.inc"
	GET_USER_4_CHECK
	jae .Llam
	GET_USER_4_TAIL
.Llam:
	and %gs:cpu_untag_mask,%rax
	cmp %rdx,%rax
	test %rax,%rax
	jmp .Lok
