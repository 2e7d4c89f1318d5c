// Case shader (shaders/cases/pixel/ps14_texcrd_output_clamp.toml): texcrd copies coordinates
// unclamped; the ps_1_x colour r0 is saturated when it leaves the shader, float target or not.
ps_1_4
texcrd r0.rgb, t0
add r0.rgb, r0, c0
+mov r0.a, c0.a
