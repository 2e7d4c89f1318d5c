// expect: vs_2_x: dynamic flow control nesting 25 exceeds the limit 24
// vs_2_x: dynamic nesting limit 24 (the D3D9 flow control nesting tables); default caps for 2_x.
// One past the limit.
vs_2_x
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
endif
mov oPos, r0
