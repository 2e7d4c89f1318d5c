// ps_2_x — flow control, predication and gradients: rep endrep if (bool and predicate) if_lt
// else endif break break_gt breakp setp call callnz label ret defi defb dsx dsy texld texldd
// texkill; registers b i p0 l s t oC oDepth.
ps_2_x
dcl t0.xy
dcl_2d s0
defi i0, 3, 0, 1, 0
defb b0, true
def c0, 0, 0.5, 1, 2
mov r0, c0.x
rep i0
  add r0, r0, c0.y
  break_gt r0.x, c0.z
  setp_ge p0, r0, c0.w
  breakp p0.x
  if_lt r0.y, c0.x
    break
  endif
endrep
if b0
  call l0
else
  callnz l1, !b0
endif
setp_ne p0, r0, c0
if p0.y
  callnz l1, p0.x
endif
(p0.z) mov r1, r0
(!p0.w) add r1, r1, c0
dsx r2, t0
dsy r3, t0
texldd r4, t0, s0, r2, r3
texld r5, t0, s0
texkill r5
mad oC0, r4, r1, r5
mov oDepth, r4.z
ret
label l0
mov r6, c0.z
ret
label l1
mov r7, c0.w
ret
