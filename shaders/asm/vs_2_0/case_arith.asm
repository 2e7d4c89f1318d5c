// Case shader (shaders/cases/vs_2_0_arith.toml): mov, mul, add, mad with swizzles, a def constant
// and API constants; the result goes to oD0.
vs_2_0
dcl_position v0
def c10, 0.25, 0.5, 2.0, -1.0
mov oPos, v0
mul r0, c10.xyyx, c10.z
add r0, r0, c10.w
mad oD0, r0, c0, c1
