// Case shader (shaders/cases/pixel/ps2x_texldd.toml): texldd with explicit gradients picks the
// mip level.
ps_2_x
dcl t0
dcl_2d s0
def c0, 0.5, 0, 0, 0
def c1, 0, 0.5, 0, 0
def c2, 1, 0, 0, 0
def c3, 0, 1, 0, 0
texldd r0, t0, s0, c0, c1
texldd r1, t0, s0, c2, c3
mov oC0, r0
mov oC1, r1
