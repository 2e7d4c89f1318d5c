// expect: (c0_abs): the absolute value (_abs) modifier is not allowed here in ps_2_0
// The _abs source modifier exists in 3_0 and 3_sw only.
ps_2_0
mov r0, c0_abs
mov oC0, r0
