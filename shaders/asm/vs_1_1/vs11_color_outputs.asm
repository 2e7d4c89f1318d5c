// Case shader (shaders/cases/vertex/vs11_color_outputs.toml): oD0/oD1 are saturated; oFog and
// oPts written (no effect on a triangle without fog).
vs_1_1
dcl_position v0
def c0, 2, -1, 0.5, 1
def c1, 0.25, 1.5, -0.5, 0.75
mov oPos, v0
mov oD0, c0
mov oD1, c1
mov oFog, c0.x
mov oPts, c0.x
