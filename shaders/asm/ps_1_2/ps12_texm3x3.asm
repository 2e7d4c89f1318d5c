// Case shader (shaders/cases/pixel/ps12_texm3x3.toml): texm3x3 returns the product vector.
ps_1_2
texcoord t0
texm3x3pad t1, t0
texm3x3pad t2, t0
texm3x3 t3, t0
mov r0, t3
