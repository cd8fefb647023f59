/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Mutant: put_user's LAM edge stores without a compare: fails.
 */
	.include "user-access.inc"
	PUT_USER_4_CHECK
	jae .Lplam
	PUT_USER_4_TAIL
.Lplam:
	and %gs:cpu_untag_mask,%rcx
	jmp .Lnocheck
