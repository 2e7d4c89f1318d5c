// ps_1_2 — arithmetic and the simple texture instructions: nop mov add sub mad mul dp3 lrp cnd texcoord tex texkill def dp4 cmp;
// registers: r v c t; result shifts (_x2 _x4 _d2), _sat, source modifiers _bx2 _bias 1- and -,
// .rgb/.a write masks with co-issue (+), the .a replicate swizzle.
ps_1_2
def c0, 0.5, 0.5, 0.5, 1
def c1, 1, 0, 0, 1
tex t0
texcoord t1
texkill t2
mov r0, t0
add_x2 r0, r0, -v0
sub_d2 r1, t1, v1_bias
mad_sat r0, r0, c0, v0_bx2
mul_x4 r1, r1, 1-t0
dp3 r1.rgb, t0_bx2, v0_bx2
+mov r1.a, c0.a
dp4 r1, t0, v0
cmp r1, r1, t0, c1
lrp r0, c0, r0, r1
cnd r0, r0.a, r1, c1
nop
