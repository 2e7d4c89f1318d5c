// Lenient cnd (docs/d3d9-rules.md#cnd): the diffuse colour v0 as the condition, replicated
// .x swizzle and none: each decides on the .w of its swizzled source.
ps_1_1
cnd r1, v0.x, c1, c2
cnd r0, v0, r1, v1
