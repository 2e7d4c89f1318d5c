// Case shader (shaders/cases/pixel/ps14_biasneg_x2neg.toml): the negated _bias and _x2 source
// modifiers.
ps_1_4
def c0, 0.75, 0.25, 0.5, 1
def c1, 0.125, 0.25, 0.375, 0.5
mov r1, c0
mov r2, c1
add r3, -r1_bias, -r2_x2
add r0, r3, r1_x2
