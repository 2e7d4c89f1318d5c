// Tint regression (tests/tests/tint_regressions.rs; docs/wgsl.md §3): texld inside a dynamic `if`,
// dsx inside a loop and texld in a subroutine called inside an `if`, as fxc emits them. D3D9 leaves
// the result undefined only where a quad's pixels diverge; WGSL's uniformity analysis refuses the
// calls ("'textureSample' must only be called from uniform control flow") unless the module turns
// the derivative_uniformity diagnostic off.
ps_3_0
dcl_texcoord0 v0
dcl_2d s0
def c0, 0.5, 0, 0, 0
defi i0, 2, 0, 0, 0
defb b0, true
mov r1, v0
mov oC0, c0.y
if_gt v0.x, c0.x
  texld r0, v0, s0
  mov oC0, r0
endif
rep i0
  dsx r2, r1
  add r1, r1, r2
endrep
if b0
  call l0
endif
mov oC1, r1
ret
label l0
texld r3, v0.yxzw, s0
add r1, r1, r3
ret
