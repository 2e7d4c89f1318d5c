// expect: vs_3_0: static flow control nesting 25 exceeds the limit 24
// vs_3_0: static nesting limit 24 (the D3D9 flow control nesting tables); default caps for 2_x.
// One past the limit.
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
endif
mov o0, r0
