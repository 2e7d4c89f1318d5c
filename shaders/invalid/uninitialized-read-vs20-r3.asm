// expect: r3 is read before anything writes it
// A temporary is read only after an earlier instruction writes it.
vs_2_0
mov r0, r3
mov oPos, r0
