// expect: label appears before the main program's ret
// Subroutines follow the main program's ret (shader code format page).
vs_2_0
mov r0, c0
label l0
mov oPos, r0
ret
