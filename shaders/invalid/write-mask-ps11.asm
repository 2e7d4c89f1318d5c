// expect: may write only .rgba, .rgb or .a in ps_1_1
// ps_1_0-1_3 arithmetic writes .rgba, .rgb or .a.
ps_1_1
mov r0.rg, c0
