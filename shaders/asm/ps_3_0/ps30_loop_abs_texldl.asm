// Case shader (shaders/cases/pixel/ps30_loop_abs_texldl.toml): loop aL with c[aL + n], the _abs
// modifier, texldl at an explicit level.
ps_3_0
defi i0, 3, 0, 1, 0
def c0, 0, 0, 0, 0
def c1, 1, 0, 0, 0
def c2, 0, 2, 0, 0
def c3, 0, 0, 4, 0
def c4, 8, 8, 8, 8
def c5, -3, 0, 0, 0
def c6, -1, 0, 0, 0
def c7, 0.375, 0.375, 0, 2
dcl_2d s0
mov r0, c0
loop aL, i0
  add r0, r0, c[aL + 1]
endloop
add r0.w, c5_abs.x, -c6_abs.x
texldl r1, c7, s0
mov oC0, r0
mov oC1, r1
