// Case shader (shaders/cases/vertex/vs20_loop_rep.toml): loop aL with start and step from i#,
// a negative step, rep with an API integer constant.
vs_2_0
dcl_position v0
defi i0, 3, 2, 2, 0
defi i1, 2, 16, -2, 0
def c0, 0, 0.5, 1, 0
def c12, 1, 0, 0, 0
def c14, 2, 0, 0, 0
def c16, 4, 0, 0, 0
def c18, 8, 0, 0, 0
mov oPos, v0
mov r0, c0.x
loop aL, i0
  add r0.x, r0.x, c[aL + 10].x
endloop
loop aL, i1
  add r0.y, r0.y, c[aL].x
endloop
rep i2
  add r0.z, r0.z, c0.y
endrep
mov r0.w, c0.z
mov oT0, r0
mov oT1, c0
