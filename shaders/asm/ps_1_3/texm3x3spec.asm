// ps_1_3 — texm3x3pad, texm3x3spec with an eye-ray constant (c0).
ps_1_3
tex t0
texm3x3pad t1, t0_bx2
texm3x3pad t2, t0_bx2
texm3x3spec t3, t0_bx2, c0
mov r0, t3
