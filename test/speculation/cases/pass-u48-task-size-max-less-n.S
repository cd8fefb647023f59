/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LAM_U48 with 5-level paging, the limit lowered by (size - 1) as stock
 * lowers its constants: the per-CPU cpu_task_size_max minus 3, loaded
 * with no branch of its own: passes.
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
