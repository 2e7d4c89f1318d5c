// expect: label l0 is defined twice
// Each label is defined once.
vs_2_0
mov r0, c0
call l0
mov oPos, r0
ret
label l0
ret
label l0
ret
