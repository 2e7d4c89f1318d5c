// Case shader (shaders/cases/pixel/ps20_texkill.toml): ps_2_0 texkill tests all four
// components.
ps_2_0
dcl t0
texkill t0
mov oC0, c0
