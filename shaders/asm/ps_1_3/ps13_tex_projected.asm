// Case shader (shaders/cases/pixel/ps13_projected_invalid_flags.toml): tex t0, whose coordinates
// the stage's D3DTTFF_PROJECTED divides before the lookup.
ps_1_3
tex t0
mov r0, t0
