// Case shader (shaders/cases/pixel/ps20_nrm_crs.toml): nrm (w scaled) and crs in a pixel shader.
ps_2_0
def c0, 3, 0, 4, 2
def c1, 1, 0, 0, 0
def c2, 0, 1, 0, 0
def c5, 9, 9, 9, 9
nrm r0, c0
mov r1, c5
crs r1.xyz, c2, c1
mov oC0, r0
mov oC1, r1
