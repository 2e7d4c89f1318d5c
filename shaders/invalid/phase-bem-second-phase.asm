// expect: bem exists only in the first phase
// ps_1_4: bem only in phase 1.
ps_1_4
texld r0, t0
phase
texld r2, r0
bem r3.rg, r0, r2
mov r0, r3
