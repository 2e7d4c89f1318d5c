// expect: rcp source 1 (c0): a scalar operand takes one component
// Scalar instructions (rcp, rsq, exp, log, expp, logp, pow) read one component from 2_0 on.
vs_2_0
rcp r0, c0
mov oPos, r0
