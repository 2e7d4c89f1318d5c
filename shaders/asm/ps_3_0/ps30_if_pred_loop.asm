// Case shader (shaders/cases/pixel/ps30_if_pred_loop.toml): setp with a swizzle, if p0.x,
// if !p0.y / else, loop left by breakp, callnz with an API boolean.
ps_3_0
defi i0, 4, 0, 1, 0
def c0, 1, 0, -1, 0.5
def c1, 0, 0, 0, 0
def c2, 2, 0, 0, 0
mov r0, c1
setp_lt p0.xy, c0.zx, c0.yy
if p0.x
  mov r0.x, c0.x
endif
if !p0.y
  mov r0.y, c0.w
else
  mov r0.y, c0.z
endif
loop aL, i0
  add r0.z, r0.z, c0.x
  breakp p0.x
endloop
callnz l0, b3
mov oC0, r0
ret
label l0
add r0.w, r0.w, c2.x
ret
