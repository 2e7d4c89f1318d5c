// Lenient cnd (docs/d3d9-rules.md#cnd): a def constant as the condition, read through its .w
// (0.75 > 0.5: every channel takes v1) although x and z are below 0.5.
ps_1_1
def c0, 0.25, 0.75, 0.25, 0.75
cnd r0, c0, v1, c2
