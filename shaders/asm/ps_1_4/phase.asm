// ps_1_4 — every ps_1_4 instruction except texdepth: texld texcrd bem phase texkill nop mov add
// sub mad mul dp3 dp4 lrp cnd cmp def; registers r v c t; the _dz/_dw projections, _bx2,
// result shifts and co-issue.
ps_1_4
def c0, 0.5, 0.5, 0.5, 1
def c1, 1, 0, 0, 1
texld r0, t0
texcrd r1.xyz, t1
bem r2.xy, r1, r0
phase
texld r3, r2
texld r4, r1_dz.xyz
texld r5, t2_dw.xyw
texkill t3
mul r0, r3, r4
mad_x2 r0, r0, c0, v0
sub r1, r0, r5
add r1.rgb, r1, v1_bx2
+mov r1.a, c0.b
dp3 r2, r0, r1
dp4 r2.a, r0, c0
lrp r0, c0.r, r0, r2
cnd r0, r2.a, r0, c1
cmp_sat r0, r2, r0, 1-c0
nop
