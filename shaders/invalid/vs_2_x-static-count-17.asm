// expect: vs_2_x: static flow control count 17 exceeds the limit 16
// vs_2_x: static count limit 16 (the D3D9 flow control nesting tables); default caps for 2_x.
// One past the limit.
vs_2_x
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
if b0
add r0, r0, c0
endif
mov oPos, r0
