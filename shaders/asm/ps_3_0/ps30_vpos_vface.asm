// Case shader (shaders/cases/pixel/ps30_vpos_vface.toml): vPos gives the integer pixel
// coordinates; vFace the facing.
ps_3_0
dcl vPos.xy
dcl vFace
def c0, 1, -1, 0, 0
mov r0, c0.z
mov r0.xy, vPos
cmp r0.z, vFace, c0.x, c0.y
mov r0.w, c0.x
mov oC0, r0
