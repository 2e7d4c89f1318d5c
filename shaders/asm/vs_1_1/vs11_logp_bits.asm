// Case shader (shaders/cases/vertex/vs11_logp_bits.toml): logp's exponent and mantissa read from
// the bits, at values whose log2 rounds up to the next integer in f32.
vs_1_1
dcl_position v0
def c0, 3.4028235e38, 0, 0, 0
def c1, 3.9999998, 0, 0, 0
mov oPos, v0
mov r0, c0.y
mov r1, c0.y
logp r0.xyw, c0.x
logp r1.xyw, c1.x
mov oT0, r0
mov oT1, r1
