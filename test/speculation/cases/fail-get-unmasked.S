/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Mutant: the LAM edge jumps past the mask: fails.
 */
	.include "user-access.inc"
	GET_USER_4_CHECK
	jae .Llam
	sbb %rdx,%rdx
	and %rdx,%rax
.Lmasked:
	stac
	movl (%rax),%edx
	xor %eax,%eax
	clac
	ret
.Llam:
	and %gs:cpu_untag_mask,%rax
	cmp %rdx,%rax
	jb .Lmasked
	mov $-14,%rax
	ret
