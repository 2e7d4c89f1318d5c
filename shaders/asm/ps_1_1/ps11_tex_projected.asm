// Case shader (shaders/cases/pixel/ps11_projected_count3.toml): tex t0, whose coordinates the
// stage's D3DTTFF_PROJECTED divides before the lookup.
ps_1_1
tex t0
mov r0, t0
