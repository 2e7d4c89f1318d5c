// Case shader (shaders/cases/vertex/vs30_semantics.toml): reads COLOR1 in v0 and TEXCOORD3 in v7.
ps_3_0
dcl_color1 v0
dcl_texcoord3 v7
mov oC0, v7
mov oC1, v0
