// Case shader (shaders/cases/pixel/ps20_cube_volume.toml): dcl_cube and dcl_volume samplers.
ps_2_0
dcl t0.xyz
dcl t1.xyz
dcl_cube s0
dcl_volume s1
texld r0, t0, s0
texld r1, t1, s1
mov oC0, r0
mov oC1, r1
