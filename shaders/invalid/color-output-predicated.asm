// expect: oC0 written under predication
// ps_2_x/ps_3_0: no oC# or oDepth write under predication.
ps_2_x
mov r0, c0
setp_gt p0, c0, c1
(p0) mov oC0, r0
