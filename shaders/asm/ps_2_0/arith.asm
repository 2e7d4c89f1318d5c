// ps_2_0 — every arithmetic instruction of ps_2_0: nop mov add sub mad mul rcp rsq dp3 dp4
// min max exp log lrp frc m4x4 m4x3 m3x4 m3x3 m3x2 pow crs abs nrm sincos cmp dp2add dcl def;
// registers: r c t v (bare dcl) oC; _sat, _pp and negation.
ps_2_0
dcl t0
dcl t1.xy
dcl v0
def c90, 0, 0.5, 1, 2
def c91, -1.55009923e-06, -2.17013894e-05, 0.00260416674, 0.00026041668
def c92, -0.020833334, -0.125, 1, 0.5
mov r0, t0
add r0, r0, -v0
sub r1, t1, c90.y
mad_sat r0, r0, c90.y, c90.z
mul_pp r1, r1, r0
rcp r2.x, r1.x
rsq r2.y, r1.y
dp3 r2.z, r0, r1
dp4 r2.w, r0, c0
min r3, r2, c90.z
max r3, r3, c90.x
exp r4.x, r3.x
log r4.y, r3.y
lrp r5, c90.y, r3, r4
frc r5.xy, r5
m4x4 r6, r0, c0
m4x3 r7.xyz, r0, c4
m3x4 r8, r0, c4
m3x3 r9.xyz, r0, c4
m3x2 r10.xy, r0, c4
pow r4.z, r3.x, c90.w
crs r11.xyz, r0, r1
abs r4, -r4
nrm r11, r11
sincos r6.xy, r0.x, c91, c92
cmp r0, r5, r6, r7
dp2add r1, r8, r9, c90.x
nop
add r0, r0, r1
add r0, r0, r10
add r0, r0, r11
mad r0, r4, r6, r0
mov oC0, r0
