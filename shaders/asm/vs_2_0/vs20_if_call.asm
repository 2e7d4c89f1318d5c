// Case shader (shaders/cases/vertex/vs20_if_call.toml): if b#/else/endif with API and def
// booleans, call, callnz (taken and not taken), ret.
vs_2_0
dcl_position v0
defb b1, false
def c0, 0, 0, 0, 0
def c1, 1, 2, 4, 8
mov oPos, v0
mov r0, c0
if b0
  add r0.x, r0.x, c1.x
else
  add r0.x, r0.x, c1.y
endif
if b1
  add r0.y, r0.y, c1.x
else
  add r0.y, r0.y, c1.y
endif
call l0
callnz l1, b1
callnz l2, b2
mov oT0, r0
mov oT1, c1
ret
label l0
add r0.z, r0.z, c1.z
ret
label l1
add r0.w, r0.w, c1.x
ret
label l2
add r0.w, r0.w, c1.w
ret
