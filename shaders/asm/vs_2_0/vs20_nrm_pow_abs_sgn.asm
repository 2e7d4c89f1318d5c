// Case shader (shaders/cases/vertex/vs20_nrm_pow_abs_sgn.toml): nrm (w scaled too), pow of a
// negative base, pow(x, 0), abs, sgn with its two scratch temporaries.
vs_2_0
dcl_position v0
def c6, 3, 0, 4, 2
def c7, -4, 0.5, 0, 3
mov oPos, v0
mov r6, c6
nrm r0, r6
mov oT0, r0
mov r7, c7
pow r1.x, r7.x, r7.y
pow r1.y, r7.w, r7.z
abs r1.z, r7.x
sgn r1.w, r7.x, r2, r3
mov oT1, r1
