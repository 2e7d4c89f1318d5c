// expect: predicated instructions need vs_2_x/ps_2_x or later
// Predication exists from 2_x (instruction token bit 28).
ps_2_0
mov r0, c0
(p0) mov r0, c1
mov oC0, r0
