// Case shader (shaders/cases/pixel/ps11_texm3x3tex.toml): texm3x3pad x2 + texm3x3tex into a
// cube map.
ps_1_1
texcoord t0
texm3x3pad t1, t0
texm3x3pad t2, t0
texm3x3tex t3, t0
mov r0, t3
