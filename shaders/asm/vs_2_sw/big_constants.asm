// vs_2_sw — software vertex processing: constants beyond the hardware limits (c2047, c2048 and
// c4095 in the second constant bank, i and b numbers above 15), relative addressing into them,
// and flow control with static and predicated branches.
vs_2_sw
dcl_position v0
dcl_blendindices v1
defi i20, 2, 0, 1, 0
defb b40, true
def c2047, 0, 0.5, 1, 2
mova a0.x, v1.x
m4x4 oPos, v0, c2048
mov r0, c[a0.x + 4095]
add r0, r0, c2047.y
loop aL, i20
  add r0, r0, c[aL + 3000]
endloop
if b40
  setp_gt p0, r0, c2047.x
  (p0) mov r0, c2047.z
endif
mov oD0, r0
