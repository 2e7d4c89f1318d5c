// expect: arbitrary swizzles need ps_2_x
// ps_2_0 has only .xyzw, the replicates, .yzxw, .zxyw and .wzyx.
ps_2_0
mov r0, c0.yxzw
mov oC0, r0
