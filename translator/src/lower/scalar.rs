//! Instructions on one scalar source (the component its swizzle replicates), with the result
//! replicated: rcp, rsq, exp, log, pow; and expp/logp (four different components in vs_1_x),
//! sincos (cos in x, sin in y).

use naga::{Expression, MathFunction as M};

use super::builder::{Parts, SharedKey};
use super::operands::Op;
use super::parts::Width;
use super::state::Expr;
use super::{LowerError, Lowerer};
use crate::bytecode::{Opcode, WriteMask};

impl Lowerer<'_> {
    /// Lowers a scalar-source instruction.
    pub fn scalar_op(&mut self, op: &Op) -> Result<(), LowerError> {
        use Opcode as O;
        let x = self.src_scalar_n(op, 0)?;
        let r = match op.opcode() {
            O::Rcp => self.rcp(x, Width::Scalar),
            O::Rsq => self.rsq(x),
            O::Exp => self.math1(M::Exp2, x),
            O::ExpP if self.version.is_sm1() => {
                let v = self.expp_sm1(x);
                return self.write_parts(op, op.dst(), op.dst().mask, v);
            }
            O::ExpP => self.math1(M::Exp2, x),
            O::Log => self.log(x),
            O::LogP if self.version.is_sm1() => {
                let v = self.logp_sm1(x);
                return self.write_parts(op, op.dst(), op.dst().mask, v);
            }
            O::LogP => self.log(x),
            O::Pow => {
                let b = self.src_scalar_n(op, 1)?;
                self.pow(x, b)
            }
            O::SinCos => return self.sincos(op, x),
            other => return Err(self.unsupported(format!("{other:?}"))),
        };
        self.write_scalar(op, r)
    }

    /// rsq takes |x|, so rsq(±0) = +inf. The zero is picked by a comparison (which −0 passes
    /// too) rather than left to 1/sqrt(|x|): without float controls a Vulkan driver may drop the
    /// abs of −0 and return −inf (fuzz-diff found it).
    fn rsq(&mut self, x: Expr) -> Expr {
        let a = self.math1(M::Abs, x);
        let q = self.math1(M::Sqrt, a);
        let r = self.rcp(q, Width::Scalar);
        let zero = self.fconst(0.0, Width::Scalar);
        let is0 = self.bin(naga::BinaryOperator::Equal, a, zero);
        let inf = self.fconst(f32::INFINITY, Width::Scalar);
        let inf = self.tame(inf, Width::Scalar);
        self.select(is0, inf, r)
    }

    /// vs_1_x `expp`: x = 2^⌊f⌋, y = f − ⌊f⌋, z = 2^f, w = 1.
    fn expp_sm1(&mut self, x: Expr) -> Parts {
        let fl = self.math1(M::Floor, x);
        let ex = self.math1(M::Exp2, fl);
        // f − ⌊f⌋ as one operation, as `frc` (componentwise.rs says why).
        let fr = self.math1(M::Fract, x);
        let e = self.math1(M::Exp2, x);
        let one = self.fconst(1.0, Width::Scalar);
        self.scalars4([ex, fr, e, one])
    }

    /// vs_1_x `logp`: x = the unbiased exponent of |f|, y = its mantissa under the exponent of 1
    /// (in [1, 2)), z = log2|f|, w = 1. The logp page reads x and y from |f|'s bits, and so does
    /// this: ⌊log2|f|⌋ and |f| / 2^x are wrong just below a power of two, where log2 rounds up to
    /// the integer (log2(FLT_MAX) is 128.0 in f32, so y became FLT_MAX / inf = 0; fuzz-diff found
    /// it).
    fn logp_sm1(&mut self, x: Expr) -> Parts {
        use naga::{BinaryOperator as B, ScalarKind};
        let l = self.log(x);
        let a = self.math1(M::Abs, x);
        let bits = self.fb.expr(Expression::As { expr: a, kind: ScalarKind::Uint, convert: None });
        let shift = self.fb.shared(SharedKey::U32(23));
        let biased = self.bin(B::ShiftRight, bits, shift);
        let biased = self.fb.expr(Expression::As { expr: biased, kind: ScalarKind::Float, convert: Some(4) });
        let bias = self.fconst(127.0, Width::Scalar);
        let e = self.bin(B::Subtract, biased, bias);
        let fraction = self.fb.shared(SharedKey::U32(0x007F_FFFF));
        let fraction = self.bin(B::And, bits, fraction);
        let one = self.fb.shared(SharedKey::U32(1.0f32.to_bits()));
        let m = self.bin(B::InclusiveOr, fraction, one);
        let m = self.fb.expr(Expression::As { expr: m, kind: ScalarKind::Float, convert: None });
        // logp(0) is −FLT_MAX in every log component (the logp page; the interpreter agrees).
        let zero = self.fconst(0.0, Width::Scalar);
        let is_zero = self.bin(B::Equal, a, zero);
        let lowest = self.fconst(-f32::MAX, Width::Scalar);
        let e = self.select(is_zero, lowest, e);
        let m = self.select(is_zero, lowest, m);
        let one = self.fconst(1.0, Width::Scalar);
        self.scalars4([e, m, l, one])
    }

    /// `sincos d.xy, x`: (cos x, sin x) into x and y only.
    fn sincos(&mut self, op: &Op, x: Expr) -> Result<(), LowerError> {
        let dst = op.dst();
        let c = self.math1(M::Cos, x);
        let sn = self.math1(M::Sin, x);
        let zero = self.fconst(0.0, Width::Scalar);
        let v = self.scalars4([c, sn, zero, zero]);
        self.write_parts(op, dst, WriteMask(dst.mask.0 & op.info().writes), v)
    }
}
