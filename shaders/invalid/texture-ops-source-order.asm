// expect: the source must be a lower texture register
// A texture instruction reading tN writes a higher tM.
ps_1_1
tex t1
texbem t0, t1
mov r0, t0
