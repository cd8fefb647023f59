/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LAM_U48 with 5-level paging: the limit is the per-CPU cpu_task_size_max
 * minus (size - 1), loaded out of line with no branch of its own; the LAM
 * edge compares with the same limit: passes.
 */
	.text
	.globl __get_user_4
__get_user_4:
	jmp .Llimit
.Lcheck:
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
.Lbad:
	xor %edx,%edx
	mov $-14,%rax
	ret
.Llam:
	and %gs:cpu_untag_mask,%rax
	cmp %rdx,%rax
	jb .Lok
	jmp .Lbad
.Llimit:
	mov %gs:cpu_task_size_max,%rdx
	sub $3,%rdx
	jmp .Lcheck

	.globl __put_user_4
__put_user_4:
	jmp .Lplimit
.Lpcheck:
	cmp %rbx,%rcx
	jae .Lplam
.Lnocheck:
	stac
	movl %eax,(%rcx)
	xor %ecx,%ecx
	clac
	ret
.Lpbad:
	mov $-14,%ecx
	ret
.Lplam:
	and %gs:cpu_untag_mask,%rcx
	cmp %rbx,%rcx
	jb .Lnocheck
	jmp .Lpbad
.Lplimit:
	mov %gs:cpu_task_size_max,%rbx
	sub $3,%rbx
	jmp .Lpcheck
