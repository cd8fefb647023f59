/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LAM_U48 with 5-level paging: the limit is the per-CPU cpu_task_size_max
 * minus (size - 1), loaded out of line with no branch of its own; the LAM
 * edge compares with the same limit: passes.
 */
.macro LOAD_GET_LIMIT
	mov %gs:cpu_task_size_max,%rdx
	sub $3,%rdx
.endm
.macro LOAD_PUT_LIMIT
	mov %gs:cpu_task_size_max,%rbx
	sub $3,%rbx
.endm
	.include "u48-task-size-max.inc"
