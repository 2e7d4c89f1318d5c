// vs_3_0 — flow control and the constant registers of vs_3_0: call callnz loop endloop ret label rep endrep if else endif defi defb if_gt/if_lt (ifc) break break_ge (breakc) setp breakp and predicated instructions texldl, output relative addressing o[aL + n];
// registers: i b aL l p0 s o.
vs_3_0
dcl_position v0
dcl_texcoord v1
dcl_2d s0
dcl_position o0
dcl_texcoord o1
dcl_texcoord1 o2
dcl_texcoord2 o3
defi i0, 2, 0, 1, 0
defi i1, 3, 0, 0, 0
defb b0, true
defb b1, false
def c90, 0, 0.5, 1, 2
m4x4 o0, v0, c0
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
  mov o[aL + 2], r1
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
texldl r2, v1, s0
add r1, r1, r2
mov o1, r1
ret
label l0
mov r2, c90.z
ret
label l1
mov r3, c90.w
ret
