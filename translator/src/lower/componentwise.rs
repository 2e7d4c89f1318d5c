//! Per-component arithmetic: each result component from the same components of the sources —
//! mov/mova, add, sub, mul, mad, lrp, min, max, slt, sge, frc, abs, sgn, cmp, cnd, and the
//! derivatives dsx/dsy.

use naga::{BinaryOperator as B, Expression, MathFunction as M};

use super::modifiers::Width;
use super::operands::Op;
use super::registers::Expr;
use super::{LowerError, Lowerer};
use crate::bytecode::Opcode;

impl Lowerer<'_> {
    /// Lowers a per-component instruction.
    pub fn componentwise(&mut self, op: &Op) -> Result<(), LowerError> {
        use Opcode as O;
        let s = |l: &mut Self, i| l.src_n(op, i);
        if op.opcode() == O::Mov && op.src(0).modifier == crate::bytecode::SrcModifier::None {
            // A copy of components: no expression until the destination is read as a vector.
            let parts = self.src_parts(&op.src(0))?;
            return self.write_parts(op, op.dst(), op.dst().mask, parts);
        }
        let value = match op.opcode() {
            O::Mov | O::Mova => s(self, 0)?,
            O::Add | O::Sub => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                self.bin(if op.opcode() == O::Add { B::Add } else { B::Subtract }, a, b)
            }
            O::Mul => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                self.fmul(a, b, Width::Vec4)
            }
            O::Mad => {
                let (a, b, c) = (s(self, 0)?, s(self, 1)?, s(self, 2)?);
                let p = self.fmul(a, b, Width::Vec4);
                self.bin(B::Add, p, c)
            }
            O::Lrp => {
                let (a, b, c) = (s(self, 0)?, s(self, 1)?, s(self, 2)?);
                let d = self.bin(B::Subtract, b, c);
                let p = self.fmul(a, d, Width::Vec4);
                self.bin(B::Add, p, c)
            }
            O::Min | O::Max | O::Slt | O::Sge => self.comparing(op)?,
            O::Frc => {
                let x = s(self, 0)?;
                let fl = self.math1(M::Floor, x);
                self.bin(B::Subtract, x, fl)
            }
            O::Abs | O::Sgn => {
                let x = s(self, 0)?;
                self.math1(if op.opcode() == O::Abs { M::Abs } else { M::Sign }, x)
            }
            O::Cmp | O::Cnd => self.conditional(op)?,
            O::Dsx | O::Dsy => self.derivative(op)?,
            other => return Err(self.unsupported(format!("{other:?}"))),
        };
        self.write(op, value)
    }

    /// min, max, slt and sge: one comparison of a and b per component.
    fn comparing(&mut self, op: &Op) -> Result<Expr, LowerError> {
        let (a, b) = (self.src_n(op, 0)?, self.src_n(op, 1)?);
        Ok(match op.opcode() {
            Opcode::Min | Opcode::Max => {
                // The reference's definitions, `a < b ? a : b` and `a >= b ? a : b`: exact for
                // NaN operands too, where WGSL's min/max leave the result to the driver.
                let take_a = self.bin(if op.opcode() == Opcode::Min { B::Less } else { B::GreaterEqual }, a, b);
                self.select(take_a, a, b)
            }
            _ => {
                let c = self.bin(if op.opcode() == Opcode::Slt { B::Less } else { B::GreaterEqual }, a, b);
                let (one, zero) = (self.splat(1.0), self.splat(0.0));
                self.select(c, one, zero)
            }
        })
    }

    /// `cmp d, a, b, c`: a ≥ 0 ? b : c; `cnd`: a > 0.5 ? b : c.
    fn conditional(&mut self, op: &Op) -> Result<Expr, LowerError> {
        let (a, b, c) = (self.src_n(op, 0)?, self.src_n(op, 1)?, self.src_n(op, 2)?);
        let (threshold, test) = if op.opcode() == Opcode::Cmp { (0.0, B::GreaterEqual) } else { (0.5, B::Greater) };
        let t = self.splat(threshold);
        let pick_b = self.bin(test, a, t);
        Ok(self.select(pick_b, b, c))
    }

    /// dsx/dsy: the screen-space derivative (pixel shaders only).
    fn derivative(&mut self, op: &Op) -> Result<Expr, LowerError> {
        if !self.is_pixel() {
            return Err(self.invalid("derivatives exist only in pixel shaders"));
        }
        let x = self.src_n(op, 0)?;
        let axis = if op.opcode() == Opcode::Dsx { naga::DerivativeAxis::X } else { naga::DerivativeAxis::Y };
        Ok(self.fb.expr(Expression::Derivative { axis, ctrl: naga::DerivativeControl::None, expr: x }))
    }
}
