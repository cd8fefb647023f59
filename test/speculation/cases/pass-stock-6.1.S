/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stock 6.1: get_user masked by its one compare, put_user gated by it: passes
 */
	.text
	.globl __get_user_4
__get_user_4:
	mov $0x7ffffffffffc,%rdx
	cmp %rdx,%rax
	jae .Lbad
.Lok:
	sbb %rdx,%rdx
	and %rdx,%rax
	stac
	movl (%rax),%edx
	xor %eax,%eax
	clac
	ret
.Lbad:
	xor %edx,%edx
	mov $-14,%rax
	ret
	.globl __put_user_4
__put_user_4:
	mov $0x7ffffffffffc,%rbx
	cmp %rbx,%rcx
	jae .Lpbad
.Lnocheck:
	endbr64
	stac
	movl %eax,(%rcx)
	xor %ecx,%ecx
	clac
	ret
.Lpbad:
	mov $-14,%ecx
	ret
