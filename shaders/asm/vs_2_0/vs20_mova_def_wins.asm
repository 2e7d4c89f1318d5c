// Case shader (shaders/cases/vertex/vs20_mova_def_wins.toml): mova rounds to nearest; c[a0.x+n]
// and c[a0.y+n]; a def constant hides the API value of the same register.
vs_2_0
dcl_position v0
def c6, 6, 0.5, -6, 60
def c20, 1.6, -0.4, -1.6, 2.4
mov oPos, v0
mova a0.xy, c20.xy
mov oT0, c[a0.x + 4]
mov r1.xy, c[a0.y + 4]
mova a0.x, c20.z
mov r1.zw, c[a0.x + 9]
mov oT1, r1
