// Case shader (shaders/cases/pixel/ps11_texm3x3spec.toml): texm3x3spec reflects the eye vector c0
// about the normal.
ps_1_1
def c0, 1, 0, 0.5, 0
texcoord t0
texm3x3pad t1, t0
texm3x3pad t2, t0
texm3x3spec t3, t0, c0
mov r0, t3
