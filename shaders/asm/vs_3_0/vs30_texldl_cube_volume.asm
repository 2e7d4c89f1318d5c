// Case shader (shaders/cases/vertex/vs30_texldl_cube_volume.toml): vertex texture fetch from a
// cube (s1, a constant direction) and a volume (s2, each vertex its own coordinate).
vs_3_0
dcl_position v0
dcl_texcoord0 v1
dcl_position o0
dcl_texcoord0 o1
dcl_texcoord1 o2
dcl_cube s1
dcl_volume s2
def c0, 0.2, -1, 0.3, 0
mov o0, v0
texldl r0, c0, s1
mov r1.xyz, v1
mov r1.w, c0.w
texldl r1, r1, s2
mov o1, r0
mov o2, r1
