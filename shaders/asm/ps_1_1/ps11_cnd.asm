// Case shader (shaders/cases/pixel/ps11_cnd.toml): ps_1_1 cnd selects on r0.a > 0.5.
ps_1_1
def c1, 0.25, 0.5, 0.75, 1
def c2, 1, 0.75, 0.5, 0.25
mov r0, c0
cnd r0, r0.a, c1, c2
