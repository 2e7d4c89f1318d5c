// Case shader (shaders/cases/frc_then_add.toml): frc of an integer, plus a constant smaller than
// that integer's float spacing, then log.
ps_3_0
dcl vPos.xy
def c0, 0.00001, 1024.0, 4096.0, 1.0
def c1, 0.0, 0.0, 0.0, 0.0
mad r0.x, vPos.x, c0.y, c0.z
frc r0.x, r0.x
add r0.x, r0.x, c0.x
log r1.x, r0.x
mov r1.y, r0.x
mov r1.z, c1.x
mov r1.w, c0.w
mov oC0, r1
