// Case shader (shaders/cases/pixel/ps11_modifiers_a.toml): _bias, negate, 1-x (comp), _x2 shift,
// co-issued colour and alpha instructions.
ps_1_1
def c0, 0.25, 0.5, 0.5, 0.75
def c1, 0.5, 0.125, 0.625, 0.25
mov r1, c1_bias
add r0.rgb, -r1, c0
+mul_x2 r0.a, 1-c0, c1
