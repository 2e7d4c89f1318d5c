// expect: vs_2_x: loop nesting 5 exceeds the limit 4
// vs_2_x: loop nesting limit 4 (the D3D9 flow control nesting tables); default caps for 2_x.
// One past the limit.
vs_2_x
mov r0, c0
rep i0
rep i0
rep i0
rep i0
rep i0
add r0, r0, c0
endrep
endrep
endrep
endrep
endrep
mov oPos, r0
