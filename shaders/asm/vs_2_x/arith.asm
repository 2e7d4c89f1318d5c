// vs_2_x — every arithmetic instruction of vs_2_x: nop mov add sub mad mul rcp rsq dp3 dp4
// min max slt sge exp log lit dst lrp frc m4x4 m4x3 m3x4 m3x3 m3x2 pow crs sgn abs nrm sincos
// expp logp mova dcl def (sincos with its two constant operands, sgn with two scratch registers);
// registers: r v c a0 oPos oFog oPts oD oT, with c[a0.x + n] and c[a0.y] addressing, _sat.
vs_2_x
dcl_position v0
dcl_normal v1
dcl_texcoord v2
dcl_blendindices v3
def c90, 0, 0.5, 1, 2
def c91, -1.55009923e-06, -2.17013894e-05, 0.00260416674, 0.00026041668
def c92, -0.020833334, -0.125, 1, 0.5
mova a0.xy, v3
mov r0, c[a0.x + 10]
add r0, r0, c[a0.y + 20]
m4x4 oPos, v0, c0
m4x3 r1.xyz, v0, c4
m3x4 r2, v1, c4
m3x3 r3.xyz, v1, c4
m3x2 r4.xy, v1, c4
add r5, r1, -r2
sub r5, r5, r3
mad_sat r5, r5, c90.y, c90.x
mul r6, r5, r0
rcp r7.x, r6.x
rsq r7.y, r6.y
dp3 r7.z, r1, r3
dp4 r7.w, v0, c8
min r8, r7, c90.z
max r8, r8, c90.x
slt r9, r8, c90.y
sge r10, r8, c90.y
exp r11.x, r7.x
log r11.y, r7.y
lit r0, r5
dst r1, r5, r6
lrp r2, c90.y, r0, r1
frc r2.xy, r7
expp r3.x, r7.z
logp r3.w, r7.w
pow r3.y, r7.x, c90.w
crs r12.xyz, v1, r3
mov r5, c90.x
mov r6, c90.x
sgn r4, r0, r5, r6
abs r4, r4
nrm r12.xyz, r12
sincos r6.xy, r0.x, c91, c92
nop
add r9, r9, r10
add r9, r9, r11
add r9, r9, r12
add r9, r9, r4
mov oD0, r0
mov oD1, r1
mov oT0, r6
mov oT1, r9
mov oFog, r8.x
mov oPts, c90.z
