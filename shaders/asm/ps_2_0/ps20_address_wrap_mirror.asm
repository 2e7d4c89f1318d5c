// Case shader (shaders/cases/pixel/ps20_address_wrap_mirror.toml): the same coordinates through samplers with
// different address modes.
ps_2_0
dcl t0
dcl_2d s0
dcl_2d s1
texld r0, t0, s0
texld r1, t0, s1
mov oC0, r0
mov oC1, r1
