// expect: v10 is out of range
// ps_3_0 has at most 10 input registers v0-v9.
ps_3_0
dcl_texcoord0 v10
mov oC0, v10
