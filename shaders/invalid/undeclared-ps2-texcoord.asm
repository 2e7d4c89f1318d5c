// expect: t0 used without a dcl
// ps_2_0 declares t# before reading them.
ps_2_0
mov r0, t0
mov oC0, r0
