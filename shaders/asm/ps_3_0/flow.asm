// ps_3_0 — flow control, sampling and the 3.0 input registers: loop endloop rep endrep if
// if_ge else endif break break_ge breakp setp call callnz label ret defi defb dsx dsy texld
// texldp texldb texldl texldd texkill; registers aL v[aL] vPos vFace b i p0 l s oC oDepth, the
// centroid and partial-precision declarations.
ps_3_0
dcl_texcoord v0
dcl_texcoord1_centroid v1.xy
dcl_color v2
dcl vPos.xy
dcl vFace
dcl_2d s0
dcl_cube s1
dcl_volume_pp s2
defi i0, 3, 0, 1, 0
defi i1, 2, 0, 0, 0
defb b0, true
def c0, 0, 0.5, 1, 2
mov r0, c0.x
loop aL, i0
  add r0, r0, v[aL]
  break_ge r0.x, c0.w
endloop
rep i1
  setp_gt p0, r0, c0.z
  breakp p0.y
  if_ge r0.z, c0.w
    break
  endif
endrep
if b0
  call l0
else
  callnz l1, !b0
endif
if p0.x
  callnz l1, p0.z
endif
(!p0.w) mov r0.w, c0.z
texld r1, v0, s0
texldp r2, v0, s2
texldb r3, v0, s1
texldl r4, v0, s0
dsx r5, v1
dsy r6, v1
texldd r7, v1, s0, r5, r6
texkill v1
cmp r0, vFace, r0, -r0
add r0.xy, r0, vPos
add r1, r1, r2
add r1, r1, r3
add r1, r1, r4
mov oC0, r0
mov oC1, r1
mov oC2, r7
mov oDepth, r0.x
ret
label l0
mov r8, c0.z
ret
label l1
mov r9, c0.w
ret
