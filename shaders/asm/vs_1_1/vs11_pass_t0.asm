// Case shader (shaders/cases/pixel/ps11_projected_count3.toml): position and texture
// coordinate set 0 passed through unchanged (a shader's oT0 is not transformed by the
// texture-stage matrix).
vs_1_1
dcl_position v0
dcl_texcoord0 v1
mov oPos, v0
mov oT0, v1
