// Case shader (shaders/cases/ps_2_0_texkill_cmp.toml): texkill on t1, cmp on t0.x.
ps_2_0
dcl t0
dcl t1
def c0, 1, 0, 0, 1
def c1, 0, 0, 1, 1
texkill t1
cmp r0, t0.x, c0, c1
mov oC0, r0
