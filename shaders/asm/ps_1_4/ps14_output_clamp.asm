// Writes c0 (clamped to [-1, 1] on read, docs/d3d9-rules.md#ps1x-constant-clamp) scaled by _x2 into r0,
// the ps_1_4 colour; the output clamp (docs/d3d9-rules.md#ps1x-output-clamp) then brings it to [0, 1].
ps_1_4
def c1, -0.15, 0.25, 0.85, 1.0
mov_x2 r0, c1
