// expect: valid
// vs_3_sw: dynamic nesting limit 24 (the D3D9 flow control nesting tables); default caps for 2_x.
// Exactly at the limit.
vs_3_sw
dcl_position o0
mov r0, c0
if_gt c0.x, c1.x
if_gt c0.x, c1.x
if_gt c0.x, c1.x
if_gt c0.x, c1.x
if_gt c0.x, c1.x
if_gt c0.x, c1.x
if_gt c0.x, c1.x
if_gt c0.x, c1.x
if_gt c0.x, c1.x
if_gt c0.x, c1.x
if_gt c0.x, c1.x
if_gt c0.x, c1.x
if_gt c0.x, c1.x
if_gt c0.x, c1.x
if_gt c0.x, c1.x
if_gt c0.x, c1.x
if_gt c0.x, c1.x
if_gt c0.x, c1.x
if_gt c0.x, c1.x
if_gt c0.x, c1.x
if_gt c0.x, c1.x
if_gt c0.x, c1.x
if_gt c0.x, c1.x
if_gt c0.x, c1.x
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
