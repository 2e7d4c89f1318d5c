// fuzz-diff reproducer: texbeml scales all four channels by t0.b * LSCALE + LOFFSET.
ps_1_3
tex t0
texbeml t1, t0
mov r0, t1
