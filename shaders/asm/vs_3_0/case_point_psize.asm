// Case shader (shaders/cases/vs_3_0_point_sprite.toml): a vs_3_0 point whose size is the output
// declared PSIZE, with a texture coordinate output the point sprite replaces.
vs_3_0
dcl_position v0
dcl_psize v1
dcl_texcoord0 v2
dcl_position o0
dcl_psize o1
dcl_texcoord0 o2
mov o0, v0
mov o1.x, v1.x
mov o2, v2
