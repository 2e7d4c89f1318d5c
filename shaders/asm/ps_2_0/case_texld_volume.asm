// Case shader (shaders/cases/ps_2_0_texld_volume.toml): sample a volume at the coordinate in c0.
ps_2_0
dcl_volume s0
mov r1, c0
texld r0, r1, s0
mov oC0, r0
