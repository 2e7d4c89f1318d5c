// expect: no write mask or instruction modifier when writing oC0
// Before ps_3_0 no write mask or instruction modifier on an oC# write.
ps_2_0
mov r0, c0
mov_sat oC0, r0
