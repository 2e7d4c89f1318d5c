// Case shader (shaders/cases/pixel/ps13_texm3x2depth.toml): texm3x2depth replaces the depth by
// u / w.
ps_1_3
texcoord t0
texm3x2pad t1, t0
texm3x2depth t2, t0
mov r0, c0
