// expect: oC0 written more than once
// Before ps_3_0 each oC# is written at most once.
ps_2_0
mov r0, c0
mov oC0, r0
mov oC0, c1
