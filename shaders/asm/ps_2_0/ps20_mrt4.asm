// Case shader (shaders/cases/pixel/ps20_mrt4.toml): four colour outputs oC0..oC3.
ps_2_0
def c0, 1, 0, 0, 1
def c1, 0, 1, 0, 1
def c2, 0, 0, 1, 1
def c3, 1, 1, 0, 0
mov oC0, c0
mov oC1, c1
mov oC2, c2
mov oC3, c3
