// Case shader (shaders/cases/pixel/ps20_odepth.toml): oDepth replaces the depth, clamped to
// [0, 1].
ps_2_0
mov oC0, c0
mov oDepth, c1.x
