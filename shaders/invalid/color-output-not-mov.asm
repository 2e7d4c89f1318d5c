// expect: oC0 is written only with mov before ps_3_0
// Before ps_3_0 oC# is written only with mov.
ps_2_0
mov r0, c0
add oC0, r0, c1
