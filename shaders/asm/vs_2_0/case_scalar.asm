// Case shader (shaders/cases/vs_2_0_scalar.toml): exp, log, rcp, rsq on replicated scalars.
vs_2_0
dcl_position v0
def c0, 3, 0.5, 4, 0
mov oPos, v0
exp r0.x, c0.x
log r0.y, c0.z
rcp r0.z, r0.x
rsq r0.w, c0.z
mul oD0, r0, c1
