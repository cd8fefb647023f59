/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Mutant: the LAM_U48 per-CPU limit cpu_task_size_max used
 * without the "- (size - 1)": a 4-byte access that starts in the
 * last 3 bytes below the limit would pass its check: fails.
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
	jmp .Lpcheck
