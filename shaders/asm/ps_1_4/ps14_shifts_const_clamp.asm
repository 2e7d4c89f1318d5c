// Case shader (shaders/cases/pixel/ps14_shifts_const_clamp.toml): _x8, _d8, _d4 shifts, the _x2
// source modifier, and a clamped def constant.
ps_1_4
def c0, 0.0625, 0.125, 0.25, 0.5
def c1, 0.5, 0.5, 0.5, 1
def c2, 4, -4, 0.5, 4
def c4, 0, 0, 0, 0.5
mul_x8 r1, c0, c1
mov r3, c1
mul_d8 r2, r1, r3_x2
add_d4 r0.rgb, r1, r2
+mul r0.a, c2, c4
