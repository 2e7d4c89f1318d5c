// expect: vs_2_0: call nesting 2 exceeds the limit 1
// vs_2_0: call nesting limit 1 (the D3D9 flow control nesting tables); default caps for 2_x.
// One past the limit.
vs_2_0
mov r0, c0
call l0
mov oPos, r0
ret
label l0
call l1
add r0, r0, c0
ret
label l1
add r0, r0, c0
ret
