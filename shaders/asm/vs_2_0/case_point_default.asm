// Case shader (shaders/cases/vs_2_0_point_default_size.toml): no oPts, so each point takes
// D3DRS_POINTSIZE (clamped); colour from COLOR0, texture coordinate 0 passed through.
vs_2_0
dcl_position v0
dcl_color v1
dcl_texcoord v2
mov oPos, v0
mov oD0, v1
mov oT0, v2
