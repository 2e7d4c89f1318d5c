// expect: rep does not exist in ps_2_0
// rep, if, defb and defi need ps_2_x or ps_3_0.
ps_2_0
mov r0, c0
rep i0
add r0, r0, c0
endrep
mov oC0, r0
