// fuzz-diff reproducer: texbem reads the bump-environment matrix of its stage (3).
ps_1_0
tex t1
texbem t3, t1
mov r0, t3
