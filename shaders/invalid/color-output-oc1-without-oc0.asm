// expect: ps_2_0: oC1 written but oC0 never is
// Writing oCn needs oC0..oCn-1 written (output color register page).
ps_2_0
mov r0, c0
mov oC1, r0
