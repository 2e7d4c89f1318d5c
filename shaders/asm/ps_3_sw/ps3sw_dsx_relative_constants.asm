// Case shader (shaders/cases/pixel/ps3sw_dsx_relative_constants.toml): derivatives of a value
// built from relatively addressed constants that straddle register 4096, so every lane of a quad,
// helper lanes on the triangles' shared edge included, must read the true constants.
ps_3_sw
def c0, 0, 0, 0, 0
defi i0, 2, 0, 1, 0
dcl vPos.xy
mov r0, c0
loop aL, i0
  mad r0, vPos.x, c[aL + 4095], r0
endloop
dsx r1, r0
mov oC0, r1
