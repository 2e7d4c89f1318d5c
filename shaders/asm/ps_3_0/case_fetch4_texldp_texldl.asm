// Case shader (shaders/cases/ps_3_0_fetch4.toml): texldp at c0 and texldl at c1 on s0, one of the
// two chosen by c2 (c2.x = 1 keeps texldp, c2.y = 1 keeps texldl; the other factor is 0).
ps_3_0
dcl_2d s0
texldp r0, c0, s0
texldl r1, c1, s0
mul r1, r1, c2.y
mad oC0, r0, c2.x, r1
