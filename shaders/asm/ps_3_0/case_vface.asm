// Case shader (shaders/cases/ps_3_0_vface.toml): front faces c0, back faces c1.
ps_3_0
dcl vFace
def c0, 0.0, 1.0, 0.0, 1.0
def c1, 1.0, 0.0, 0.0, 1.0
cmp r0, vFace, c0, c1
mov oC0, r0
