// expect: definition after the first instruction
// def/defi/defb come before the first arithmetic or texture instruction.
ps_2_0
mov r0, c0
def c1, 1.0, 0.0, 0.0, 1.0
mov oC0, r0
