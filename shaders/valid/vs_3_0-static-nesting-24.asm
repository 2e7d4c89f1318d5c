// expect: valid
// vs_3_0: static nesting limit 24 (the D3D9 flow control nesting tables); default caps for 2_x.
// Exactly at the limit.
vs_3_0
dcl_position o0
mov r0, c0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
if b0
add r0, r0, c0
endif
endif
endif
endif
endif
endif
endif
endif
endif
endif
endif
endif
endif
endif
endif
endif
endif
endif
endif
endif
endif
endif
endif
endif
mov o0, r0
