// ps_2_0 — sampling and depth: dcl_2d dcl_cube dcl_volume, texld texldp texldb texkill; registers
// s t oC (two render targets) oDepth.
ps_2_0
dcl t0
dcl t1.xyz
dcl_2d s0
dcl_cube s1
dcl_volume s2
def c0, 0.5, 0, 0, 0
texld r0, t0, s0
texldp r1, t0, s2
texldb r2, t1, s1
texkill t0
mul r0, r0, r1
add r0, r0, r2
mov oC0, r0
mov oC1, r1
add oDepth, r2.x, c0.x
