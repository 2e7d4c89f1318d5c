//! The arithmetic the instructions are built from, with the float rules of the key
//! (docs/d3d9-rules.md#float-rules: in strict mode 0 · anything = 0 in every multiply,
//! rcp(0) = +inf, log(0) = −FLT_MAX). The instructions themselves are in `componentwise`,
//! `scalar`, `dot_products` and `lighting`.

use naga::{BinaryOperator as B, Expression, MathFunction as M, VectorSize};

use super::interval::Ranges;
use super::parts::Width;
use super::state::Expr;
use super::Lowerer;
use crate::bytecode::WriteMask;
use crate::key::FloatRules;

const FLT_MAX: f32 = f32::MAX;

impl Lowerer<'_> {
    /// `a · b` with the key's multiply rule, in as few operations as what is known of the
    /// factors allows ([`Lowerer::fmul_lanes`]).
    pub fn fmul(&mut self, a: Expr, b: Expr, w: Width) -> Expr {
        self.fmul_lanes(a, b, w, WriteMask::ALL)
    }

    /// `a · b` with the key's multiply rule, exact in the components in `lanes` (those the
    /// instruction keeps: the written ones, the summed ones of a short dot product); the others
    /// may hold anything. The strict rule's product differs from IEEE's only where one factor
    /// is ±0 and the other infinite or NaN, and its zero may have either sign
    /// (docs/d3d9-rules.md#zero-product). So, from what the value-range pass knows of the
    /// factors in `lanes` ([`value_range`](super::value_range)):
    /// - a factor known to be ±0 gives +0;
    /// - a square (`a · a`, as in `dp3 r, v, v` and `nrm`) is the plain product: a zero `a`
    ///   gives ±0 as the rule wants, and a non-zero one is no exception;
    /// - where neither factor can be zero while the other is infinite or NaN, the plain product;
    /// - where only `a` can be that zero, `a · (a == 0 ? 0 : b)` (and the same for `b`): when
    ///   `a` is ±0 the product is ±0, and otherwise `b` has no zero that could meet an infinite
    ///   `a`;
    /// - otherwise the module's function of the whole rule (`multiply_rule`).
    ///
    /// Each form is a pure expression of `a` and `b`, exact wherever the facts it was chosen by
    /// hold, so an instruction that shares one made for other lanes chose it by the same facts.
    pub fn fmul_lanes(&mut self, a: Expr, b: Expr, w: Width, lanes: WriteMask) -> Expr {
        if self.key.float_rules != FloatRules::Strict || a == b {
            return self.bin(B::Multiply, a, b);
        }
        // A scalar's facts are the same in every component.
        let lanes = if w == Width::Scalar { WriteMask::ALL } else { lanes };
        let (ra, rb) = (self.ranges(a), self.ranges(b));
        let zero = |r: &Ranges| lanes.components().all(|i| r[i].is_zero());
        if zero(&ra) || zero(&rb) {
            return self.runtime_zero(w);
        }
        // Whether `x` can be ±0 in a lane where `y` can be infinite or NaN.
        let clash = |x: &Ranges, y: &Ranges| lanes.components().any(|i| x[i].may_be_zero() && !y[i].finite());
        match (clash(&ra, &rb), clash(&rb, &ra)) {
            (false, false) => self.bin(B::Multiply, a, b),
            (true, false) => {
                let kept = self.zero_where_zero(b, a, w);
                self.bin(B::Multiply, a, kept)
            }
            (false, true) => {
                let kept = self.zero_where_zero(a, b, w);
                self.bin(B::Multiply, kept, b)
            }
            (true, true) => self.rule_product(a, b, w),
        }
    }

    /// `(z == 0 ? 0 : x)`: `x`, and +0 in the lanes where `z` is ±0 (a constant mask when `z`
    /// is a known constant).
    fn zero_where_zero(&mut self, x: Expr, z: Expr, w: Width) -> Expr {
        let zero = self.fconst(0.0, w);
        let condition = match (self.fb.tables.known.get(&z).copied(), w) {
            (Some(bits), Width::Vec4) => {
                let mask = (0..4).filter(|&i| bits[i] << 1 == 0).fold(0u8, |m, i| m | 1 << i);
                self.mask_constant(WriteMask(mask))
            }
            _ => self.is_zero(z, w),
        };
        self.select(condition, zero, x)
    }

    /// `x == 0` (made once per block for the same `x`, a factor of several products, as every
    /// pure expression is).
    fn is_zero(&mut self, x: Expr, w: Width) -> Expr {
        let zero = self.fconst(0.0, w);
        self.bin(B::Equal, x, zero)
    }

    /// The sum of the first `n` products of `a · b`, each product under the multiply rule.
    /// The sum is `dot(products, 1)`: multiplying by 1 is exact, so no product is fused into an
    /// add whatever the backend does with `dot`.
    pub fn dot(&mut self, a: Expr, b: Expr, n: u8) -> Expr {
        let p = self.fmul_lanes(a, b, Width::Vec4, super::dot_products::summed(n));
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
                for c in 1..usize::from(n) {
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

    /// Four scalars as a value per component (no expression until it is read as a vector).
    pub fn scalars4(&mut self, c: [Expr; 4]) -> super::builder::Parts {
        c.map(|base| super::builder::Comp { base, index: super::builder::SCALAR })
    }

    pub fn compose4(&mut self, c: [Expr; 4]) -> Expr {
        self.fb.expr(Expression::Compose { ty: self.t.vec4f, components: c.to_vec() })
    }

    /// Clamps to ±FLT_MAX in fast mode (so no infinity reaches a multiply).
    pub(super) fn tame(&mut self, v: Expr, w: Width) -> Expr {
        if self.key.float_rules != FloatRules::Fast {
            return v;
        }
        let lo = self.fconst(-FLT_MAX, w);
        let hi = self.fconst(FLT_MAX, w);
        self.fb.expr(Expression::Math { fun: M::Clamp, arg: v, arg1: Some(lo), arg2: Some(hi), arg3: None })
    }

    /// `1 / x` (rcp(0) = +inf).
    pub(super) fn rcp(&mut self, x: Expr, w: Width) -> Expr {
        let one = self.fconst(1.0, w);
        let r = self.bin(B::Divide, one, x);
        self.tame(r, w)
    }

    /// `log2(|x|)`, with log(0) = −FLT_MAX outside IEEE mode.
    pub(super) fn log(&mut self, x: Expr) -> Expr {
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
    pub(super) fn pow(&mut self, a: Expr, b: Expr) -> Expr {
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

    pub(super) fn select(&mut self, condition: Expr, accept: Expr, reject: Expr) -> Expr {
        self.fb.expr(Expression::Select { condition, accept, reject })
    }
}
