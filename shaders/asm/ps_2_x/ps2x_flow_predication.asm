// Case shader (shaders/cases/pixel/ps2x_flow_predication.toml): setp, predicated writes with a
// replicated predicate, rep + break_ge, if_lt/else, if b#, call, callnz on !p0.
ps_2_x
defi i0, 6, 0, 0, 0
defb b0, true
def c0, 1, -1, 0, 2
def c1, 0.5, 0, 0, 0
def c2, 0, 0, 0, 0
setp_ge p0, c0, c0.z
mov r0, c2
(p0) mov r0, c0
(!p0.y) add r0.y, r0.y, c0.w
mov r1, c2
rep i0
  add r1.x, r1.x, c1.x
  break_ge r1.x, c0.x
endrep
if_lt c0.y, c0.z
  mov r1.y, c0.w
else
  mov r1.y, c0.x
endif
if b0
  call l0
endif
callnz l1, !p0.y
mov oC0, r0
mov oC1, r1
ret
label l0
mov r1.z, c1.x
ret
label l1
mov r1.w, c0.y
ret
