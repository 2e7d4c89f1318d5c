// Lenient cnd (docs/d3d9-rules.md#cnd): ps_1_1 decides on the .w of whatever src0 is. Here
// r1 = c0, whose .w (0.25) is not > 0.5 while x and z are: every channel takes c2.
ps_1_1
def c0, 0.75, 0.25, 0.75, 0.25
def c1, 1, 0.5, 0, 1
def c2, 0, 0.25, 0.75, 0.5
mov r1, c0
cnd r0, r1, c1, c2
