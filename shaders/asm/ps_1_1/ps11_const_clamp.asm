// Case shader (shaders/cases/pixel/ps11_const_clamp.toml): API and def constants read clamped
// to [-1, 1].
ps_1_1
def c0, 0.5, 0.5, 0.5, 0.5
def c3, 3, -3, 0.25, 0
def c4, 0.25, 0.25, 0.25, 0.25
mad r1, c2, c0, c0
mad r0, c3, c4, c4
mad r0, r1, c4, r0
