// ps_1_4 cnd decides per component (docs/d3d9-rules.md#cnd), also on a constant:
// c0 = (0.75, 0.25, 0.75, 0.25) takes x and z from v0, y and w from c2.
ps_1_4
def c0, 0.75, 0.25, 0.75, 0.25
cnd r0, c0, v0, c2
