// Case shader (shaders/cases/pixel/ps11_texbem.toml): texbem offsets stage 1's coordinates by
// the bump-env matrix times (du, dv) from a V8U8 texture.
ps_1_1
tex t0
texbem t1, t0
mov r0, t1
