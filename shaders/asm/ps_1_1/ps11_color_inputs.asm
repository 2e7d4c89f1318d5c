// Case shader (shaders/cases/pixel/ps11_color_inputs.toml): the diffuse and specular colours
// v0 and v1.
ps_1_1
add r0.rgb, v0, v1
+mov r0.a, v0
