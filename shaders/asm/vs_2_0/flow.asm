// vs_2_0 — flow control and the constant registers of vs_2_0: call callnz loop endloop ret label rep endrep if else endif defi defb;
// registers: i b aL l.
vs_2_0
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
mov oT0, r1
ret
label l0
mov r2, c90.z
ret
label l1
mov r3, c90.w
ret
