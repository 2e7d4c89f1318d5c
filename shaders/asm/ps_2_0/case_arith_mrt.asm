// Case shader (shaders/cases/ps_2_0_arith_mrt.toml): mul, add_sat with a negated source, abs,
// rcp, mad with an API constant; two render targets.
ps_2_0
def c0, 0.5, -0.25, 2.0, 1.0
mov r0, c0
mul r1, r0, c0.z
add_sat r2, r1, -c0.w
abs r3, r1
rcp r4.x, c0.x
mov r4.yzw, c0.yyyw
mad r5, r3, c1, r2
mov oC0, r5
mov oC1, r4
