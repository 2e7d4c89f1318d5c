// Case shader (shaders/cases/vertex/vs11_arith.toml): add sub mad mul dp3 dp4 min max with
// write masks, a negated source and an output swizzle.
vs_1_1
dcl_position v0
def c0, 1.5, -2, 0.25, 4
def c1, 0.5, 3, -1, 2
mov oPos, v0
mov r10, c0
add r0.x, r10.x, c1.x
sub r0.y, r10.y, c1.y
mad r0.z, r10.z, c1.w, c1.x
mul r0.w, r10.w, -c1.z
mov oT0, r0
dp3 r1.x, r10, c1
dp4 r1.y, r10, c1
min r1.z, r10.y, c1.z
max r1.w, r10.w, c1.y
mov oT1, r1.wzyx
