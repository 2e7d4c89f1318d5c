// expect: valid
// vs_2_0: static count limit 16 (the D3D9 flow control nesting tables); default caps for 2_x.
// Exactly at the limit.
vs_2_0
mov r0, c0
if b0
add r0, r0, c0
endif
if b0
add r0, r0, c0
endif
if b0
add r0, r0, c0
endif
if b0
add r0, r0, c0
endif
if b0
add r0, r0, c0
endif
if b0
add r0, r0, c0
endif
if b0
add r0, r0, c0
endif
if b0
add r0, r0, c0
endif
if b0
add r0, r0, c0
endif
if b0
add r0, r0, c0
endif
if b0
add r0, r0, c0
endif
if b0
add r0, r0, c0
endif
if b0
add r0, r0, c0
endif
if b0
add r0, r0, c0
endif
if b0
add r0, r0, c0
endif
if b0
add r0, r0, c0
endif
mov oPos, r0
