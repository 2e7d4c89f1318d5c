// Case shader (shaders/cases/pixel/ps13_arith.toml): dp3, dp4, lrp, mad, sub with _bx2 and
// co-issue.
ps_1_3
def c0, 1, 0.5, 0.75, 0.25
def c1, 0.75, 1, 0.25, 0.25
def c2, 0.5, 0.25, 1, 0
def c3, 0.5, -0.5, 0.25, 0
dp3 r1, c0_bx2, c1_bx2
dp4 r1.a, c0_bx2, c1_bx2
lrp r0, c2, c0, c1
mad r0.rgb, r1, c3, r0
+sub r0.a, r1, r0
