// Partner pixel shader of the vertex-shader cases: texture coordinates 0 and 1 (not clamped)
// go to render targets 0 and 1.
ps_2_0
dcl t0
dcl t1
mov oC0, t0
mov oC1, t1
