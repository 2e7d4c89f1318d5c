// ps_1_2 — texm3x3pad, texm3x3vspec (eye ray from the w components of t1–t3).
ps_1_2
tex t0
texm3x3pad t1, t0_bx2
texm3x3pad t2, t0_bx2
texm3x3vspec t3, t0_bx2
mov r0, t3
