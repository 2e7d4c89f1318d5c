// Case shader (shaders/cases/ps_3_0_vpos.toml): vPos to the colour.
ps_3_0
dcl vPos.xy
def c0, 0.0, 0.0, 0.5, 1.0
mov r0.xy, vPos
mov r0.zw, c0
mov oC0, r0
