/*
 * Bare-metal LAM conformance guest: multiboot entry (32-bit), switch to
 * long mode with 4-level or (cmdline "la57" and CPUID LA57) 5-level paging,
 * exception stubs, probes that survive faults, and the ring-3 trampoline.
 */
#define MB_MAGIC 0x1badb002
#define MB_FLAGS 0x00000003

	.section .multiboot, "a"
	.align 4
	.long MB_MAGIC, MB_FLAGS, -(MB_MAGIC + MB_FLAGS)

	.section .text32, "ax"
	.code32
	.globl _start
_start:
	cli
	mov $stack_top, %esp
	mov %ebx, mb_info

	/* want LA57 if the multiboot command line says "la57" */
	xor %edi, %edi
	testl $4, (%ebx)
	jz 2f
	mov 16(%ebx), %esi
1:	movb (%esi), %al
	test %al, %al
	jz 2f
	cmpl $0x3735616c, (%esi)	/* "la57" */
	je 3f
	inc %esi
	jmp 1b
3:	mov $7, %eax
	xor %ecx, %ecx
	cpuid
	bt $16, %ecx			/* CPUID.(7,0):ECX[16] LA57 */
	jnc 2f
	mov $1, %edi
2:
	/* identity map of the first GiB with 2 MiB pages, user-accessible */
	xor %ecx, %ecx
4:	mov %ecx, %eax
	shl $21, %eax
	or $0x87, %eax			/* P | RW | US | PS */
	mov %eax, boot_pd(, %ecx, 8)
	movl $0, boot_pd + 4(, %ecx, 8)
	inc %ecx
	cmp $512, %ecx
	jne 4b
	movl $boot_pd + 7, boot_pdpt
	movl $boot_pdpt + 7, boot_pml4
	movl $boot_pml4 + 7, boot_pml5

	mov %cr4, %eax
	or $0x20, %eax			/* PAE */
	test %edi, %edi
	jz 5f
	or $0x1000, %eax		/* LA57 */
	mov %eax, %cr4
	mov $boot_pml5, %eax
	jmp 6f
5:	mov %eax, %cr4
	mov $boot_pml4, %eax
6:	mov %eax, %cr3
	mov %edi, la57_on

	mov $0xc0000080, %ecx		/* EFER.LME */
	rdmsr
	or $0x100, %eax
	wrmsr
	mov %cr0, %eax
	or $0x80010001, %eax		/* PG | WP | PE */
	mov %eax, %cr0
	lgdt gdt_ptr
	ljmp $0x08, $long_entry

	.text
	.code64
long_entry:
	mov $0x10, %ax
	mov %ax, %ds
	mov %ax, %es
	mov %ax, %ss
	xor %eax, %eax
	mov %ax, %fs
	mov %ax, %gs
	mov $stack_top, %rsp
	call kmain
7:	hlt
	jmp 7b

/* ---- exception entry ---------------------------------------------------- */
.macro ISR n
	.globl isr\n
isr\n:
	.if (\n == 8 || (\n >= 10 && \n <= 14) || \n == 17 || \n == 21 || \n == 29 || \n == 30)
	.else
	pushq $0
	.endif
	pushq $\n
	jmp isr_common
.endm

	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,128
	ISR \n
	.endr

isr_common:
	push %rax
	push %rbx
	push %rcx
	push %rdx
	push %rsi
	push %rdi
	push %rbp
	push %r8
	push %r9
	push %r10
	push %r11
	push %r12
	push %r13
	push %r14
	push %r15
	mov %rsp, %rdi
	cld
	call trap
	pop %r15
	pop %r14
	pop %r13
	pop %r12
	pop %r11
	pop %r10
	pop %r9
	pop %r8
	pop %rbp
	pop %rdi
	pop %rsi
	pop %rdx
	pop %rcx
	pop %rbx
	pop %rax
	add $16, %rsp
	iretq

	.section .rodata
	.globl isr_table
isr_table:
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	.quad isr\n
	.endr
	.text

/*
 * Probes: each one records where to resume (fix_rip/fix_rsp) and clears
 * fault_vec; a ring-0 fault makes trap() resume there with fault_vec set.
 */
.macro PROBE_BEGIN
	movq $-1, fault_vec(%rip)
	movq %rsp, fix_rsp(%rip)
	leaq 9f(%rip), %rax
	movq %rax, fix_rip(%rip)
	xor %eax, %eax
.endm
.macro PROBE_END
9:	movq $0, fix_rip(%rip)
	ret
.endm

	.globl probe_rd		/* u64 probe_rd(u64 addr) */
probe_rd:
	PROBE_BEGIN
	movq (%rdi), %rax
	PROBE_END

	.globl probe_wr		/* void probe_wr(u64 addr, u64 val) */
probe_wr:
	PROBE_BEGIN
	movq %rsi, (%rdi)
	PROBE_END

	.globl probe_lea	/* u64 probe_lea(u64 addr): addr + 8 by LEA */
probe_lea:
	PROBE_BEGIN
	leaq 8(%rdi), %rax
	PROBE_END

	.globl probe_call	/* u64 probe_call(u64 target) */
probe_call:
	PROBE_BEGIN
	call *%rdi
	PROBE_END

	.globl landing		/* branch target used through tagged pointers */
landing:
	movq $0x1a9d, %rax
	ret

	.globl probe_wrcr3
probe_wrcr3:
	PROBE_BEGIN
	mov %rdi, %cr3
	PROBE_END

	.globl probe_wrcr4
probe_wrcr4:
	PROBE_BEGIN
	mov %rdi, %cr4
	PROBE_END

	.globl probe_wrmsr	/* void probe_wrmsr(u32 msr, u64 val) */
probe_wrmsr:
	PROBE_BEGIN
	mov %edi, %ecx
	mov %rsi, %rax
	mov %rsi, %rdx
	shr $32, %rdx
	wrmsr
	PROBE_END

	.globl probe_invlpg
probe_invlpg:
	PROBE_BEGIN
	invlpg (%rdi)
	PROBE_END

/*
 * void probe_ldt_tagged(int idt, const void *newptr, void *readback,
 *                       const void *restore): LGDT/LIDT newptr, SGDT/SIDT
 * into readback, then reload restore.  Interrupts are off throughout.
 */
	.globl probe_ldt_tagged
probe_ldt_tagged:
	PROBE_BEGIN
	test %edi, %edi
	jnz 1f
	lgdt (%rsi)
	sgdt (%rdx)
	lgdt (%rcx)
	jmp 9f
1:	lidt (%rsi)
	sidt (%rdx)
	lidt (%rcx)
	PROBE_END

/*
 * u64 enter_user(u64 rip, u64 arg, u64 rsp): run rip(arg) at CPL 3 on
 * stack rsp until it executes INT 0x80 or faults; trap() then resumes
 * user_return on the saved kernel stack with RAX = the user's RAX.
 */
	.globl enter_user, user_return
enter_user:
	push %rbx
	push %rbp
	push %r12
	push %r13
	push %r14
	push %r15
	mov %rsp, kctx_rsp(%rip)
	pushq $0x1b		/* SS: user data, RPL 3 */
	pushq %rdx		/* RSP */
	pushq $0x2		/* RFLAGS, IF = 0 */
	pushq $0x23		/* CS: user code, RPL 3 */
	pushq %rdi		/* RIP */
	mov %rsi, %rdi
	xor %eax, %eax
	iretq
user_return:
	pop %r15
	pop %r14
	pop %r13
	pop %r12
	pop %rbp
	pop %rbx
	ret

/* ring-3 routines: argument in RDI, result in RAX, back by INT 0x80 */
	.globl u_read, u_write
u_read:
	movq (%rdi), %rax
	int $0x80
u_write:
	movq $0x5157ab1e, %rax
	movq %rax, (%rdi)
	xor %eax, %eax
	int $0x80

/* ---- probes of issue-9 rules: RMW, strings, saves, branches, returns ---- */
	.globl probe_lock_xadd	/* u64 probe_lock_xadd(u64 addr, u64 add): old */
probe_lock_xadd:
	PROBE_BEGIN
	mov %rsi, %rax
	lock xaddq %rax, (%rdi)
	PROBE_END

/* u64 probe_cx16(u64 addr, u64 old_lo, u64 old_hi, u64 new_lo, u64 new_hi): ZF */
	.globl probe_cx16
probe_cx16:
	push %rbx
	PROBE_BEGIN
	mov %rsi, %rax
	mov %rcx, %rbx
	mov %r8, %rcx
	lock cmpxchg16b (%rdi)
	setz %al
	movzbl %al, %eax
9:	movq $0, fix_rip(%rip)
	pop %rbx
	ret

	.globl probe_movsq	/* void probe_movsq(u64 dst, u64 src): 2 qwords */
probe_movsq:
	PROBE_BEGIN
	mov $2, %ecx
	cld
	rep movsq
	PROBE_END

	.globl probe_stosq	/* void probe_stosq(u64 dst, u64 val): 2 qwords */
probe_stosq:
	PROBE_BEGIN
	mov %rsi, %rax
	mov $2, %ecx
	cld
	rep stosq
	PROBE_END

	.globl probe_fxsave	/* void probe_fxsave(u64 addr) */
probe_fxsave:
	PROBE_BEGIN
	fxsave64 (%rdi)
	PROBE_END

	.globl probe_xsave	/* void probe_xsave(u64 addr): x87 and SSE state */
probe_xsave:
	PROBE_BEGIN
	mov $3, %eax
	xor %edx, %edx
	xsave64 (%rdi)
	PROBE_END

	.globl probe_wrfsbase, probe_wrgsbase
probe_wrfsbase:
	PROBE_BEGIN
	wrfsbase %rdi
	PROBE_END
probe_wrgsbase:
	PROBE_BEGIN
	wrgsbase %rdi
	PROBE_END

/*
 * u64 probe_to_user(u64 rip, u64 rsp, int how): leave ring 0 for rip at
 * CPL 3 by IRETQ (how 0), SYSRETQ (how 1) or IRETQ to compatibility mode
 * (how 2).  A ring-0 fault of the
 * IRETQ/SYSRETQ itself resumes at 9 (fault_vec, fault_rip); a fault in
 * ring 3 (or INT 0x80) resumes at user_return (user_vec).
 */
	.globl probe_to_user, iret_insn, sysret_insn
probe_to_user:
	push %rbx
	push %rbp
	push %r12
	push %r13
	push %r14
	push %r15
	mov %rsp, kctx_rsp(%rip)
	PROBE_BEGIN
	cmp $1, %edx
	je 1f
	mov $0x23, %eax		/* CS: user code 64, RPL 3 */
	cmp $2, %edx
	jne 2f
	mov $0x3b, %eax		/* how 2: user code 32, RPL 3 */
2:	pushq $0x1b		/* SS: user data, RPL 3 */
	pushq %rsi		/* RSP */
	pushq $0x2		/* RFLAGS, IF = 0 */
	pushq %rax		/* CS */
	pushq %rdi		/* RIP */
iret_insn:
	iretq
1:	mov %rdi, %rcx
	mov $0x2, %r11d
sysret_insn:
	sysretq
9:	movq $0, fix_rip(%rip)
	jmp user_return

/*
 * ring-3 routines for the branch rules: RDI = the target, RSI = a value;
 * each labelled instruction is where a fault must be reported.
 */
	.globl u_jmp, u_jmp_insn, u_call, u_call_insn, u_ret, u_ret_insn
	.globl u_pushpop, u_compat_read
u_jmp:
u_jmp_insn:
	jmp *%rdi
u_call:
u_call_insn:
	call *%rdi
	int $0x80
u_ret:
	push %rdi
u_ret_insn:
	ret
/* push and pop through RSP = RDI (a tagged stack top) */
u_pushpop:
	mov %rdi, %rsp
	pushq $0x5157ab1e
	popq %rax
	int $0x80

/* compatibility mode (CS 0x3b, L = 0, D = 1): a 32-bit load through EDI */
	.code32
u_compat_read:
	movl (%edi), %eax
	int $0x80
	.code64

/* ---- data --------------------------------------------------------------- */
	.data
	.align 16
	.globl gdt
gdt:
	.quad 0
	.quad 0x00af9a000000ffff	/* 0x08 kernel code 64 */
	.quad 0x00cf92000000ffff	/* 0x10 kernel data */
	.quad 0x00cff2000000ffff	/* 0x18 user data */
	.quad 0x00affa000000ffff	/* 0x20 user code 64 */
	.quad 0, 0			/* 0x28 TSS, filled in by kmain */
	.quad 0x00cffa000000ffff	/* 0x38 user code 32 (compatibility mode) */
gdt_end:
	.globl gdt_ptr
gdt_ptr:
	.word gdt_end - gdt - 1
	.quad gdt

	.globl mb_info, la57_on
mb_info:	.long 0
la57_on:	.long 0

	.bss
	.align 4096
boot_pml5:	.skip 4096
boot_pml4:	.skip 4096
boot_pdpt:	.skip 4096
boot_pd:	.skip 4096
	.skip 16384
	.globl stack_top
stack_top:
