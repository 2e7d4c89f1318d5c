// Case shader (shaders/cases/ps_3_0_linkage.toml): TEXCOORD2 read through v0.
ps_3_0
dcl_texcoord2 v0
mov oC0, v0
