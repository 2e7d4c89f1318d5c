// Case shader (shaders/cases/vertex/vs11_a0_floor.toml): vs_1_1 mov a0.x floors; c[a0.x + n]
// reads def and API constants.
vs_1_1
dcl_position v0
def c4, 4, 0.25, -4, 40
def c6, 6, 0.5, -6, 60
def c20, 1.6, -0.4, 2.4, -1.6
mov oPos, v0
mov a0.x, c20.x
mov oT0, c[a0.x + 5]
mov a0.x, c20.y
mov r1.xy, c[a0.x + 5]
mov a0.x, c20.z
mov r1.zw, c[a0.x + 6]
mov oT1, r1
