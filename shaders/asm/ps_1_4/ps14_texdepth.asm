// Case shader (shaders/cases/pixel/ps14_texdepth.toml): texdepth r5 replaces the depth by
// r5.r / r5.g.
ps_1_4
mov r5, c0
phase
texdepth r5
mov r0, c1
