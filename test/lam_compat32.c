// SPDX-License-Identifier: GPL-2.0
/*
 * The 32-bit (compat) process of lam_compat: freestanding i386 code, built
 * with gcc -m32 -nostdlib (no 32-bit libc needed) and embedded in
 * lam_compat, which runs it from a memfd.  Through int $0x80 it asks for
 * the three LAM arch_prctls, prints one line with their results on stdout:
 *
 *   compat32 get_untag_mask=R enable=R get_max_tag_bits=R
 *
 * (R: the raw return value, -errno on failure), then stops itself with
 * SIGSTOP so that its parent can look at it (/proc, ptrace), and exits 0
 * once continued.
 */
#define NR_exit		1
#define NR_write	4
#define NR_getpid	20
#define NR_kill		37
#define NR_arch_prctl	384
#define SIGSTOP		19

#define ARCH_GET_UNTAG_MASK	0x4001
#define ARCH_ENABLE_TAGGED_ADDR	0x4002
#define ARCH_GET_MAX_TAG_BITS	0x4003

static long sys3(long nr, long a, long b, long c)
{
	long r;

	__asm__ volatile("int $0x80"
			 : "=a"(r)
			 : "a"(nr), "b"(a), "c"(b), "d"(c)
			 : "memory");
	return r;
}

static char line[128];
static int len;

static void put(const char *s)
{
	while (*s)
		line[len++] = *s++;
}

static void put_num(long v)
{
	char d[16];
	int n = 0;

	if (v < 0) {
		line[len++] = '-';
		v = -v;
	}
	do {
		d[n++] = '0' + v % 10;
		v /= 10;
	} while (v);
	while (n)
		line[len++] = d[--n];
}

/* 8 bytes: a 64-bit kernel would write a whole unsigned long here */
static unsigned long long dest[2];

void lam_compat32_main(void)
{
	long r;

	put("compat32 get_untag_mask=");
	put_num(sys3(NR_arch_prctl, ARCH_GET_UNTAG_MASK, (long)dest, 0));
	put(" enable=");
	put_num(sys3(NR_arch_prctl, ARCH_ENABLE_TAGGED_ADDR, 6, 0));
	put(" get_max_tag_bits=");
	put_num(sys3(NR_arch_prctl, ARCH_GET_MAX_TAG_BITS, (long)dest, 0));
	put("\n");
	r = sys3(NR_write, 1, (long)line, len);
	sys3(NR_kill, sys3(NR_getpid, 0, 0, 0), SIGSTOP, 0);
	sys3(NR_exit, r == len ? 0 : 1, 0, 0);
	for (;;)
		;
}

/* the entry point: a 16-byte aligned stack, then the C code */
__asm__(".text\n"
	".globl _start\n"
	"_start:\n"
	"	andl $-16, %esp\n"
	"	call lam_compat32_main\n"
	"	hlt\n");
