// expect: oC0 written inside dynamic flow control
// ps_2_x/ps_3_0: no oC# or oDepth write inside dynamic flow control.
ps_3_0
mov r0, c0
if_gt c0.x, c1.x
mov oC0, r0
endif
