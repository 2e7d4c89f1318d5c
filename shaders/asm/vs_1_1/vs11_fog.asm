// Case shader (shaders/cases/render_state/vs11_fog_vertex.toml): red diffuse, oFog from the API
// constant c1.x.
vs_1_1
dcl_position v0
def c0, 1, 0, 0, 1
mov oPos, v0
mov oD0, c0
mov oFog, c1.x
