// Case shader (shaders/cases/ps_2_0_texld_cube.toml): sample a cube at the direction in c0.
ps_2_0
dcl_cube s0
mov r1, c0
texld r0, r1, s0
mov oC0, r0
