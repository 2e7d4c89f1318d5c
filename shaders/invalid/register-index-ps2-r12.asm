// expect: r12 is out of range
// ps_2_0 has r0-r11.
ps_2_0
mov r12, c0
mov oC0, r12
