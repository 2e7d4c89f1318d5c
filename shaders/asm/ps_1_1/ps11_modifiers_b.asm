// Case shader (shaders/cases/pixel/ps11_modifiers_b.toml): _bx2, negated _bx2, _x4 and _d2
// shifts, _sat.
ps_1_1
def c0, 0.75, 0.25, 0.5, 0.625
def c1, 0.125, 0.5, 0.25, 1
mul_x4 r1, c0_bx2, c1
add_d2 r0, r1, -c0_bx2
add_sat r0, r0, c1
