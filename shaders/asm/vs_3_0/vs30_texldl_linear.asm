// Case shader (shaders/cases/vertex/vs30_texldl_linear.toml): vertex texture fetch with linear
// filtering, at level 0 and half-way between levels 0 and 1.
vs_3_0
dcl_position v0
dcl_position o0
dcl_texcoord0 o1
dcl_texcoord1 o2
dcl_2d s3
def c0, 0.5, 0.5, 0, 0
def c1, 0.5, 0.5, 0, 0.5
mov o0, v0
texldl r0, c0, s3
texldl r1, c1, s3
mov o1, r0
mov o2, r1
