// Case shader (shaders/cases/ps_1_1_const_clamp.toml): ps_1_x constants read clamped to [-1, 1].
ps_1_1
def c0, 0.5, 0.25, 1.0, 1.0
def c1, 2.0, -3.0, 0.5, 1.0
mul r0, c0, c1
