// vs_2_x — flow control and the constant registers of vs_2_x: call callnz loop endloop ret label rep endrep if else endif defi defb if_gt/if_lt (ifc) break break_ge (breakc) setp breakp and predicated instructions;
// registers: i b aL l p0.
vs_2_x
dcl_position v0
dcl_texcoord v1
defi i0, 2, 0, 1, 0
defi i1, 3, 0, 0, 0
defb b0, true
defb b1, false
def c90, 0, 0.5, 1, 2
m4x4 oPos, v0, c0
mov r0, c90.x
rep i1
  add r0, r0, c90.y
  break_ge r0.x, c90.w
  setp_gt p0, r0, c90.z
  breakp p0.x
  if_lt r0.y, c90.x
    break
  endif
endrep
mov r1, c90.x
loop aL, i0
  add r1, r1, c[aL + 10]
endloop
if b0
  call l0
else
  callnz l1, !b1
endif
setp_ne p0, r0, r1
if p0.y
  callnz l1, p0.x
endif
if_gt r0.x, r1.x
  (p0.z) mov r1, r0
endif
(!p0.w) add r1, r1, c90
mov oT0, r1
ret
label l0
mov r2, c90.z
ret
label l1
mov r3, c90.w
ret
