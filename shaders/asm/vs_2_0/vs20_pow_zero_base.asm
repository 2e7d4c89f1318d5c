// Case shader (shaders/cases/vertex/vs20_pow_zero_base.toml): pow of a zero base (an API
// constant, unknown to the driver) with def exponents: -2 gives +inf (also for -0), 0.5 gives 0,
// 0 gives 1. sge against 1e30 turns +inf into a value that interpolation keeps exact.
vs_2_0
dcl_position v0
def c10, -2, 0.5, 0, 1e30
mov oPos, v0
pow r0.x, c0.x, c10.x
pow r0.y, c0.y, c10.x
pow r0.z, c0.x, c10.y
pow r0.w, c0.x, c10.z
sge r1.xy, r0, c10.w
mov r1.zw, r0
mov oT0, r1
mov oT1, r0.zwzw
