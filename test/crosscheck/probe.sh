#!/bin/sh
# Guest side of tools/crosscheck-mainline (busybox sh): what the booted kernel
# and CPU are, as "probe: ..." lines.  Decides nothing; always exits 0.
echo "probe: kernel $(uname -r)"
flags=$(grep -m1 '^flags' /proc/cpuinfo)
has() { case " ${flags#*:} " in *" $1 "*) echo yes ;; *) echo no ;; esac; }
echo "probe: cpuinfo flags: lam=$(has lam) la57=$(has la57) pcid=$(has pcid)"
echo "probe: cmdline: $(cat /proc/cmdline)"
echo "probe: status: $(grep -E '^(THP_enabled|untag_mask|x86_Thread_features):' /proc/self/status | tr '\t\n' '  ')"
echo "probe: arch_status: $(tr '\t\n' '  ' </proc/self/arch_status 2>&1)"
echo "probe: vulnerabilities: $(grep -H . /sys/devices/system/cpu/vulnerabilities/* 2>/dev/null | sed 's|.*/||' | grep -v -i 'not affected' | tr '\n' ';')"
exit 0
