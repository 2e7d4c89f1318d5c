// Lenient cnd (docs/d3d9-rules.md#cnd): ps_1_2 decides on the .w of src0 after its swizzle;
// r1 = (0.75, 0.25, 0.75, 0.25): .xyzw reads 0.25 (src2), .x reads 0.75 (src1).
ps_1_2
def c0, 0.75, 0.25, 0.75, 0.25
mov r1, c0
cnd r0, r1.xyzw, c1, v0
cnd r1, r1.x, v1, c2
add r0, r0, r1
