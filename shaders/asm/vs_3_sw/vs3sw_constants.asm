// Case shader (shaders/cases/vertex/vs3sw_constants.toml): vs_3_sw reads c[a0.x + 4000].
vs_3_sw
dcl_position v0
dcl_position o0
dcl_texcoord0 o1
dcl_texcoord1 o2
def c0, 2, 0, 0, 0
mov o0, v0
mova a0.x, c0.x
mov o1, c[a0.x + 4000]
mov o2, c4000
