// Case shader (shaders/cases/vs_2_0_bool_int.toml): a loop counted by i0 and an if on b0.
vs_2_0
dcl_position v0
def c10, 0, 0, 0, 0
def c11, 0.125, 0.25, 0, 0
mov oPos, v0
mov r0, c10
loop aL, i0
add r0, r0, c11.x
endloop
if b0
add r0.y, r0.y, c11.y
endif
mov oD0, r0
