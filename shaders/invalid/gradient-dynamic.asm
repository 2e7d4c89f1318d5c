// expect: texld computes gradients inside dynamic flow control
// No gradient instruction (texld, texldb, texldp, dsx, dsy) inside dynamic flow control.
ps_3_0
dcl_texcoord0 v0
dcl_2d s0
mov r0, c0
if_gt c0.x, c1.x
texld r0, v0, s0
endif
mov oC0, r0
