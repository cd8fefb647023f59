/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Mutant: the LAM_U48 per-CPU limit cpu_task_size_max raised by a page,
 * past the guard page at the end of the user range, so a masked pointer
 * may name the first page of the kernel half: fails.
 */
.macro LOAD_GET_LIMIT
	mov %gs:cpu_task_size_max,%rdx
	add $4096,%rdx
.endm
.macro LOAD_PUT_LIMIT
	mov %gs:cpu_task_size_max,%rbx
	add $4096,%rbx
.endm
	.include "u48-task-size-max.inc"
