// expect: rcp does not exist in ps_1_1
// rcp exists in pixel shaders from ps_2_0.
ps_1_1
rcp r0, c0
