// Tint regression (tests/tests/tint_regressions.rs; docs/wgsl.md §2): rcp(0) = rsq(0) = +inf and
// pow of a zero base with a negative exponent is +inf (strict rules), of `def` operands; and a
// `def` whose values overflow to ±inf. As constant expressions (a bitcast of inf's bits, or
// arithmetic on def literals) WGSL evaluates them when the module is created, and Tint refuses
// the infinite result ("value inf cannot be represented as 'f32'").
ps_2_0
dcl t0
def c0, 0, 1e39, -1e39, 1
rcp r0.x, c0.x
rsq r0.y, c0.x
pow r0.z, c0.x, -c0.w
mov r0.w, c0.y
add r0, r0, t0
mov oC0, r0
