// Case shader (shaders/cases/pixel/ps20_pp_sat.toml): _pp computes at full precision here; _sat
// clamps each component.
ps_2_0
def c0, 1.5, -0.5, 0.25, 0.75
def c1, 0.5, 0.5, 0.5, 0.5
mul_pp r0, c0, c1
add_sat r1, c0, c1
mov oC0, r0
mov oC1, r1
