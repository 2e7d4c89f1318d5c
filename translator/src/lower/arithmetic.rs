//! Arithmetic instructions, with the float rules of the key (docs/d3d9-rules.md#float-rules: in strict mode
//! 0 · anything = 0 in every multiply, rcp(0) = +inf, log(0) = −FLT_MAX).

use naga::{BinaryOperator as B, Expression, MathFunction as M, VectorSize};

use super::modifiers::Width;
use super::registers::Expr;
use super::{LowerError, Lowerer};
use crate::bytecode::{Instruction, Opcode, SrcParam, WriteMask};
use crate::key::FloatRules;

const FLT_MAX: f32 = f32::MAX;

impl Lowerer<'_> {
    /// `a · b` with the key's multiply rule: strict is `(b == 0 ? 0 : a) · (a == 0 ? 0 : b)`.
    pub fn fmul(&mut self, a: Expr, b: Expr, w: Width) -> Expr {
        if self.key.float_rules != FloatRules::Strict {
            return self.bin(B::Multiply, a, b);
        }
        // A known factor: all components zero gives zero; all finite and non-zero reduces the
        // rule to (other == 0 ? 0 : known) · other.
        for (known, other) in [(a, b), (b, a)] {
            let Some(bits) = self.fb.known.get(&known).copied() else { continue };
            let vals = bits.map(f32::from_bits);
            if bits.iter().all(|b| *b == 0) {
                // (+0 == 0) makes the other factor 0: +0 · 0 = +0.
                return self.fconst(0.0, w);
            }
            if vals.iter().all(|v| v.is_finite() && *v != 0.0) {
                let zero = self.fconst(0.0, w);
                let oz = self.bin(B::Equal, other, zero);
                let k = self.fb.expr(Expression::Select { condition: oz, accept: zero, reject: known });
                return self.bin(B::Multiply, k, other);
            }
        }
        let zero = self.fconst(0.0, w);
        let az = self.bin(B::Equal, a, zero);
        let bz = self.bin(B::Equal, b, zero);
        let a2 = self.fb.expr(Expression::Select { condition: bz, accept: zero, reject: a });
        let b2 = self.fb.expr(Expression::Select { condition: az, accept: zero, reject: b });
        self.bin(B::Multiply, a2, b2)
    }

    /// The sum of the first `n` products of `a · b`, each product under the multiply rule.
    /// The sum is `dot(products, 1)`: multiplying by 1 is exact, so no product is fused into an
    /// add whatever the backend does with `dot`.
    pub fn dot(&mut self, a: Expr, b: Expr, n: usize) -> Expr {
        let p = self.fmul(a, b, Width::Vec4);
        match n {
            4 => {
                let one = self.splat(1.0);
                self.math2(M::Dot, p, one)
            }
            3 => {
                let one = self.splat(1.0);
                use naga::SwizzleComponent as C;
                let pattern = [C::X, C::Y, C::Z, C::W];
                let p3 = self.fb.expr(Expression::Swizzle { size: VectorSize::Tri, vector: p, pattern });
                let one3 = self.fb.expr(Expression::Swizzle { size: VectorSize::Tri, vector: one, pattern });
                self.math2(M::Dot, p3, one3)
            }
            _ => {
                let mut sum = self.component(p, 0);
                for c in 1..n {
                    let x = self.component(p, c);
                    sum = self.bin(B::Add, sum, x);
                }
                sum
            }
        }
    }

    pub fn splat_expr(&mut self, s: Expr) -> Expr {
        self.fb.expr(Expression::Splat { size: VectorSize::Quad, value: s })
    }

    pub fn compose4(&mut self, c: [Expr; 4]) -> Expr {
        self.fb.expr(Expression::Compose { ty: self.t.vec4f, components: c.to_vec() })
    }

    /// Clamps to ±FLT_MAX in fast mode (so no infinity reaches a multiply).
    fn tame(&mut self, v: Expr, w: Width) -> Expr {
        if self.key.float_rules != FloatRules::Fast {
            return v;
        }
        let lo = self.fconst(-FLT_MAX, w);
        let hi = self.fconst(FLT_MAX, w);
        self.fb.expr(Expression::Math { fun: M::Clamp, arg: v, arg1: Some(lo), arg2: Some(hi), arg3: None })
    }

    /// `1 / x` (rcp(0) = +inf).
    fn rcp(&mut self, x: Expr, w: Width) -> Expr {
        let one = self.fconst(1.0, w);
        let r = self.bin(B::Divide, one, x);
        self.tame(r, w)
    }

    /// `log2(|x|)`, with log(0) = −FLT_MAX outside IEEE mode.
    fn log(&mut self, x: Expr) -> Expr {
        let a = self.math1(M::Abs, x);
        let l = self.math1(M::Log2, a);
        if self.key.float_rules == FloatRules::Ieee {
            return l;
        }
        let zero = self.fconst(0.0, Width::Scalar);
        let is0 = self.bin(B::Equal, a, zero);
        let min = self.fconst(-FLT_MAX, Width::Scalar);
        let l = self.fb.expr(Expression::Select { condition: is0, accept: min, reject: l });
        self.tame(l, Width::Scalar)
    }

    /// `|a|^b`: `exp2(b · log2|a|)`, the multiply under the key's rule, with the edges picked
    /// by comparison: b = 0 gives 1 whatever a is, and a zero base gives +inf for b < 0 and 0
    /// for b > 0 (a NaN b stays NaN).
    ///
    /// The comparisons are not redundant with IEEE arithmetic: a Vulkan driver may fuse
    /// `exp2(log2(a) · b)` into its own `pow`, which GLSL.std.450 leaves undefined for a = 0 and
    /// b ≤ 0 (lavapipe returns 0 for any zero base; fuzz-diff vs_2_x 10485, vs_3_0 11629).
    fn pow(&mut self, a: Expr, b: Expr) -> Expr {
        let abs = self.math1(M::Abs, a);
        let l = self.math1(M::Log2, abs);
        let e = self.fmul(b, l, Width::Scalar);
        let p = self.math1(M::Exp2, e);
        let zero = self.fconst(0.0, Width::Scalar);
        let one = self.fconst(1.0, Width::Scalar);
        let inf = self.fconst(f32::INFINITY, Width::Scalar);
        let b_neg = self.bin(B::Less, b, zero);
        let b_pos = self.bin(B::Greater, b, zero);
        let zero_base = self.select(b_pos, zero, b);
        let zero_base = self.select(b_neg, inf, zero_base);
        let a0 = self.bin(B::Equal, abs, zero);
        let p = self.select(a0, zero_base, p);
        let b0 = self.bin(B::Equal, b, zero);
        self.select(b0, one, p)
    }

    fn select(&mut self, condition: Expr, accept: Expr, reject: Expr) -> Expr {
        self.fb.expr(Expression::Select { condition, accept, reject })
    }

    /// Lowers one arithmetic instruction.
    pub fn alu(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        use Opcode as O;
        let dst = self.dst(inst)?;
        let s = |l: &mut Self, i| l.src_n(inst, i);
        let f = |l: &mut Self, i| l.src_scalar_n(inst, i);
        let value = match inst.opcode {
            O::Mov | O::Mova => s(self, 0)?,
            O::Add => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                self.bin(B::Add, a, b)
            }
            O::Sub => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                self.bin(B::Subtract, a, b)
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
            O::Min | O::Max => {
                // The reference's definitions, `a < b ? a : b` and `a >= b ? a : b`: exact for
                // NaN operands too, where WGSL's min/max leave the result to the driver.
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let take_a = self.bin(if inst.opcode == O::Min { B::Less } else { B::GreaterEqual }, a, b);
                self.select(take_a, a, b)
            }
            O::Slt | O::Sge => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let c = self.bin(if inst.opcode == O::Slt { B::Less } else { B::GreaterEqual }, a, b);
                let (one, zero) = (self.splat(1.0), self.splat(0.0));
                self.select(c, one, zero)
            }
            O::Rcp => {
                let x = f(self, 0)?;
                let r = self.rcp(x, Width::Scalar);
                self.splat_expr(r)
            }
            O::Rsq => {
                // rsq takes |x|, so rsq(±0) = +inf. The zero is picked by a comparison (which
                // −0 passes too) rather than left to 1/sqrt(|x|): without float controls a
                // Vulkan driver may drop the abs of −0 and return −inf (fuzz-diff found it).
                let x = f(self, 0)?;
                let a = self.math1(M::Abs, x);
                let q = self.math1(M::Sqrt, a);
                let r = self.rcp(q, Width::Scalar);
                let zero = self.fconst(0.0, Width::Scalar);
                let is0 = self.bin(B::Equal, a, zero);
                let inf = self.fconst(f32::INFINITY, Width::Scalar);
                let inf = self.tame(inf, Width::Scalar);
                let r = self.select(is0, inf, r);
                self.splat_expr(r)
            }
            O::Dp3 | O::Dp4 => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let d = self.dot(a, b, if inst.opcode == O::Dp3 { 3 } else { 4 });
                self.splat_expr(d)
            }
            O::Dp2Add => {
                let (a, b, c) = (s(self, 0)?, s(self, 1)?, f(self, 2)?);
                let d = self.dot(a, b, 2);
                let r = self.bin(B::Add, d, c);
                self.splat_expr(r)
            }
            O::Exp => {
                let x = f(self, 0)?;
                let r = self.math1(M::Exp2, x);
                self.splat_expr(r)
            }
            O::Log => {
                let x = f(self, 0)?;
                let r = self.log(x);
                self.splat_expr(r)
            }
            O::ExpP if self.version.is_sm1() => {
                // x = 2^⌊f⌋, y = f − ⌊f⌋, z = 2^f, w = 1.
                let x = f(self, 0)?;
                let fl = self.math1(M::Floor, x);
                let ex = self.math1(M::Exp2, fl);
                let fr = self.bin(B::Subtract, x, fl);
                let e = self.math1(M::Exp2, x);
                let one = self.fconst(1.0, Width::Scalar);
                self.compose4([ex, fr, e, one])
            }
            O::ExpP => {
                let x = f(self, 0)?;
                let r = self.math1(M::Exp2, x);
                self.splat_expr(r)
            }
            O::LogP if self.version.is_sm1() => {
                // x = ⌊log2|f|⌋, y = |f| / 2^x, z = log2|f|, w = 1.
                let x = f(self, 0)?;
                let l = self.log(x);
                let e = self.math1(M::Floor, l);
                let a = self.math1(M::Abs, x);
                let p = self.math1(M::Exp2, e);
                let m = self.bin(B::Divide, a, p);
                // logp(0) is −FLT_MAX in every log component (the logp page); the mantissa
                // would be 0 / 2^(−FLT_MAX) = NaN (fuzz-diff found it; the interpreter agrees).
                let zero = self.fconst(0.0, Width::Scalar);
                let is_zero = self.bin(B::Equal, a, zero);
                let lowest = self.fconst(-f32::MAX, Width::Scalar);
                let m = self.select(is_zero, lowest, m);
                let one = self.fconst(1.0, Width::Scalar);
                self.compose4([e, m, l, one])
            }
            O::LogP => {
                let x = f(self, 0)?;
                let r = self.log(x);
                self.splat_expr(r)
            }
            O::Frc => {
                let x = s(self, 0)?;
                let fl = self.math1(M::Floor, x);
                self.bin(B::Subtract, x, fl)
            }
            O::Abs => {
                let x = s(self, 0)?;
                self.math1(M::Abs, x)
            }
            O::Sgn => {
                let x = s(self, 0)?;
                self.math1(M::Sign, x)
            }
            O::Pow => {
                let (a, b) = (f(self, 0)?, f(self, 1)?);
                let p = self.pow(a, b);
                self.splat_expr(p)
            }
            O::Lit => self.lit(inst)?,
            O::Dst => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                let (ay, by) = (self.component(a, 1), self.component(b, 1));
                let y = self.fmul(ay, by, Width::Scalar);
                let z = self.component(a, 2);
                let w = self.component(b, 3);
                let one = self.fconst(1.0, Width::Scalar);
                self.compose4([one, y, z, w])
            }
            O::Crs => {
                let (a, b) = (s(self, 0)?, s(self, 1)?);
                use crate::bytecode::Swizzle as S;
                let (a1, b1) = (self.swizzle(a, S::new(1, 2, 0, 3)), self.swizzle(b, S::new(2, 0, 1, 3)));
                let (a2, b2) = (self.swizzle(a, S::new(2, 0, 1, 3)), self.swizzle(b, S::new(1, 2, 0, 3)));
                let p1 = self.fmul(a1, b1, Width::Vec4);
                let p2 = self.fmul(a2, b2, Width::Vec4);
                let v = self.bin(B::Subtract, p1, p2);
                return self.write_masked(inst, dst, WriteMask(dst.mask.0 & 0b0111), v);
            }
            O::Nrm => {
                let x = s(self, 0)?;
                let len2 = self.dot(x, x, 3);
                let len = self.math1(M::Sqrt, len2);
                let inv = self.rcp(len, Width::Scalar);
                let invv = self.splat_expr(inv);
                self.fmul(x, invv, Width::Vec4)
            }
            O::SinCos => {
                let x = f(self, 0)?;
                let c = self.math1(M::Cos, x);
                let sn = self.math1(M::Sin, x);
                let zero = self.fconst(0.0, Width::Scalar);
                let v = self.compose4([c, sn, zero, zero]);
                return self.write_masked(inst, dst, WriteMask(dst.mask.0 & 0b0011), v);
            }
            O::Cmp => {
                let (a, b, c) = (s(self, 0)?, s(self, 1)?, s(self, 2)?);
                let zero = self.splat(0.0);
                let ge = self.bin(B::GreaterEqual, a, zero);
                self.select(ge, b, c)
            }
            O::Cnd => {
                let (a, b, c) = (s(self, 0)?, s(self, 1)?, s(self, 2)?);
                let half = self.splat(0.5);
                let gt = self.bin(B::Greater, a, half);
                self.select(gt, b, c)
            }
            O::Dsx | O::Dsy => {
                if !self.is_pixel() {
                    return Err(self.invalid("derivatives exist only in pixel shaders"));
                }
                let x = s(self, 0)?;
                let axis = if inst.opcode == O::Dsx { naga::DerivativeAxis::X } else { naga::DerivativeAxis::Y };
                self.fb.expr(Expression::Derivative { axis, ctrl: naga::DerivativeControl::None, expr: x })
            }
            O::M4x4 | O::M4x3 | O::M3x4 | O::M3x3 | O::M3x2 => {
                let (n, rows) = match inst.opcode {
                    O::M4x4 => (4, 4),
                    O::M4x3 => (4, 3),
                    O::M3x4 => (3, 4),
                    O::M3x3 => (3, 3),
                    _ => (3, 2),
                };
                let a = s(self, 0)?;
                let base: SrcParam = *inst.src.get(1).ok_or_else(|| self.invalid("missing source 1"))?;
                let zero = self.fconst(0.0, Width::Scalar);
                let mut out = [zero; 4];
                for (k, slot) in out.iter_mut().enumerate().take(rows) {
                    let mut row = base;
                    row.reg.num =
                        base.reg.num.checked_add(k as u16).ok_or_else(|| self.invalid("matrix row out of range"))?;
                    let r = self.src(&row)?;
                    *slot = self.dot(a, r, n);
                }
                let v = self.compose4(out);
                let mask = WriteMask(dst.mask.0 & ((1u8 << rows) - 1));
                return self.write_masked(inst, dst, mask, v);
            }
            other => return Err(self.unsupported(format!("{other:?}"))),
        };
        self.write(inst, value)
    }

    /// `lit`: (1, max(x, 0), x > 0 && y > 0 ? y^clamp(w, ±127.9961) : 0, 1).
    fn lit(&mut self, inst: &Instruction) -> Result<Expr, LowerError> {
        let v = self.src_n(inst, 0)?;
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
        Ok(self.compose4([one, yo, z, one]))
    }
}
