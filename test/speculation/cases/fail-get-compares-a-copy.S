/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mutant: the untagged copy is compared, the tagged original accessed: fails
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
	mov %rax,%rcx
	and %gs:cpu_untag_mask,%rcx
	cmp %rdx,%rcx
	jb .Lok
	jmp .Lbad
.Lbad:
	xor %edx,%edx
	mov $-14,%rax
	ret
