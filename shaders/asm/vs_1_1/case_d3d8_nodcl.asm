// Case shader (shaders/cases/vs_1_1_d3d8_inputs.toml): a D3D8-style vs_1_1 without dcl: v0 is the
// position and v5 the diffuse colour (docs/d3d9-rules.md#d3d8-inputs).
vs_1_1
mov oPos, v0
mul oD0, v5, c0
