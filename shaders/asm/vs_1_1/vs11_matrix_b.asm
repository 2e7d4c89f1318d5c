// Case shader (shaders/cases/vertex/vs11_matrix_b.toml): m4x3, m3x3 and m3x2 leave the
// components they do not produce.
vs_1_1
dcl_position v0
def c0, 1, 0, 0, 0
def c1, 0, 1, 0, 1
def c2, 1, 1, 1, 0
def c10, 1, 2, 3, 4
def c11, 9, 9, 9, 9
mov oPos, v0
mov r5, c10
mov r0, c11
mov r1, c11
mov r2, c11
m4x3 r0.xyz, r5, c0
m3x3 r1.xyz, r5, c0
m3x2 r2.xy, r5, c0
add r0.w, r0.w, r1.z
mov r2.zw, r1.xxxy
mov oT0, r0
mov oT1, r2
