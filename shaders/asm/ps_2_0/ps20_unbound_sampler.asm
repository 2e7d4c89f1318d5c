// Case shader (shaders/cases/pixel/ps20_unbound_sampler.toml): a declared sampler with no
// texture bound reads (0, 0, 0, 1).
ps_2_0
dcl t0
dcl_2d s3
texld r0, t0, s3
mov oC0, r0
