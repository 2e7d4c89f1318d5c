// Partner pixel shader: the colour inputs v0 and v1 go to render targets 0 and 1.
ps_2_0
dcl v0
dcl v1
mov oC0, v0
mov oC1, v1
