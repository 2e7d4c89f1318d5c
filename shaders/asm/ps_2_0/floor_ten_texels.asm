// 10 * texel rounded down (x - frc(x)), as vkd3d's sample-bias test reads its texels: a filtered
// value one ulp below 1.0 reads 9 instead of 10 (docs/d3d9-rules.md#mip-selection).
ps_2_0
dcl t0.xy
dcl_2d s0
def c1, 10, 10, 10, 10
texld r0, t0, s0
mul r0, r0, c1
frc r1, r0
add r0, r0, -r1
mov oC0, r0
