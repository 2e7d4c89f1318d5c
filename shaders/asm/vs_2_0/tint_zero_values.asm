// Tint regression (tests/tests/tint_regressions.rs; docs/wgsl.md §2): zeros the lowering knows
// without reading them, taken by rcp, rsq, log and nrm, whose results at zero are infinite: the
// strict product with a `def` zero factor (+0 whatever the other factor), and the components of
// a register nothing has stored to (its initial +0). As literals, `1f / 0f` and the like would be
// WGSL constant expressions, which Tint evaluates when the module is created and refuses
// ("'1.0 / 0.0' cannot be represented as 'f32'").
vs_2_0
dcl_position v0
def c0, 0, 0, 0, 0
mul r0, c0, v0
rcp r1.x, r0.x
rsq r1.y, r0.y
log r1.z, r0.z
mov r2.xy, v0
rcp r1.w, r2.z
nrm r3, r2.zwzw
mov oPos, v0
mov oT0, r1
mov oT1, r3
