// expect: endif without a matching if
// Blocks must match.
vs_3_0
dcl_position o0
mov r0, c0
endif
mov o0, r0
