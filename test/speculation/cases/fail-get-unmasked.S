/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mutant: the LAM edge jumps past the mask: fails
 */
	.text
	.globl __get_user_4
__get_user_4:
	mov $0x7ffffffffffc,%rdx
	cmp %rdx,%rax
	jae .Llam
.Lok:
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
	jmp .Lbad
.Lbad:
	xor %edx,%edx
	mov $-14,%rax
	ret
