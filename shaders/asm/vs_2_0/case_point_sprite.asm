// Case shader (shaders/cases/vs_2_0_point_sprite.toml, vs_2_0_point_clamp.toml): each point's
// size comes from its PSIZE element through oPts, its colour from COLOR0.
vs_2_0
dcl_position v0
dcl_psize v1
dcl_color v2
mov oPos, v0
mov oPts, v1.x
mov oD0, v2
