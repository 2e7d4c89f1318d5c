// expect: c256 is out of range
// vs_2_0 has c0-c255 (8192 with software vertex processing).
vs_2_0
dcl_position v0
mov r0, c256
mov oPos, v0
