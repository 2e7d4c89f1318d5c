// Case shader (shaders/cases/vertex/vs11_compare_mask.toml): slt, sge, and a masked write whose
// source swizzle picks components by destination position.
vs_1_1
dcl_position v0
def c0, 1, 2, 3, 4
def c1, 2, 2, 2, 5
mov oPos, v0
mov r10, c0
slt r0, r10, c1
sge r1, r10, c1
mov r1.xw, -c0.wzyx
mov oT0, r0
mov oT1, r1
