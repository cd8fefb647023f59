/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LAM_U48 with 5-level paging: the limit is the per-CPU cpu_task_size_max
 * as it is, loaded with no branch of its own (it lies a guard page below
 * the end of its mode's range, so it needs no "- (size - 1)"); the LAM
 * edge compares with the same limit: passes.
 */
.macro LOAD_GET_LIMIT
	.byte 0x66
	mov %gs:cpu_task_size_max,%rdx
.endm
.macro LOAD_PUT_LIMIT
	.byte 0x66
	mov %gs:cpu_task_size_max,%rbx
.endm
	.include "u48-task-size-max.inc"
