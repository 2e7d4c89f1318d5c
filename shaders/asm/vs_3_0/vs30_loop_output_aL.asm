// Case shader (shaders/cases/vertex/vs30_loop_output_aL.toml): o[aL] output addressing, the
// one-source sincos and sgn of vs_3_0, the _abs source modifier.
vs_3_0
dcl_position v0
dcl_position o0
dcl_texcoord0 o1
dcl_texcoord1 o2
defi i0, 2, 1, 1, 0
def c0, -3, 1.04719758, 0, -0.5
def c11, 0.5, 0.25, 0.125, 2
def c12, 4, 5, 6, 7
mov o0, v0
loop aL, i0
  mov o[aL], c[aL + 10]
endloop
sincos r0.xy, c0.y
mov o2.xy, r0
mov r2, c0
sgn r1, r2
mov o1.zw, r1.zzzx
add o1.x, c0_abs.x, -c0_abs.w
