// Case shader (shaders/cases/pixel/ps12_texreg2rgb.toml): texreg2rgb reads a volume texture at
// (t0.r, t0.g, t0.b).
ps_1_2
tex t0
texreg2rgb t1, t0
mov r0, t1
