// Case shader (shaders/cases/ps_2_0_texld_linear.toml): sample a 2D texture at the coordinate in c0.
ps_2_0
dcl_2d s0
mov r1, c0
texld r0, r1, s0
mov oC0, r0
