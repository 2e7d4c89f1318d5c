// Case shader (shaders/cases/vertex/vs30_semantics.toml): outputs declared by semantic on
// registers that differ from the pixel shader's inputs; not saturated.
vs_3_0
dcl_position v0
dcl_position o0
dcl_color1 o2
dcl_texcoord3 o5
def c0, 0.5, -2, 3, 0.25
mov o0, v0
mov o5, c0
mov o2, c0.wzyx
