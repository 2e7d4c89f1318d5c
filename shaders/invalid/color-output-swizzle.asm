// expect: no source swizzle or modifier when writing oC0
// Before ps_3_0 no source swizzle or modifier on an oC# write.
ps_2_0
mov r0, c0
mov oC0, r0.x
