// ps_1_2 — bump mapping: tex texbem texbeml texreg2ar texreg2rgb, with the
// _bx2 modifier on the texture result read by the arithmetic.
ps_1_2
tex t0
texbem t1, t0
texbeml t2, t0
texreg2rgb t3, t0
mul r0, t1, t2
mad r0, t3_bx2, r0, v0
