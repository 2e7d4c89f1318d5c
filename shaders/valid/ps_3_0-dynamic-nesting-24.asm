// expect: valid
// ps_3_0: dynamic nesting limit 24 (the D3D9 flow control nesting tables); default caps for 2_x.
// Exactly at the limit.
ps_3_0
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
mov oC0, r0
