// ps_1_1 — the 3x2 matrix texture instructions: texm3x2pad texm3x2tex, then texreg2gb.
ps_1_1
tex t0
texm3x2pad t1, t0_bx2
texm3x2tex t2, t0_bx2
texreg2gb t3, t0
mul r0, t2, t3
