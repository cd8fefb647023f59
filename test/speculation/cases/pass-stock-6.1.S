/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stock 6.1: get_user masked by its one compare, put_user gated by it:
 * passes.
 */
	.include "user-access.inc"
	GET_USER_4_CHECK
	jae .Lbad
	GET_USER_4_TAIL

	PUT_USER_4_CHECK
	jae .Lpbad
	PUT_USER_4_TAIL
