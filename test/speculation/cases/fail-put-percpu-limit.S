/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Mutant: put_user compares with a per-CPU limit: fails.
 */
	.include "user-access.inc"
	PUT_USER_4_CHECK
	jae .Lplam
	PUT_USER_4_TAIL
.Lplam:
	and %gs:cpu_untag_mask,%rcx
	cmp %gs:cpu_lam_user_end,%rcx
	jb .Lnocheck
	jmp .Lpbad
