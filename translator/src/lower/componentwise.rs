//! Per-component arithmetic: each result component from the same components of the sources —
//! mov/mova, add, sub, mul, mad, lrp, min, max, slt, sge, frc, abs, sgn, cmp, cnd, and the
//! derivatives dsx/dsy.

use naga::{BinaryOperator as B, Expression, MathFunction as M};

use super::operands::Op;
use super::parts::Width;
use super::state::Expr;
use super::{LowerError, Lowerer};
use crate::bytecode::{CndCondition, Opcode, Swizzle};

impl Lowerer<'_> {
    /// Lowers a per-component instruction. A write of one component computes that component
    /// alone, with scalar operations (no broadcast vectors).
    pub fn componentwise(&mut self, op: &Op) -> Result<(), LowerError> {
        if op.opcode() == Opcode::Mov && op.src(0).modifier == crate::bytecode::SrcModifier::None {
            // A copy of components: no expression until the destination is read as a vector.
            let parts = self.src_parts(&op.src(0))?;
            return self.write_parts(op, op.dst(), op.dst().mask, parts);
        }
        let mask = op.dst().mask.0;
        let lane = (mask.count_ones() == 1).then(|| mask.trailing_zeros() as usize);
        let value = self.componentwise_value(op, lane)?;
        match lane {
            Some(_) => self.write_scalar(op, value),
            None => self.write(op, value),
        }
    }

    /// Source `i` as a `vec4` (the written components are all that matter: a result component
    /// depends only on the same component of each source), or only component `lane` of it as
    /// a scalar.
    fn operand(&mut self, op: &Op, i: usize, lane: Option<usize>) -> Result<Expr, LowerError> {
        let src = op.src(i);
        let Some(c) = lane else { return self.src_lanes(&src, op.dst().mask) };
        let parts = self.src_parts(&src)?;
        let x = self.scalar_part(parts[c]);
        self.apply_modifier(src.modifier, x, Width::Scalar)
    }

    /// The result, a `vec4` or (with `lane`) the scalar of that component.
    fn componentwise_value(&mut self, op: &Op, lane: Option<usize>) -> Result<Expr, LowerError> {
        use Opcode as O;
        let w = if lane.is_some() { Width::Scalar } else { Width::Vec4 };
        let mask = op.dst().mask;
        let s = |l: &mut Self, i| l.operand(op, i, lane);
        Ok(match op.opcode() {
            O::Mov | O::Mova => s(self, 0)?,
            O::Add | O::Sub => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                self.bin(if op.opcode() == O::Add { B::Add } else { B::Subtract }, a, b)
            }
            O::Mul => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                self.fmul_lanes(a, b, w, mask)
            }
            O::Mad => {
                let (a, b, c) = (s(self, 0)?, s(self, 1)?, s(self, 2)?);
                let p = self.fmul_lanes(a, b, w, mask);
                self.bin(B::Add, p, c)
            }
            O::Lrp => {
                let (a, b, c) = (s(self, 0)?, s(self, 1)?, s(self, 2)?);
                let d = self.bin(B::Subtract, b, c);
                let p = self.fmul_lanes(a, d, w, mask);
                self.bin(B::Add, p, c)
            }
            O::Min | O::Max | O::Slt | O::Sge => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                self.comparing(op.opcode(), a, b, w)
            }
            // D3D9's frc is x − ⌊x⌋, which is how WGSL and GLSL.std.450 define fract. Emitted as
            // that one operation, a driver cannot reassociate its subtraction with a following
            // add: lavapipe turned an explicit (x − floor(x)) + 1e-5 into 0 at an integer x
            // (docs/d3d9-rules.md#float-rules).
            O::Frc => {
                let x = s(self, 0)?;
                self.math1(M::Fract, x)
            }
            O::Abs | O::Sgn => {
                let x = s(self, 0)?;
                self.math1(if op.opcode() == O::Abs { M::Abs } else { M::Sign }, x)
            }
            O::Cmp | O::Cnd => {
                let a = self.condition_operand(op, lane)?;
                let (b, c) = (s(self, 1)?, s(self, 2)?);
                self.conditional(op.opcode(), [a, b, c], w)
            }
            O::Dsx | O::Dsy => {
                let x = s(self, 0)?;
                self.derivative(op.opcode(), x)?
            }
            other => return Err(self.unsupported(format!("{other:?}"))),
        })
    }

    /// min, max, slt and sge: one comparison of a and b per component.
    fn comparing(&mut self, opcode: Opcode, a: Expr, b: Expr, w: Width) -> Expr {
        match opcode {
            Opcode::Min | Opcode::Max => {
                // The reference's definitions, `a < b ? a : b` and `a >= b ? a : b`: exact for
                // NaN operands too, where WGSL's min/max leave the result to the driver.
                let take_a = self.bin(if opcode == Opcode::Min { B::Less } else { B::GreaterEqual }, a, b);
                self.select(take_a, a, b)
            }
            _ => {
                let c = self.bin(if opcode == Opcode::Slt { B::Less } else { B::GreaterEqual }, a, b);
                let (one, zero) = (self.fconst(1.0, w), self.fconst(0.0, w));
                self.select(c, one, zero)
            }
        }
    }

    /// The first source of `cmp`/`cnd`. Before ps_1_4 `cnd` decides on the source's `.w` for
    /// every channel, whatever the source (docs/d3d9-rules.md#cnd, the profile's
    /// [`CndCondition`]); the `r0.a` the runtime demands is already `.w` in every lane, so
    /// only another swizzle, which a lenient parse lets through, needs the replicated `.w`.
    fn condition_operand(&mut self, op: &Op, lane: Option<usize>) -> Result<Expr, LowerError> {
        let src = op.src(0);
        let reads_w = op.opcode() == Opcode::Cnd
            && self.version.profile().cnd_condition == CndCondition::ReplicatedW
            && src.swizzle != Swizzle::replicate(3);
        if !reads_w {
            return self.operand(op, 0, lane);
        }
        let w = self.operand(op, 0, Some(3))?;
        Ok(if lane.is_some() { w } else { self.splat_expr(w) })
    }

    /// `cmp d, a, b, c`: a ≥ 0 ? b : c; `cnd`: a > 0.5 ? b : c.
    fn conditional(&mut self, opcode: Opcode, [a, b, c]: [Expr; 3], w: Width) -> Expr {
        let (threshold, test) = if opcode == Opcode::Cmp { (0.0, B::GreaterEqual) } else { (0.5, B::Greater) };
        let t = self.fconst(threshold, w);
        let pick_b = self.bin(test, a, t);
        self.select(pick_b, b, c)
    }

    /// dsx/dsy: the screen-space derivative (pixel shaders only).
    fn derivative(&mut self, opcode: Opcode, x: Expr) -> Result<Expr, LowerError> {
        if !self.is_pixel() {
            return Err(self.invalid("derivatives exist only in pixel shaders"));
        }
        let axis = if opcode == Opcode::Dsx { naga::DerivativeAxis::X } else { naga::DerivativeAxis::Y };
        Ok(self.fb.expr(Expression::Derivative { axis, ctrl: naga::DerivativeControl::None, expr: x }))
    }
}
