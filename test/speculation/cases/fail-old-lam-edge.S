/* SPDX-License-Identifier: GPL-2.0 */
/*
 * the LAM edge that landed before the fix: its limit is a per-CPU value minus N (0 - N wraps without LAM) guarded by a branch of its own: fails
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
	mov %gs:cpu_lam_user_end,%rdx
	sub $3,%rdx
	jb .Lbad
	and %gs:cpu_untag_mask,%rax
	cmp %rdx,%rax
	jae .Lbad
	jmp .Lok
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
	mov %gs:cpu_lam_user_end,%rbx
	sub $3,%rbx
	jb .Lpbad
	and %gs:cpu_untag_mask,%rcx
	cmp %rbx,%rcx
	jae .Lpbad
	jmp .Lnocheck
.Lpbad:
	mov $-14,%ecx
	ret
