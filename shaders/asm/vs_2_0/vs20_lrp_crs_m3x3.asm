// Case shader (shaders/cases/vertex/vs20_lrp_crs_m3x3.toml): lrp, crs (w kept), m3x3.
vs_2_0
dcl_position v0
def c0, 0.25, 2, -3, 0.5
def c1, 1, 0, 0, 0
def c2, 0, 1, 0, 0
def c3, 4, 8, -4, 0
def c4, 0, 4, 4, 1
def c5, 9, 9, 9, 9
mov oPos, v0
mov r3, c3
lrp r0, c0.x, r3, c4
mov oT0, r0
mov r1, c5
mov r2, c1
crs r1.xyz, r2, c2
mov r4, c0
m3x3 r5.xyz, r4, c1
add r1.w, r1.w, r5.z
mov oT1, r1
