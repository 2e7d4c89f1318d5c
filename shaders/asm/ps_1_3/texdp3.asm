// ps_1_3 — texdp3tex and texdp3 (dot products of texture coordinates with a texel), texcoord.
ps_1_3
tex t0
texdp3tex t1, t0_bx2
texdp3 t2, t0_bx2
texcoord t3
add r0, t1, t2
mul r0, r0, t3
