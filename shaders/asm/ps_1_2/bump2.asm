// ps_1_2 — texreg2ar (the ps_1_1 form, next to bump.asm's texreg2rgb) and texbem.
ps_1_2
tex t0
texreg2ar t1, t0
texbem t2, t0
mul r0, t1, t2
