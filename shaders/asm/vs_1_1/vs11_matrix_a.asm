// Case shader (shaders/cases/vertex/vs11_matrix_a.toml): m4x4 and m3x4.
vs_1_1
dcl_position v0
def c0, 1, 0, 0, 0
def c1, 0, 1, 0, 1
def c2, 1, 1, 1, 0
def c3, 0.5, 0, 0, 0.25
def c10, 1, 2, 3, 4
mov oPos, v0
mov r5, c10
m4x4 r0, r5, c0
m3x4 r1, r5, c0
mov oT0, r0
mov oT1, r1
