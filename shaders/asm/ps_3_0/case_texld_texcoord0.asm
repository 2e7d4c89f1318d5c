// Case shader (shaders/cases/vs_3_0_point_sprite.toml): sample s0 at the TEXCOORD0 input.
ps_3_0
dcl_texcoord0 v0
dcl_2d s0
texld r0, v0, s0
mov oC0, r0
