// vs_1_1 — every vs_1_1 instruction: nop mov add sub mad mul rcp rsq dp3 dp4 min max slt sge
// exp log lit dst frc m4x4 m4x3 m3x4 m3x3 m3x2 dcl expp logp def;
// every vs_1_1 register file: r v c a0 oPos oFog oPts oD oT, with c[a0.x + n] addressing,
// source negation and swizzles, write masks.
vs_1_1
dcl_position v0
dcl_normal v1
dcl_texcoord v2
dcl_blendindices v3
def c95, 0, 0.5, 1, 2
mov a0.x, v3.x
mov r0, c[a0.x + 10]
m4x4 oPos, v0, c0
m4x3 r1.xyz, v0, c4
m3x4 r2, v1, c4
m3x3 r3.xyz, v1, c4
m3x2 r4.xy, v1, c4
add r5, r1, -r2
sub r5, r5, r3
mad r5, r5, c95.y, c95.x
mul r6, r5, r0
rcp r7.x, r6.x
rsq r7.y, r6.y
dp3 r7.z, r1, r3
dp4 r7.w, v0, c8
min r8, r7, c95.z
max r8, r8, c95.x
slt r9, r8, c95.y
sge r10, r8, c95.y
exp r11, r7.x
log r11.w, r7.y
lit r0, r5
dst r1, r5, r6
frc r2.xy, r7
expp r3, r7.z
logp r3.w, r7.w
nop
add r9, r9, r10
mov oD0, r0
mov oD1, r1
mov oT0, v2
mov oT1.xy, r2.yxzw
mov oT2, r11
mov oT3, r3
mov oT4, r4
mov oT5, r9
mov oFog, r8.x
mov oPts, c95.z
