// Case shader (shaders/cases/pixel/ps12_texdp3_cmp.toml): texdp3 and the ps_1_2 cmp.
ps_1_2
def c0, 0.5, -0.5, 0, -0.25
def c1, 0.125, 0.125, 0.25, 0.375
texcoord t0
texdp3 t1, t0
cmp r0, c0, t1, c1
