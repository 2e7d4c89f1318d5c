// expect: _x8, _d4 and _d8 exist only in ps_1_4
// ps_1_1-1_3 shift by _x2, _x4 and _d2 only.
ps_1_3
mov_x8 r0, c0
