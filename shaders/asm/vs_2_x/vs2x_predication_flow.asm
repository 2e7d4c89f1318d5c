// Case shader (shaders/cases/vertex/vs2x_predication_flow.toml): setp, predicated writes,
// if_lt (ifc), break_ge (breakc), breakp, break, callnz with a predicate.
vs_2_x
dcl_position v0
defi i0, 10, 0, 0, 0
def c0, 1, -1, 0, 2
def c1, 5, 5, 5, 5
def c2, 1, 4, 3, 0.5
mov oPos, v0
mov r10, c0
setp_gt p0, r10, c0.z
mov r0, c1
(p0) mov r0, r10
mov oT0, r0
mov r1, c0.z
if_lt r10.y, c0.z
  mov r1.x, c0.x
else
  mov r1.x, c0.w
endif
rep i0
  add r1.y, r1.y, c0.x
  break_ge r1.y, c0.w
endrep
rep i0
  add r1.z, r1.z, c2.x
  setp_eq p0.z, r1.z, c2.z
  breakp p0.z
endrep
rep i0
  add r1.w, r1.w, c2.x
  if_eq r1.w, c2.y
    break
  endif
endrep
callnz l0, p0.x
mov oT1, r1
ret
label l0
add r1.w, r1.w, c2.w
ret
