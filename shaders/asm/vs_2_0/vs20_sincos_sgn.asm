// Case shader (shaders/cases/vertex/vs20_sincos_sgn.toml): SM2 sincos with its constant operands
// (z and w kept); sgn of zero, positive and negative values.
vs_2_0
dcl_position v0
def c0, 1.04719758, 0, 0, 0
def c1, -1.55009923e-06, -2.17013894e-05, 0.00260416674, 0.00026041668
def c2, -0.020833334, -0.125, 1, 0.5
def c3, 7, 7, 7, 7
def c8, 0, 5, -0.5, 2
mov oPos, v0
mov r0, c3
sincos r0.xy, c0.x, c1, c2
mov oT0, r0
mov r8, c8
sgn r1, r8, r2, r3
mov oT1, r1
