// Case shader (shaders/cases/ps_3_0_predicate.toml): setp_gt and a predicated mov.
ps_3_0
def c0, 1, 0, 1, 0
def c1, 0.5, 0.5, 0.5, 0.5
def c2, 1, 1, 1, 1
def c3, 0, 0, 0, 0
mov r0, c3
setp_gt p0, c0, c1
(p0) mov r0, c2
mov oC0, r0
