// expect: texm3x2pad is not followed by the instruction that completes it
// texm3x2pad is followed by texm3x2tex or texm3x2depth.
ps_1_1
tex t0
texm3x2pad t1, t0
mov r0, t0
