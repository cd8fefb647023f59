/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The LAM edge that landed before the fix (the built lam-u57 kernel's
 * instructions): its limit is the per-CPU cpu_lam_user_end minus N, which
 * wraps (0 - N) without LAM, behind a branch of its own; mispredicting that
 * one branch reaches the access with any kernel pointer: fails.
 */
	.include "user-access.inc"
	GET_USER_4_CHECK
	jae .Llam
	GET_USER_4_TAIL
.Llam:
	mov %gs:cpu_lam_user_end,%rdx
	sub $3,%rdx
	jb .Lbad
	and %gs:cpu_untag_mask,%rax
	cmp %rdx,%rax
	jae .Lbad
	jmp .Lok

	PUT_USER_4_CHECK
	jae .Lplam
	PUT_USER_4_TAIL
.Lplam:
	mov %gs:cpu_lam_user_end,%rbx
	sub $3,%rbx
	jb .Lpbad
	and %gs:cpu_untag_mask,%rcx
	cmp %rbx,%rcx
	jae .Lpbad
	jmp .Lnocheck
