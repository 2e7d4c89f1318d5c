// Case shader (shaders/cases/pixel/ps14_texcrd_texld_dw.toml): texcrd copies coordinates
// unclamped; texld with _dw projects; texld rN samples stage N.
ps_1_4
def c1, 0.5, 0.5, 0.5, 0.5
def c2, 0.25, 0.25, 0.25, 0
texcrd r1.rgb, t0
texld r2, t1_dw.xyw
mad r0.rgb, r1, c1, c2
+mov r0.a, r2.a
