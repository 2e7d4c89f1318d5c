// Partner pixel shader of the vs_3_0 cases: TEXCOORD0 and TEXCOORD1 go to render targets 0 and 1.
ps_3_0
dcl_texcoord0 v0
dcl_texcoord1 v1
mov oC0, v0
mov oC1, v1
