# SPDX-License-Identifier: GPL-2.0
# tools/lib/insn-trace.py: gdb script of tools/lam-insn-listing.
#
# Run as: gdb -batch -nx -ex 'file VMLINUX' -x insn-trace.py, with
#   LAM_TRACE_PORT   QEMU's debugger stub (lam-run --gdb PORT: guest stopped)
#   LAM_TRACE_BEGIN, LAM_TRACE_END   the addresses of test/lam_bench's
#                    lam_trace_begin() and lam_trace_end() (a static binary)
#   LAM_TRACE_OUT    where to write the listing
# Lets the guest run until lam_bench --trace enters lam_trace_begin(), then
# single-steps every instruction, user and kernel, up to the entry of
# lam_trace_end(), writing one "x/i $pc" line per executed instruction.
# QEMU's stub steps with interrupts and timers masked, so the listing is
# the operation's own path.  A step now and then returns without executing
# anything (the same pc again, not a rep string instruction): such a step
# is not an instruction and is not listed (the count of them ends the
# listing).  Exit status 0 only if the end marker was seen.
import os
import time

import gdb

LIMIT = 200000


def reg(name):
    return int(gdb.parse_and_eval('$' + name)) & (2**64 - 1)


def step():
    gdb.execute('stepi', to_string=True)


def main():
    port = os.environ['LAM_TRACE_PORT']
    out = open(os.environ['LAM_TRACE_OUT'], 'w')
    gdb.execute('set pagination off')
    gdb.execute('set confirm off')
    for _ in range(150):
        try:
            gdb.execute('target remote 127.0.0.1:' + port, to_string=True)
            break
        except gdb.error:
            time.sleep(0.2)
    else:
        raise gdb.GdbError('no debugger stub on port ' + port)
    begin = int(os.environ['LAM_TRACE_BEGIN'], 0)
    end = int(os.environ['LAM_TRACE_END'], 0)
    gdb.execute('hbreak *%#x' % begin, to_string=True)
    gdb.execute('continue', to_string=True)
    if reg('pc') != begin:
        raise gdb.GdbError('stopped at %#x, not at lam_trace_begin' % reg('pc'))
    gdb.execute('delete', to_string=True)
    n = idle = 0
    last_pc, last_rep, last_rcx = None, False, None
    while True:
        pc = reg('pc')
        if pc == end:
            break
        rcx = reg('rcx')
        # the same pc again: one more iteration of a rep instruction (its
        # count moved), or a step that executed nothing
        if pc == last_pc and not (last_rep and rcx != last_rcx):
            idle += 1
        else:
            line = gdb.execute('x/i $pc', to_string=True)
            out.write(line)
            n += 1
            last_rep = '\trep' in line
        last_pc, last_rcx = pc, rcx
        step()
        if n + idle > LIMIT:
            raise gdb.GdbError('no end marker within %d steps' % LIMIT)
    out.write('END %d instructions, %d steps that executed none\n' % (n, idle))
    out.close()
    gdb.execute('kill', to_string=True)


try:
    main()
except Exception as e:  # any failure: a message and a non-zero exit
    print('insn-trace: %s' % e)
    gdb.execute('quit 1')
