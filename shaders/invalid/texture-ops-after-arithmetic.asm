// expect: tex after an arithmetic instruction
// ps_1_0-1_3: texture instructions come before arithmetic ones.
ps_1_1
mov r0, c0
tex t0
