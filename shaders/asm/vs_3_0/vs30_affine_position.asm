// Sweep regression (gpu-harness/src/raster.rs): a 2D affine position, x·c0 + y·c1 + c3 with
// w = 1, and the colour and texture coordinate passed through, as UI renderers' vertex shaders
// do. The sweep's random constants put the quad's corners off the 1/256 sub-pixel grid; the CPU
// rasterizer once interpolated from the snapped corners and disagreed with the GPU by about
// 1e-4 relative at most pixels, past the Exact tolerance.
vs_3_0
def c4, 0, 1, 0, 0
dcl_position v0
dcl_color v1
dcl_texcoord v2
dcl_position o0
dcl_color o1
dcl_texcoord o2
mul r0.xy, c1, v0.y
mad r0.xy, c0, v0.x, r0
add o0.xy, r0, c3
mov o0.zw, c4.xyxy
mov o1, v1
mov o2, v2
