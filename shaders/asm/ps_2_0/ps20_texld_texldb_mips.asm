// Case shader (shaders/cases/pixel/ps20_texld_texldb_mips.toml): texld picks the mip level from
// the derivatives; texldb adds the bias in w.
ps_2_0
dcl t0
dcl_2d s0
texld r0, t0, s0
texldb r1, t0, s0
mov oC0, r0
mov oC1, r1
