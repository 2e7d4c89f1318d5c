// expect: vs_2_0: loop nesting 2 exceeds the limit 1
// vs_2_0: loop nesting limit 1 (the D3D9 flow control nesting tables); default caps for 2_x.
// One past the limit.
vs_2_0
mov r0, c0
rep i0
rep i0
add r0, r0, c0
endrep
endrep
mov oPos, r0
