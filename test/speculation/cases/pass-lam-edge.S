/* SPDX-License-Identifier: GPL-2.0 */
/*
 * the LAM edge as the overlay has it: untag, compare again with the same constant limit, which alone gates (and masks) the access: passes
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
	jb .Lok
	jmp .Lbad
.Lbad:
	xor %edx,%edx
	mov $-14,%rax
	ret
	.globl __put_user_4
__put_user_4:
	mov $0x7ffffffffffc,%rbx
	cmp %rbx,%rcx
	jae .Lplam
.Lnocheck:
	endbr64
	stac
	movl %eax,(%rcx)
	xor %ecx,%ecx
	clac
	ret
.Lplam:
	and %gs:cpu_untag_mask,%rcx
	cmp %rbx,%rcx
	jb .Lnocheck
	jmp .Lpbad
.Lpbad:
	mov $-14,%ecx
	ret
