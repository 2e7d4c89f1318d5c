// ps_1_1 — bump mapping: tex texbem texbeml texreg2ar, with the
// _bx2 modifier on the texture result read by the arithmetic.
ps_1_1
tex t0
texbem t1, t0
texbeml t2, t0
texreg2ar t3, t0
mul r0, t1, t2
mad r0, t3_bx2, r0, v0
