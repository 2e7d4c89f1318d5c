// Case shader (shaders/cases/pixel/ps20_sincos_abs_pow.toml): sincos (SM2 form), abs, pow of a
// negative base.
ps_2_0
def c3, -1.55009923e-06, -2.17013894e-05, 0.00260416674, 0.00026041668
def c4, -0.020833334, -0.125, 1, 0.5
def c5, 1.04719758, -2.5, 0, 9
def c6, -2.5, 2, -0.5, 0.75
def c7, -4, 0.5, 0, 0
mov r0, c5.w
sincos r0.xy, c5.x, c3, c4
abs r1, c6
pow r1.w, c7.x, c7.y
mov oC0, r0
mov oC1, r1
