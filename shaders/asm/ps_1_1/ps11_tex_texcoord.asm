// Case shader (shaders/cases/pixel/ps11_tex_texcoord.toml): tex samples stage 0 at coordinate
// set 0; texcoord saturates set 1 and sets w = 1.
ps_1_1
tex t0
texcoord t1
mul r0, t0, t1
