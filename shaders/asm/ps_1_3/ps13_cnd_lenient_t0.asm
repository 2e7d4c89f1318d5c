// Lenient cnd (docs/d3d9-rules.md#cnd): ps_1_3 with a texture register as the condition,
// decided on t0's .w for every channel.
ps_1_3
texcoord t0
cnd r0, t0, c1, v0
