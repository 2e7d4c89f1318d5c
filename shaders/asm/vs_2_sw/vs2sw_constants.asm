// Case shader (shaders/cases/vertex/vs2sw_constants.toml): constants past the hardware limit
// (def c3000, API c2600) under software vertex processing.
vs_2_sw
dcl_position v0
def c3000, 0.5, 0.25, -1, 8
mov oPos, v0
mov oT0, c3000
mov oT1, c2600
