// Case shader (shaders/cases/ps_2_0_texldp.toml): projective sampling divides by t0.w.
ps_2_0
dcl t0
dcl_2d s0
texldp r0, t0, s0
mov oC0, r0
