// expect: t3 is read before it is written
// ps_1_x reads t# only after a texture instruction wrote it.
ps_1_1
mov r0, t3
