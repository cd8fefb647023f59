/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The LAM edge as the overlay has it: untag, compare again with the same
 * constant limit, which alone gates (and, in get_user, masks) the access:
 * passes.
 */
	.include "user-access.inc"
	GET_USER_4_CHECK
	jae .Llam
	GET_USER_4_TAIL
.Llam:
	and %gs:cpu_untag_mask,%rax
	cmp %rdx,%rax
	jb .Lok
	jmp .Lbad

	PUT_USER_4_CHECK
	jae .Lplam
	PUT_USER_4_TAIL
.Lplam:
	and %gs:cpu_untag_mask,%rcx
	cmp %rbx,%rcx
	jb .Lnocheck
	jmp .Lpbad
