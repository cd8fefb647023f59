/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Mutant: the LAM_U48 per-CPU limit cpu_task_size_max used without the
 * "- (size - 1)": a 4-byte access that starts in the last 3 bytes below
 * the limit would pass its check: fails.
 */
.macro LOAD_GET_LIMIT
	mov %gs:cpu_task_size_max,%rdx
.endm
.macro LOAD_PUT_LIMIT
	mov %gs:cpu_task_size_max,%rbx
.endm
	.include "u48-task-size-max.inc"
