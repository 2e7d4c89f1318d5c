// fuzz-diff partner: passes position, colours and texture coordinates through unchanged.
vs_2_0
dcl_position v0
mov oPos, v0
dcl_color v1
dcl_color1 v2
dcl_texcoord v3
dcl_texcoord1 v4
dcl_texcoord2 v5
dcl_texcoord3 v6
mov oD0, v1
mov oD1, v2
mov oT0, v3
mov oT1, v4
mov oT2, v5
mov oT3, v6
