// Case shader (shaders/cases/ps_2_0_texld_2d.toml and friends): sample s0 at t0.
ps_2_0
dcl t0
dcl_2d s0
texld r0, t0, s0
mov oC0, r0
