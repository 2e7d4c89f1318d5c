// Case shader (shaders/cases/pixel/ps12_texdp3tex.toml): texdp3tex samples at (coords1 . t0, 0).
ps_1_2
texcoord t0
texdp3tex t1, t0
mov r0, t1
