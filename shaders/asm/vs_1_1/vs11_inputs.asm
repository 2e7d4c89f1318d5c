// Case shader (shaders/cases/vertex/vs11_inputs.toml): a FLOAT2 input expands to (x, y, 0, 1);
// a D3DCOLOR input reads (R, G, B, A) / 255.
vs_1_1
dcl_position v0
dcl_texcoord0 v1
dcl_color v2
mov oPos, v0
mov oT0, v1
mov oT1, v2
