// expect: vs_3_sw: call nesting 5 exceeds the limit 4
// vs_3_sw: call nesting limit 4 (the D3D9 flow control nesting tables); default caps for 2_x.
// One past the limit.
vs_3_sw
dcl_position o0
mov r0, c0
call l0
mov o0, r0
ret
label l0
call l1
add r0, r0, c0
ret
label l1
call l2
add r0, r0, c0
ret
label l2
call l3
add r0, r0, c0
ret
label l3
call l4
add r0, r0, c0
ret
label l4
add r0, r0, c0
ret
