// vs_3_sw — software vertex processing in shader model 3: constants in every bank (c2048, c4096,
// c8191), relative addressing into them through a0 and aL, texldl, o[aL + n] outputs.
vs_3_sw
dcl_position v0
dcl_texcoord v1
dcl_2d s3
dcl_position o0
dcl_texcoord o1
dcl_texcoord1 o2
defi i100, 2, 0, 1, 0
def c8191, 0, 0.5, 1, 2
mova a0.x, v1.x
m4x4 o0, v0, c4096
mov r0, c[a0.x + 2048]
texldl r1, v1, s3
loop aL, i100
  add r0, r0, c[aL + 6000]
  mov o[aL + 1], r0
endloop
mad r0, r1, c8191.y, r0
mov o1, r0
