// Case shader (shaders/cases/ps_3_0_linkage.toml): TEXCOORD2 written to o3.
vs_3_0
dcl_position v0
dcl_position o0
dcl_texcoord2 o3
def c0, 0.25, 0.5, 0.75, 1
mov o0, v0
mov o3, c0
