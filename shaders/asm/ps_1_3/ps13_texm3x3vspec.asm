// Case shader (shaders/cases/pixel/ps13_texm3x3vspec.toml): texm3x3vspec takes the eye vector
// from the w of the three coordinate sets.
ps_1_3
texcoord t0
texm3x3pad t1, t0
texm3x3pad t2, t0
texm3x3vspec t3, t0
mov r0, t3
