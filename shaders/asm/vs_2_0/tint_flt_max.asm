// Tint regression (tests/tests/tint_regressions.rs; docs/wgsl.md §1): log(0) is -FLT_MAX under the
// strict float rules, and the fast rules clamp rcp/rsq/log to ±FLT_MAX. naga's WGSL writer printed
// FLT_MAX as the decimal 340282350000000000000000000000000000000f, just above FLT_MAX, which Tint
// refuses ("value cannot be represented as 'f32'").
vs_2_0
dcl_position v0
log r0.x, v0.x
rcp r0.y, v0.y
rsq r0.z, v0.z
mov r0.w, v0.w
mov oPos, v0
mov oT0, r0
