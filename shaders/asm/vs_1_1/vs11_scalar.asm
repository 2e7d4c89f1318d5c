// Case shader (shaders/cases/vertex/vs11_scalar.toml): rcp rsq exp log frc; a scalar source
// without a replicate swizzle reads .w.
vs_1_1
dcl_position v0
def c0, 16, 0.25, 3, 4
def c1, -4, 2.75, 0, -1.375
mov oPos, v0
rcp r0.x, c0
rsq r0.y, c0.x
rsq r0.z, c1.x
exp r0.w, c0.z
mov oT0, r0
log r1.x, c0.w
log r1.y, c0.y
frc r2.xy, c1.yw
mov r1.zw, r2.xyxy
mov oT1, r1
