#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# tools/lib/insn-diff.py OP LABEL_A LISTING_A VMLINUX_A LABEL_B LISTING_B VMLINUX_B
#   Compares two instruction listings of tools/lib/insn-trace.py (one
#   operation on two kernels): prints the instruction counts (kernel and
#   user), how many were LAM code, ITS return thunks and NOPs, then every
#   place where the executed instructions differ, as "function:
#   instruction" with addresses and large offsets folded (two builds place
#   them differently).  Exit 0.
# tools/lib/insn-diff.py --figures LISTING VMLINUX
#   Prints "TOTAL ITS NOPS UNTAG SLOW" for one listing: instructions, ITS
#   return thunks, NOPs, LAM untag instructions (reads of cpu_untag_mask:
#   untagged_addr()), LAM slow-path instructions (the rest of the LAM code:
#   the range checks of tagged pointers).
#
# LAM code: an instruction of a function named lam_*, *_lam_* (the slow
# path __lam_access_ok_slow, enable_lam_func...), or one that reads the
# per-CPU cpu_untag_mask or cpu_lam_user_end (untagged_addr(), the
# get_user/put_user slow paths).  An ITS return thunk: 6.1.176 turns a
# return in the lower half of a 64-byte cache line into a jump to
# its_return_thunk (Indirect Target Selection), so where a build's layout
# puts each return changes the count by one per return, LAM or not.
import difflib
import re
import subprocess
import sys

LINE = re.compile(r'^=> 0x([0-9a-f]+)(?: <([^>+]+)(?:\+\d+)?>)?:\s*(.*)$')
SYMREF = re.compile(r'0x[0-9a-f]+ <([^>+]+)(?:\+\d+)?>')
BIGHEX = re.compile(r'0x[0-9a-f]{5,}')
LAMFN = re.compile(r'(^|_)lam(_|$)')
PERCPU = ('cpu_untag_mask', 'cpu_lam_user_end')


def lam_percpu(vmlinux):
    """the %gs: operands of the LAM per-CPU variables in this build"""
    out = subprocess.run(['nm', vmlinux], capture_output=True, text=True,
                         check=True).stdout
    refs = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[2] in PERCPU:
            # absolute (%gs:0x1ae90) or RIP-relative, which gdb names
            refs['%%gs:%#x,' % int(f[0], 16)] = f[2]
            refs['<%s>' % f[2]] = f[2]
    return refs


def load(path, refs):
    """(sequence, kernel count, user count, LAM lines, ITS thunks, NOPs,
    untag count)"""
    seq, kern, user, lam, its, nops, untag = [], 0, 0, [], 0, 0, 0
    with open(path) as f:
        for raw in f:
            m = LINE.match(raw.rstrip('\n'))
            if not m:
                continue
            addr = int(m.group(1), 16)
            raw_insn = m.group(3)
            insn = BIGHEX.sub('N', SYMREF.sub(r'<\1>', raw_insn))
            insn = re.sub(r'\s+', ' ', insn).strip()
            if addr >= 1 << 63:
                kern += 1
                sym = m.group(2) or 'kernel'
                var = set(refs[r] for r in refs if r in raw_insn)
                if LAMFN.search(sym) or var:
                    lam.append(raw.rstrip('\n'))
                    if var == {'cpu_untag_mask'} and not LAMFN.search(sym):
                        untag += 1
                if sym == 'its_return_thunk':
                    its += 1
                if insn.startswith('nop') or insn.startswith('xchg %ax,%ax'):
                    nops += 1
            else:
                user += 1
                sym = 'user'
            seq.append('%s: %s' % (sym, insn))
    return seq, kern, user, lam, its, nops, untag


def main():
    if len(sys.argv) == 4 and sys.argv[1] == '--figures':
        seq, _, _, lam, its, nops, untag = load(sys.argv[2], lam_percpu(sys.argv[3]))
        print(len(seq), its, nops, untag, len(lam) - untag)
        return
    if len(sys.argv) != 8:
        sys.exit('usage: insn-diff.py OP LABEL_A LISTING_A VMLINUX_A LABEL_B LISTING_B VMLINUX_B')
    op, la, fa, va, lb, fb, vb = sys.argv[1:]
    a, ka, ua, lama, itsa, nopa, _ = load(fa, lam_percpu(va))
    b, kb, ub, lamb, itsb, nopb, _ = load(fb, lam_percpu(vb))
    print('%s: %s %d instructions (kernel %d, user %d), %s %d (kernel %d, user %d): %+d'
          % (op, la, len(a), ka, ua, lb, len(b), kb, ub, len(b) - len(a)))
    print('    LAM code %d / %d, ITS return thunks %d / %d, NOPs %d / %d;'
          ' without the thunks: %+d'
          % (len(lama), len(lamb), itsa, itsb, nopa, nopb,
             (len(b) - itsb) - (len(a) - itsa)))
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    shown = 0
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == 'equal':
            continue
        shown += 1
        if shown > 12:
            print('    ... (more differences)')
            break
        where = a[i1 - 1] if i1 > 0 else '(start)'
        print('    after  %s' % where)
        for x in a[i1:i2][:15]:
            print('    - %-6s %s' % (la, x))
        if i2 - i1 > 15:
            print('    - %-6s ... %d more' % (la, i2 - i1 - 15))
        for x in b[j1:j2][:15]:
            print('    + %-6s %s' % (lb, x))
        if j2 - j1 > 15:
            print('    + %-6s ... %d more' % (lb, j2 - j1 - 15))
    if not shown:
        print('    the same instructions, in the same order')


main()
