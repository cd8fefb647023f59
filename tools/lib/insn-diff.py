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
#   Prints "TOTAL ITS NOPS UNTAG OTHER" for one listing: instructions, ITS
#   return thunks, NOPs, reads of cpu_untag_mask outside lam_* functions
#   (the AND of untagged_addr() and of the tagged-pointer edges), and the
#   rest of the LAM code (lam_* functions, reads of cpu_task_size_max).
# tools/lib/insn-diff.py --edges UNTAGGED TAGGED VMLINUX
#   The tagged-pointer edges of one operation: its listings with untagged
#   and with tagged pointers, on the same kernel and CPU (LAM enabled).
#   Prints one line "EDGES UNTAG_EDGES LARGEST TOTAL OVER STRAY UREADS
#   TREADS EDGE_READS" and then one line per kind of edge (function,
#   extra instructions, how many, the first instructions).  Exit 0.
#
# LAM code: an instruction of a function named lam_*, *_lam_* (enable_lam_func,
# the policy...), or one that reads the per-CPU cpu_untag_mask (the AND of
# untagged_addr() and of the tagged-pointer edges of access_ok(),
# get_user() and put_user()) or cpu_task_size_max (the limit of user range
# checks under LAM_U48 with 5-level paging, on a CPU with LAM).  An ITS
# return thunk: 6.1.176 turns a return in the lower half of a 64-byte cache
# line into a jump to its_return_thunk (Indirect Target Selection), so where
# a build's layout puts each return changes the count by one per return,
# LAM or not.
#
# Tagged-pointer edges.  access_ok() and __get_user_N/__put_user_N check a
# pointer as a kernel without LAM does; only a pointer that this check
# refuses is ANDed with cpu_untag_mask, inline, and checked again.  That
# AND is the same instruction as untagged_addr()'s (the same asm), so the
# instruction alone does not tell an edge from an untagged_addr() site.
# The two listings do: the kernel is the same, so is every address, and
# the path differs only where a tag made it differ.  A shortest edit
# script from the untagged listing to the tagged one, over the addresses
# of the executed instructions (Myers' algorithm), aligns them; every
# contiguous block that has instructions only the tagged listing has is
# one edge.  Addresses, not folded text: folded jumps all read "jae <f>",
# and difflib's longest-block-first matching then misaligned the
# iterations of a loop (readv-8's eight iovecs) by one edge's worth.  An
# edge's cost is what it adds to the untagged path: the tagged side's
# instructions less the untagged side's (a pure insertion: its length).
# An edge "untags" if it reads cpu_untag_mask; it belongs to the function
# of that read.  An edge also untags if, with no read of its own, it
# reuses one: the same function read cpu_untag_mask earlier, with no call
# or return in between (get_futex_key(): untagged_addr() of the futex
# address, and GCC gives access_ok()'s second compare that same AND's
# result, since both are one asm with one input).
#   EDGES, UNTAG_EDGES   the edges, those that untag
#   LARGEST, TOTAL       the largest and the total cost of the edges
#   OVER                 untagging edges that cost more than 4 instructions
#                        (more than 3 in __get_user_*/__put_user_*: AND,
#                        CMP, JB back to the access)
#   STRAY                reads of cpu_untag_mask by the untagged listing
#                        that are edges: in a block only it has, or at the
#                        address of a read inside a tagged edge (an edge
#                        that the untagged listing also runs at one site
#                        lines up with the tagged listing's and is caught
#                        by its address)
#   UREADS, TREADS       reads of cpu_untag_mask in each listing
#   EDGE_READS           those reads inside the tagged listing's edges
# With no stray read, UREADS = TREADS - EDGE_READS: the untagged listing
# reads the mask only where the tagged one does outside its edges, at the
# untagged_addr() sites that every pointer pays.  An edge that does not
# untag (the tags changed the path elsewhere) is counted and shown, not
# limited.  No third listing (LAM off on the same CPU) is needed: under
# LAM_U57 an edge's second check is the first one on an untagged pointer,
# so an untagged pointer that took an edge would be refused and the call
# would fail.  The regression to look for is an untag that every pointer
# pays before a range check: it runs in both listings, so it is no edge,
# and an operation whose ranges are all checked that way has no untagging
# edge (the control fails).  Not seen here: such an untag at one site of
# an operation whose other sites keep their edges (on a CPU without LAM it
# is one more patched-in NOP, which the lam-ctl check allows, as it allows
# untagged_addr()'s).
import difflib
import re
import subprocess
import sys

LINE = re.compile(r'^=> 0x([0-9a-f]+)(?: <([^>+]+)(?:\+\d+)?>)?:\s*(.*)$')
SYMREF = re.compile(r'0x[0-9a-f]+ <([^>+]+)(?:\+\d+)?>')
BIGHEX = re.compile(r'0x[0-9a-f]{5,}')
LAMFN = re.compile(r'(^|_)lam(_|$)')
GETPUT = re.compile(r'^__(get|put)_user_')
PERCPU = ('cpu_untag_mask', 'cpu_task_size_max')
MASK = 'cpu_untag_mask'
# Instructions an untagging edge may add over the untagged path: the
# floor, 4 in access_ok() (copy the pointer, AND it with the mask, compare
# with the first check's limit - size, branch back: one asm goto, so that
# GCC cannot end the edge "jb <fail>; jmp <ok>" or hoist the failure's
# return value into it) and 3 in __get_user_N/__put_user_N.
EDGE_MAX, GETPUT_EDGE_MAX = 4, 3


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


class Listing:
    """one listing: seq (folded "function: instruction" lines), and per
    line its address, function and the LAM per-CPU variables it reads;
    kern, user, lam (the LAM lines), its, nops, untag counts"""

    def __init__(self, path, refs):
        self.seq, self.addr, self.fn, self.vars = [], [], [], []
        self.kern = self.user = self.its = self.nops = self.untag = 0
        self.lam = []
        with open(path) as f:
            for raw in f:
                m = LINE.match(raw.rstrip('\n'))
                if m:
                    self.add(raw.rstrip('\n'), m, refs)

    def add(self, raw, m, refs):
        addr = int(m.group(1), 16)
        raw_insn = m.group(3)
        insn = BIGHEX.sub('N', SYMREF.sub(r'<\1>', raw_insn))
        insn = re.sub(r'\s+', ' ', insn).strip()
        var = set()
        if addr >= 1 << 63:
            self.kern += 1
            sym = m.group(2) or 'kernel'
            var = set(refs[r] for r in refs if r in raw_insn)
            if LAMFN.search(sym) or var:
                self.lam.append(raw)
                if var == {MASK} and not LAMFN.search(sym):
                    self.untag += 1
            if sym == 'its_return_thunk':
                self.its += 1
            if insn.startswith('nop') or insn.startswith('xchg %ax,%ax'):
                self.nops += 1
        else:
            self.user += 1
            sym = 'user'
        self.seq.append('%s: %s' % (sym, insn))
        self.addr.append(addr)
        self.fn.append(sym)
        self.vars.append(sorted(var))

    def show(self, i1, i2):
        """lines [i1, i2) as one line: the function named where it
        changes, the LAM per-CPU variables by name"""
        out, last = [], None
        for k in range(i1, i2):
            insn = self.seq[k].split(': ', 1)[1]
            if len(self.vars[k]) == 1 and '<' + self.vars[k][0] + '>' not in insn:
                insn = insn.replace('%gs:N', '%gs:' + self.vars[k][0])
            out.append(insn if self.fn[k] == last else '%s: %s' % (self.fn[k], insn))
            last = self.fn[k]
        return '; '.join(out)

    def reused_read(self, j):
        """the read of cpu_untag_mask that line j's function made last,
        with no call or return in between (every line since in that
        function), or None"""
        k = j - 1
        while k >= 0 and self.fn[k] == self.fn[j] and self.addr[k] >= 1 << 63:
            if MASK in self.vars[k]:
                return k
            k -= 1
        return None

    def mask_reads(self, i1=0, i2=None):
        """indexes of the reads of cpu_untag_mask in [i1, i2)"""
        return [k for k in range(i1, len(self.seq) if i2 is None else i2)
                if MASK in self.vars[k]]


def diff(op, la, fa, va, lb, fb, vb):
    a, b = Listing(fa, lam_percpu(va)), Listing(fb, lam_percpu(vb))
    print('%s: %s %d instructions (kernel %d, user %d), %s %d (kernel %d, user %d): %+d'
          % (op, la, len(a.seq), a.kern, a.user, lb, len(b.seq), b.kern, b.user,
             len(b.seq) - len(a.seq)))
    print('    LAM code %d / %d, ITS return thunks %d / %d, NOPs %d / %d;'
          ' without the thunks: %+d'
          % (len(a.lam), len(b.lam), a.its, b.its, a.nops, b.nops,
             (len(b.seq) - b.its) - (len(a.seq) - a.its)))
    sm = difflib.SequenceMatcher(None, a.seq, b.seq, autojunk=False)
    shown = 0
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == 'equal':
            continue
        shown += 1
        if shown > 12:
            print('    ... (more differences)')
            break
        where = a.seq[i1 - 1] if i1 > 0 else '(start)'
        print('    after  %s' % where)
        for x in a.seq[i1:i2][:15]:
            print('    - %-6s %s' % (la, x))
        if i2 - i1 > 15:
            print('    - %-6s ... %d more' % (la, i2 - i1 - 15))
        for x in b.seq[j1:j2][:15]:
            print('    + %-6s %s' % (lb, x))
        if j2 - j1 > 15:
            print('    + %-6s ... %d more' % (lb, j2 - j1 - 15))
    if not shown:
        print('    the same instructions, in the same order')


def blocks(a, b):
    """the blocks (i1, i2, j1, j2) where a[i1:i2] and b[j1:j2] differ, of
    a shortest edit script from a to b (Myers' O(ND) algorithm: D, the
    number of instructions that differ, is small; memory O(D^2))"""
    n, m = len(a), len(b)
    off = n + m + 1
    v, trace = [0] * (2 * off + 2), []
    for d in range(n + m + 1):
        trace.append(v[off - d - 1:off + d + 2])    # k = -d-1..d+1
        for k in range(-d, d + 1, 2):
            if k == -d or (k != d and v[off + k - 1] < v[off + k + 1]):
                x = v[off + k + 1]
            else:
                x = v[off + k - 1] + 1
            y = x - k
            while x < n and y < m and a[x] == b[y]:
                x, y = x + 1, y + 1
            v[off + k] = x
            if x >= n and y >= m:
                break
        else:
            continue
        break
    # back from (n, m): the matched pairs, last first
    x, y, same = n, m, []
    for d in range(len(trace) - 1, -1, -1):
        w, k = trace[d], x - y
        if k == -d or (k != d and w[k - 1 + d + 1] < w[k + 1 + d + 1]):
            pk = k + 1
        else:
            pk = k - 1
        px = w[pk + d + 1]
        py = px - pk
        while x > px and y > py:
            x, y = x - 1, y - 1
            same.append((x, y))
        x, y = px, py
    out, i, j = [], 0, 0
    for x, y in reversed([(n, m)] + same):
        if (x, y) != (i, j):
            out.append((i, x, j, y))
        i, j = x + 1, y + 1
    return out


def edges(fu, ft, vmlinux):
    refs = lam_percpu(vmlinux)
    u, t = Listing(fu, refs), Listing(ft, refs)
    found, stray = [], set()
    for i1, i2, j1, j2 in blocks(u.addr, t.addr):
        stray.update(u.mask_reads(i1, i2))
        if j2 > j1:
            found.append((j1, j2, (j2 - j1) - (i2 - i1), t.mask_reads(j1, j2)))
    edge_addrs = set(t.addr[k] for e in found for k in e[3])
    stray.update(k for k in u.mask_reads() if u.addr[k] in edge_addrs)
    kinds, over, untagging = {}, 0, 0
    for j1, j2, extra, reads in found:
        fn = t.fn[reads[0]] if reads else t.fn[j1]
        reuse = None if reads else t.reused_read(j1)
        limit = None
        if reads or reuse is not None:
            untagging += 1
            limit = GETPUT_EDGE_MAX if GETPUT.match(fn) else EDGE_MAX
        if limit is not None and extra > limit:
            over += 1
        how = ' (no untag)' if limit is None else ' (at most %d)' % limit
        if reuse is not None:
            how = (' (at most %d; reuses the AND %d instructions before: %s)'
                   % (limit, j1 - reuse, t.show(reuse, reuse + 1)))
        key = (fn, extra, how, t.show(j1, min(j2, j1 + 10)), j2 - j1 > 10)
        kinds[key] = kinds.get(key, 0) + 1
    costs = [e[2] for e in found]
    print(len(found), untagging, max(costs, default=0),
          sum(costs), over, len(stray), len(u.mask_reads()), len(t.mask_reads()),
          sum(len(e[3]) for e in found))
    for (fn, extra, how, first, more), n in kinds.items():
        print('%d edge%s in %s: %+d instructions%s: %s%s'
              % (n, '' if n == 1 else 's', fn, extra, how,
                 first, '; ...' if more else ''))
    for k in sorted(stray):
        print('stray read with untagged pointers: %s at %#x' % (u.seq[k], u.addr[k]))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == '--figures':
        a = Listing(sys.argv[2], lam_percpu(sys.argv[3]))
        print(len(a.seq), a.its, a.nops, a.untag, len(a.lam) - a.untag)
        return
    if len(sys.argv) == 5 and sys.argv[1] == '--edges':
        edges(*sys.argv[2:])
        return
    if len(sys.argv) != 8:
        sys.exit('usage: insn-diff.py OP LABEL_A LISTING_A VMLINUX_A LABEL_B LISTING_B VMLINUX_B\n'
                 '       insn-diff.py --figures LISTING VMLINUX\n'
                 '       insn-diff.py --edges UNTAGGED TAGGED VMLINUX')
    diff(*sys.argv[1:])


main()
