// Case shader (shaders/cases/pixel/ps20_edge_values.toml): rcp(0) = +inf tamed by 0 * x = 0,
// log(0) = -FLT_MAX, pow(0, 0) = 1, exp, rsq of a negative, frc of a negative.
ps_2_0
def c0, 0, 0, 0, 0
def c1, -1, -4, 3, -0.25
rcp r0.x, c0.x
mul r1.x, r0.x, c0.x
log r1.y, c0.x
pow r1.z, c0.x, c0.x
mul r1.w, c0.x, r0.x
exp r2.x, c1.x
rsq r2.y, c1.y
mad r2.z, r0.x, c0.x, c1.z
frc r2.w, c1.w
mov oC0, r1
mov oC1, r2
