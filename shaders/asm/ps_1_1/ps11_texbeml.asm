// Case shader (shaders/cases/pixel/ps11_texbeml.toml): texbeml scales the bumped sample by
// L * LSCALE + LOFFSET.
ps_1_1
def c0, 0, 0, 0, 1
tex t0
texbeml t1, t0
mov r0.rgb, t1
+mov r0.a, c0
