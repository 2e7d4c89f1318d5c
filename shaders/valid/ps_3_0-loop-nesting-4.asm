// expect: valid
// ps_3_0: loop nesting limit 4 (the D3D9 flow control nesting tables); default caps for 2_x.
// Exactly at the limit.
ps_3_0
mov r0, c0
rep i0
rep i0
rep i0
rep i0
add r0, r0, c0
endrep
endrep
endrep
endrep
mov oC0, r0
