// SPDX-License-Identifier: GPL-2.0
/*
 * lam-demo: shows, in plain words, what this CPU and this kernel do with
 * Intel LAM (linear address masking).  Runs in the guest as /bin/lam-demo.
 * Static, no dependencies beyond libc; exits 0 unless something unexpected
 * (not merely "no LAM") happens.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define ARCH_GET_UNTAG_MASK	0x4001
#define ARCH_ENABLE_TAGGED_ADDR	0x4002
#define ARCH_GET_MAX_TAG_BITS	0x4003

#define TAG_BITS 6

static const char *errname(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case ENODEV: return "ENODEV";
	case EBUSY: return "EBUSY";
	case EPERM: return "EPERM";
	case EFAULT: return "EFAULT";
	case ENOSYS: return "ENOSYS";
	case ENOMEM: return "ENOMEM";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	default: return "E?";
	}
}

static long arch_prctl(int code, unsigned long arg)
{
	return syscall(SYS_arch_prctl, code, arg);
}

static void explain(int e)
{
	switch (e) {
	case ENODEV: printf(" (this CPU has no LAM)"); break;
	case EINVAL: printf(" (the kernel does not know this arch_prctl: no LAM support built in, or bad argument)"); break;
	case EBUSY: printf(" (LAM already on or inherited, a vfork child, or a device shares the page tables)"); break;
	case EPERM: printf(" (the kernel's lam= policy refuses LAM: see its 'x86/lam:' boot line)"); break;
	}
}

/* print the lines of FILE that start with PREFIX, or say there are none */
static void grep_file(const char *file, const char *prefix)
{
	char line[512];
	int found = 0;
	FILE *f = fopen(file, "r");

	if (!f) {
		printf("  %s: cannot open: %s\n", file, strerror(errno));
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, prefix, strlen(prefix))) {
			printf("  %s: %s", file, line);
			found = 1;
		}
	}
	fclose(f);
	if (!found)
		printf("  %s: no '%s' line\n", file, prefix);
}

static int cpuinfo_has_lam(void)
{
	char line[4096];
	int found = 0;
	FILE *f = fopen("/proc/cpuinfo", "r");

	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		for (char *t = strtok(line, " \t\n"); t; t = strtok(NULL, " \t\n"))
			if (!strcmp(t, "lam"))
				found = 1;
	}
	fclose(f);
	return found;
}

/*
 * lam-demo [--expect-lam]: prints what LAM does here and exits 0.  With
 * --expect-lam (make runs it so on the LAM emulator) it exits 1 unless LAM
 * was enabled and both the tagged load and the tagged read() worked.
 */
int main(int argc, char **argv)
{
	unsigned int a, b, c, d;
	unsigned long mask = 0, bits = 0;
	long r;
	int cpu_lam = 0, enabled = 0, e, load_ok = 0, read_ok = 0, expect = 0;

	if (argc == 2 && !strcmp(argv[1], "--expect-lam")) {
		expect = 1;
	} else if (argc != 1) {
		fprintf(stderr, "usage: lam-demo [--expect-lam]\n");
		return 2;
	}
	static volatile char target = 'x';
	char *tagged;

	setvbuf(stdout, NULL, _IONBF, 0);
	printf("== lam-demo: Intel LAM, what the CPU and the kernel say ==\n");

	if (__get_cpuid_count(7, 1, &a, &b, &c, &d)) {
		cpu_lam = !!(a & (1u << 26));
		printf("CPU:    CPUID.(7,1):EAX bit 26 (LAM) = %d -> the CPU %s LAM\n",
		       cpu_lam, cpu_lam ? "has" : "does not have");
	} else {
		printf("CPU:    CPUID leaf 7 subleaf 1 not available -> no LAM\n");
	}
	e = cpuinfo_has_lam();
	printf("        /proc/cpuinfo flags %s 'lam'%s\n",
	       e > 0 ? "contain" : e == 0 ? "do not contain" : "unreadable:",
	       e > 0 ? " (the kernel uses LAM)" : e == 0 ? " (the kernel does not use LAM)" : "");

	r = arch_prctl(ARCH_GET_MAX_TAG_BITS, (unsigned long)&bits);
	e = errno;
	if (r == 0)
		printf("Kernel: ARCH_GET_MAX_TAG_BITS -> %lu tag bit(s) available\n", bits);
	else {
		printf("Kernel: ARCH_GET_MAX_TAG_BITS -> -1 %s", errname(e));
		explain(e);
		printf("\n");
	}

	r = arch_prctl(ARCH_GET_UNTAG_MASK, (unsigned long)&mask);
	e = errno;
	if (r == 0)
		printf("        ARCH_GET_UNTAG_MASK  -> %#018lx\n", mask);
	else {
		printf("        ARCH_GET_UNTAG_MASK  -> -1 %s", errname(e));
		explain(e);
		printf("\n");
	}

	r = arch_prctl(ARCH_ENABLE_TAGGED_ADDR, TAG_BITS);
	e = errno;
	if (r == 0) {
		enabled = 1;
		printf("        ARCH_ENABLE_TAGGED_ADDR(%d) -> 0: tagged addresses enabled\n", TAG_BITS);
	} else {
		printf("        ARCH_ENABLE_TAGGED_ADDR(%d) -> -1 %s", TAG_BITS, errname(e));
		explain(e);
		printf("\n");
	}
	if (arch_prctl(ARCH_GET_UNTAG_MASK, (unsigned long)&mask) == 0)
		printf("        untag mask now       -> %#018lx\n", mask);

	grep_file("/proc/self/arch_status", "untag_mask");
	grep_file("/proc/self/status", "untag_mask");

	/* a pointer with tag 0x2a in bits 57..62 (U57 layout) */
	tagged = (char *)((uintptr_t)&target | (0x2aUL << 57));
	printf("Access: reading through tagged pointer %p (really %p) in a child...\n",
	       (void *)tagged, (void *)&target);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		char v = *(volatile char *)tagged;
		_exit(v == 'x' ? 0 : 1);
	}
	int st = 0;
	if (pid < 0 || waitpid(pid, &st, 0) < 0) {
		printf("        fork/wait failed: %s\n", strerror(errno));
	} else if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
		load_ok = enabled;
		printf("        worked: the CPU ignored the tag%s\n", enabled ? "" : " (unexpected without LAM enabled!)");
	} else if (WIFSIGNALED(st)) {
		printf("        the child was killed by %s%s\n", WTERMSIG(st) == SIGSEGV ? "SIGSEGV" : strsignal(WTERMSIG(st)),
		       enabled ? " (unexpected: LAM is enabled!)" : ": a tagged pointer is a non-canonical address without LAM");
	} else {
		printf("        the child exited with status %d\n", WEXITSTATUS(st));
	}

	/* the kernel must untag user pointers passed to syscalls */
	char buf[8] = { 0 };
	char *tbuf = (char *)((uintptr_t)buf | (0x2aUL << 57));
	int fd = open("/proc/self/comm", O_RDONLY);
	if (fd < 0) {
		printf("Syscall: open /proc/self/comm: %s\n", strerror(errno));
	} else {
		r = read(fd, tbuf, sizeof(buf) - 1);
		e = errno;
		read_ok = r > 0 && enabled;
		if (r >= 0)
			printf("Syscall: read() into tagged buffer %p -> %ld bytes (\"%.*s\"): the kernel untagged the pointer\n",
			       (void *)tbuf, r, (int)strcspn(buf, "\n"), buf);
		else
			printf("Syscall: read() into tagged buffer %p -> -1 %s%s\n", (void *)tbuf, errname(e),
			       e == EFAULT ? (enabled ? " (unexpected: LAM is enabled!)" : " (tagged pointers are not accepted without LAM)") : "");
		close(fd);
	}
	printf("== lam-demo: done (LAM %s for this process) ==\n", enabled ? "enabled" : "not enabled");
	if (expect && !(enabled && load_ok && read_ok)) {
		printf("lam-demo: --expect-lam: LAM %s, tagged load %s, tagged read() %s\n",
		       enabled ? "enabled" : "NOT enabled", load_ok ? "worked" : "FAILED",
		       read_ok ? "worked" : "FAILED");
		return 1;
	}
	return 0;
}
