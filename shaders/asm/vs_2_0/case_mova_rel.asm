// Case shader (shaders/cases/vs_2_0_mova_relative.toml): mova rounds to nearest; c[a0.x + 3].
vs_2_0
dcl_position v0
def c20, 1.6, 0, 0, 0
mov oPos, v0
mova a0.x, c20.x
mov oD0, c3[a0.x]
