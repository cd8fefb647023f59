/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mutant: the mask comes from the flags of another instruction than the compare: fails
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
	stac
	movl (%rax),%edx
	xor %eax,%eax
	clac
	ret
.Llam:
	and %gs:cpu_untag_mask,%rax
	cmp %rdx,%rax
	test %rax,%rax
	jmp .Lok
.Lbad:
	xor %edx,%edx
	mov $-14,%rax
	ret
