// Case shader (shaders/cases/pixel/ps11_texkill.toml): texkill t0 tests xyz only.
ps_1_1
texkill t0
mov r0, c0
