// expect: call to label l1, which is not defined
// A called label must exist.
vs_2_0
mov r0, c0
call l1
mov oPos, r0
ret
label l0
ret
