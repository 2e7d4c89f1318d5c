// expect: break outside loop or rep
// break leaves a loop or rep.
vs_3_0
dcl_position o0
mov r0, c0
break
mov o0, r0
