// Case shader (shaders/cases/pixel/ps11_texm3x2.toml): texm3x2pad/texm3x2tex with the vector from
// texcoord.
ps_1_1
texcoord t0
texm3x2pad t1, t0
texm3x2tex t2, t0
mov r0, t2
