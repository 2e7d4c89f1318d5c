// Case shader (shaders/cases/vertex/vs30_texldl.toml): vertex texture fetch with texldl at an
// explicit level.
vs_3_0
dcl_position v0
dcl_position o0
dcl_texcoord0 o1
dcl_texcoord1 o2
dcl_2d s0
def c0, 0.375, 0.625, 0, 0
def c1, 0.375, 0.625, 0, 1
mov o0, v0
texldl r0, c0, s0
texldl r1, c1, s0
mov o1, r0
mov o2, r1
