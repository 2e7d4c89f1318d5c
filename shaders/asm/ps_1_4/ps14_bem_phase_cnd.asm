// Case shader (shaders/cases/pixel/ps14_bem_phase_cnd.toml): bem in phase 1, a dependent texld
// in phase 2, per-component cnd.
ps_1_4
def c0, 0.75, 0.25, 0.5, 1
def c1, 0.125, 0.25, 0.375, 0.5
texld r0, t0
texcrd r1.rgb, t1
bem r2.rg, r1, r0
phase
texld r2, r2
cnd r0, c0, r2, c1
