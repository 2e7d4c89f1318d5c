// ps_1_4 — texdepth: r5's x / y replaces the pixel's depth, after texcrd in the first phase.
ps_1_4
texcrd r5.rgb, t0
phase
texdepth r5
mov r0, v0
