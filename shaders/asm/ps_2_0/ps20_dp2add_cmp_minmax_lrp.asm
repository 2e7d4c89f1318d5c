// Case shader (shaders/cases/pixel/ps20_dp2add_cmp_minmax_lrp.toml): dp2add, cmp, min, max, lrp;
// two render targets.
ps_2_0
def c0, 2, 3, -1, 0.5
def c1, 0.5, 0.25, 4, -2
dp2add r0.x, c0, c1, c1.z
cmp r0.y, c0.z, c1.x, c1.y
min r0.z, c0.x, c1.w
max r0.w, c0.w, c1.x
lrp r1, c0.w, c1, c0
mov oC0, r0
mov oC1, r1
