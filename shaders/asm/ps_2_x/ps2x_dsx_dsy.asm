// Case shader (shaders/cases/pixel/ps2x_dsx_dsy.toml): screen-space derivatives of a linear
// texture coordinate.
ps_2_x
dcl t0
dsx r0, t0
dsy r1, t0
mov oC0, r0
mov oC1, r1
