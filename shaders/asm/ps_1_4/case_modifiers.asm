// Case shader (shaders/cases/ps_1_4_modifiers.toml): _bx2 source modifier and _x2 result shift.
ps_1_4
def c0, 0.5, 0.25, 0.125, 1
def c1, 0.75, 0.75, 0.75, 0.75
mul_x2 r0, c0, c1_bx2
