// Case shader (shaders/cases/vertex/vs11_lit_dst_expp_logp.toml): lit dst expp logp.
vs_1_1
dcl_position v0
def c0, 0.5, 0.25, 0, 2
def c1, 7, 2, 3, 7
def c2, 7, 4, 7, 5
def c3, 2.5, 12, 0, 0
mov oPos, v0
lit r0, c0
mov oT0, r0
mov r5, c1
dst r1, r5, c2
expp r2.xyw, c3.x
logp r3.xyw, c3.y
mov r4.x, r1.y
mov r4.y, r2.x
mov r4.z, r2.y
mov r4.w, r3.y
add r4.w, r4.w, r3.x
add r4.x, r4.x, r1.w
mov oT1, r4
