// Case shader (shaders/cases/pixel/ps20_mip_linear.toml): linear mip filtering between levels
// 0 and 1 at LOD 0.5 (texldb bias).
ps_2_0
dcl t0
dcl_2d s0
texldb r0, t0, s0
texld r1, t0, s0
mov oC0, r0
mov oC1, r1
