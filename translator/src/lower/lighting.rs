//! The vertex lighting helpers: `dst` (the distance vector) and `lit` (the lighting
//! coefficients).

use naga::{BinaryOperator as B, Expression, MathFunction as M};

use super::builder::Parts;
use super::operands::Op;
use super::parts::Width;
use super::{LowerError, Lowerer};
use crate::bytecode::Opcode;

impl Lowerer<'_> {
    /// Lowers `dst` and `lit`.
    pub fn lighting(&mut self, op: &Op) -> Result<(), LowerError> {
        let value = match op.opcode() {
            Opcode::Lit => self.lit(op)?,
            _ => self.distance_vector(op)?,
        };
        self.write_parts(op, op.dst(), op.dst().mask, value)
    }

    /// `dst d, a, b`: (1, a.y · b.y, a.z, b.w).
    fn distance_vector(&mut self, op: &Op) -> Result<Parts, LowerError> {
        let (a, b) = (self.src_n(op, 0)?, self.src_n(op, 1)?);
        let (ay, by) = (self.component(a, 1), self.component(b, 1));
        let y = self.fmul(ay, by, Width::Scalar);
        let z = self.component(a, 2);
        let w = self.component(b, 3);
        let one = self.fconst(1.0, Width::Scalar);
        Ok(self.scalars4([one, y, z, w]))
    }

    /// `lit`: (1, max(x, 0), x > 0 && y > 0 ? y^clamp(w, ±127.9961) : 0, 1).
    fn lit(&mut self, op: &Op) -> Result<Parts, LowerError> {
        let v = self.src_n(op, 0)?;
        let (x, y, w) = (self.component(v, 0), self.component(v, 1), self.component(v, 3));
        let zero = self.fconst(0.0, Width::Scalar);
        let one = self.fconst(1.0, Width::Scalar);
        let lo = self.fconst(-127.9961, Width::Scalar);
        let hi = self.fconst(127.9961, Width::Scalar);
        let yo = self.math2(M::Max, x, zero);
        let p = self.fb.expr(Expression::Math { fun: M::Clamp, arg: w, arg1: Some(lo), arg2: Some(hi), arg3: None });
        let pw = self.pow(y, p);
        let xp = self.bin(B::Greater, x, zero);
        let yp = self.bin(B::Greater, y, zero);
        let both = self.bin(B::LogicalAnd, xp, yp);
        let z = self.select(both, pw, zero);
        Ok(self.scalars4([one, yo, z, one]))
    }
}
