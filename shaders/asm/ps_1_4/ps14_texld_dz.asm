// Case shader (shaders/cases/pixel/ps14_texld_dz.toml): texld with _dz divides by z.
ps_1_4
texld r3, t3_dz.xyz
mov r0, r3
