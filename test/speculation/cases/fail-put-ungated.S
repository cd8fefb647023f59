/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mutant: put_user's LAM edge stores without a compare: fails
 */
	.text
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
	jmp .Lnocheck
.Lpbad:
	mov $-14,%ecx
	ret
