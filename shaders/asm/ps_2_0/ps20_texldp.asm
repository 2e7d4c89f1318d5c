// Case shader (shaders/cases/pixel/ps20_texldp.toml): texldp divides by w; texld does not.
ps_2_0
dcl t0
dcl_2d s0
texldp r0, t0, s0
texld r1, t0, s0
mov oC0, r0
mov oC1, r1
