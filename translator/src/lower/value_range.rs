//! The value-range pass: what the lowering knows of each component of an expression it has
//! built, as an interval the value lies in and whether it may be NaN. The strict multiply
//! reads it (docs/d3d9-rules.md#zero-product): the rule differs from IEEE's product only where
//! one factor is zero and the other infinite or NaN, so a factor known finite, or known never
//! to be zero, spares the product a guard ([`Lowerer::fmul_lanes`]).
//!
//! The facts come from the expressions themselves, computed when a product asks and kept for
//! the function (literals and constants, splats, swizzles, composes, selects, D3D9's `min`/`max`
//! selects, sums, products and quotients where no zero meets an infinity, square roots and
//! logarithms (the pieces of `rsq` and `log`), `frc`, `sincos`, `exp`, integer conversions), and from
//! what the lowering records where the expression alone does not say it: saturation, the strict
//! product's function, a depth comparison's result, vertex inputs whose declared type is
//! normalised, and what the key says of the draw's constants and textures
//! ([`ShaderKey::finite_constants`], [`ShaderKey::normalised_samplers`]). Values that come from
//! memory (registers across blocks, application constants and texture samples the key says
//! nothing of) are unknown.
//!
//! [`ShaderKey::finite_constants`]: crate::ShaderKey::finite_constants
//! [`ShaderKey::normalised_samplers`]: crate::ShaderKey::normalised_samplers
//!
//! The intervals and their arithmetic, with the margins a GPU's rounding asks for, are in
//! `interval`.
//!
//! [`Lowerer::fmul_lanes`]: super::Lowerer::fmul_lanes

use naga::{BinaryOperator as B, Expression, Handle, Literal, MathFunction as M, ScalarKind, TypeInner, UnaryOperator};

use super::interval::{clamp, Interval, Ranges};
use super::Lowerer;

/// How deep the pass follows operands before it calls a value unknown (a long chain of
/// arithmetic; the bound keeps the recursion's stack small).
const MAX_DEPTH: u32 = 24;

/// What one expression is, as far as the pass reads it (handles only, so that reading the
/// arena and recording facts do not overlap).
enum Shape {
    Same(Handle<Expression>),
    Splat(Handle<Expression>),
    Swizzle(Handle<Expression>, [u8; 4]),
    Component(Handle<Expression>, u32),
    Compose([Option<Handle<Expression>>; 4]),
    Select(Handle<Expression>, Handle<Expression>, Handle<Expression>),
    Binary(B, Handle<Expression>, Handle<Expression>),
    Negate(Handle<Expression>),
    Math(M, Handle<Expression>, Option<Handle<Expression>>, Option<Handle<Expression>>),
    Known(Interval),
    Unknown,
}

impl Lowerer<'_> {
    /// What is known of `e`'s components.
    pub(crate) fn ranges(&mut self, e: Handle<Expression>) -> Ranges {
        self.ranges_at(e, 0)
    }

    /// Records what is known of `e` where its expression does not say it.
    pub(crate) fn note_range(&mut self, e: Handle<Expression>, r: Ranges) {
        self.fb.tables.ranges.insert(e, r);
    }

    /// What is known of `e`, looked up where the pass has been before (most asks: the operands
    /// of products are shared), computed otherwise. Inlined, the lookup spares its callers the
    /// computation's large frame (callgrind, the bench's common list).
    #[inline]
    fn ranges_at(&mut self, e: Handle<Expression>, depth: u32) -> Ranges {
        match self.fb.tables.ranges.get(&e) {
            Some(r) => *r,
            None => self.compute_ranges(e, depth),
        }
    }

    /// What is known of `e`, not yet looked at, kept for the function.
    #[inline(never)]
    fn compute_ranges(&mut self, e: Handle<Expression>, depth: u32) -> Ranges {
        let r = match self.fb.tables.known.get(&e) {
            Some(bits) => bits.map(|b| Interval::exact(f32::from_bits(b))),
            None if depth >= MAX_DEPTH => [Interval::ANY; 4],
            None => {
                let shape = self.shape(e);
                self.ranges_of(shape, depth + 1)
            }
        };
        self.fb.tables.ranges.insert(e, r);
        r
    }

    fn shape(&self, e: Handle<Expression>) -> Shape {
        use Expression as E;
        match self.fb.f.expressions[e] {
            E::Literal(Literal::F32(v)) => Shape::Known(Interval::exact(v)),
            E::ZeroValue(_) => Shape::Known(Interval::new(0.0, 0.0)),
            E::Splat { value, .. } => Shape::Splat(value),
            E::Swizzle { vector, pattern, .. } => Shape::Swizzle(vector, pattern.map(|c| c.index() as u8)),
            E::AccessIndex { base, index } => Shape::Component(base, index),
            E::Compose { ref components, ty } => match self.module.types[ty].inner {
                TypeInner::Vector { size, .. } if components.len() == size as usize => {
                    let mut c = [None; 4];
                    c.iter_mut().zip(components).for_each(|(slot, &h)| *slot = Some(h));
                    Shape::Compose(c)
                }
                _ => Shape::Unknown,
            },
            E::Select { condition, accept, reject } => Shape::Select(condition, accept, reject),
            E::Binary { op, left, right } => Shape::Binary(op, left, right),
            E::Unary { op: UnaryOperator::Negate, expr } => Shape::Negate(expr),
            E::Math { fun, arg, arg1, arg2, .. } => Shape::Math(fun, arg, arg1, arg2),
            E::As { expr, kind: ScalarKind::Float, convert: Some(_) } => self.converted(expr),
            E::Load { .. } | E::FunctionArgument(_) | E::CallResult(_) => Shape::Unknown,
            _ => Shape::Unknown,
        }
    }

    /// A number converted to float: an integer's range is bounded, a boolean is 0 or 1.
    fn converted(&self, e: Handle<Expression>) -> Shape {
        match self.scalar_kind(e) {
            Some(ScalarKind::Float) => Shape::Same(e),
            // At most 2^32 in magnitude.
            Some(ScalarKind::Sint | ScalarKind::Uint) => Shape::Known(Interval::new(-4294967296.0, 4294967296.0)),
            Some(ScalarKind::Bool) => Shape::Known(Interval::UNIT),
            _ => Shape::Unknown,
        }
    }

    /// The scalar kind of `e`, where the operands that decide it lead to an argument, a literal
    /// or a conversion.
    fn scalar_kind(&self, mut e: Handle<Expression>) -> Option<ScalarKind> {
        use Expression as E;
        for _ in 0..MAX_DEPTH {
            e = match self.fb.f.expressions[e] {
                E::FunctionArgument(i) => {
                    return self.module.types[self.fb.f.arguments[i as usize].ty].inner.scalar_kind()
                }
                E::Literal(l) => return Some(l.scalar().kind),
                E::As { kind, .. } => return Some(kind),
                E::AccessIndex { base, .. } | E::Swizzle { vector: base, .. } | E::Splat { value: base, .. } => base,
                E::Binary { op: B::Add | B::Subtract | B::And | B::ShiftLeft | B::ShiftRight, left, .. } => left,
                _ => return None,
            };
        }
        None
    }

    fn ranges_of(&mut self, shape: Shape, depth: u32) -> Ranges {
        match shape {
            Shape::Known(i) => [i; 4],
            Shape::Unknown => [Interval::ANY; 4],
            Shape::Same(e) => self.ranges_at(e, depth),
            Shape::Splat(v) => [self.ranges_at(v, depth)[0]; 4],
            Shape::Swizzle(v, p) => {
                let r = self.ranges_at(v, depth);
                p.map(|c| r[usize::from(c)])
            }
            Shape::Component(v, i) => [self.ranges_at(v, depth).get(i as usize).copied().unwrap_or(Interval::ANY); 4],
            Shape::Compose(parts) => parts.map(|p| p.map_or(Interval::ANY, |h| self.ranges_at(h, depth)[0])),
            Shape::Select(c, a, b) => self.select_ranges(c, a, b, depth),
            Shape::Binary(op, a, b) => {
                let (ra, rb) = (self.ranges_at(a, depth), self.ranges_at(b, depth));
                let f: fn(Interval, Interval) -> Interval = match op {
                    B::Add => Interval::add,
                    B::Subtract => |a, b| a.add(b.neg()),
                    B::Multiply => Interval::mul,
                    B::Divide => Interval::div,
                    _ => |_, _| Interval::ANY,
                };
                std::array::from_fn(|i| f(ra[i], rb[i]))
            }
            Shape::Negate(e) => self.ranges_at(e, depth).map(Interval::neg),
            Shape::Math(fun, a, b, c) => self.math_ranges(fun, a, b, c, depth),
        }
    }

    /// A select: either value, except D3D9's `min` and `max` (`a < b ? a : b`, `a >= b ? a :
    /// b`), which also bound the result by the other operand.
    fn select_ranges(
        &mut self,
        c: Handle<Expression>,
        a: Handle<Expression>,
        b: Handle<Expression>,
        depth: u32,
    ) -> Ranges {
        let (ra, rb) = (self.ranges_at(a, depth), self.ranges_at(b, depth));
        if let Some(mask) = self.constant_mask(c) {
            return std::array::from_fn(|i| if mask[i] { ra[i] } else { rb[i] });
        }
        let pick: fn(Interval, Interval) -> Interval = match self.fb.f.expressions[c] {
            Expression::Binary { op: B::Less, left, right } if (left, right) == (a, b) => Interval::d3d9_min,
            Expression::Binary { op: B::GreaterEqual, left, right } if (left, right) == (a, b) => Interval::d3d9_max,
            _ => Interval::union,
        };
        std::array::from_fn(|i| pick(ra[i], rb[i]))
    }

    /// The lanes of a `vec4<bool>` module constant (a write mask the lowering selects by).
    fn constant_mask(&self, c: Handle<Expression>) -> Option<[bool; 4]> {
        let Expression::Constant(k) = self.fb.f.expressions[c] else { return None };
        let Expression::Compose { ref components, .. } = self.module.global_expressions[self.module.constants[k].init]
        else {
            return None;
        };
        let mut mask = [false; 4];
        for (m, &h) in mask.iter_mut().zip(components) {
            let Expression::Literal(Literal::Bool(b)) = self.module.global_expressions[h] else { return None };
            *m = b;
        }
        (components.len() == 4).then_some(mask)
    }

    fn math_ranges(
        &mut self,
        fun: M,
        a: Handle<Expression>,
        b: Option<Handle<Expression>>,
        c: Option<Handle<Expression>>,
        depth: u32,
    ) -> Ranges {
        let ra = self.ranges_at(a, depth);
        let each = |f: &dyn Fn(Interval) -> Interval| ra.map(f);
        match fun {
            M::Abs => each(&Interval::abs),
            M::Floor => each(&|x| x.monotone(f64::floor)),
            M::Ceil => each(&|x| x.monotone(f64::ceil)),
            M::Trunc => each(&|x| x.monotone(f64::trunc)),
            M::Round => each(&|x| x.monotone(f64::round)),
            M::Exp2 => each(&|x| x.monotone(f64::exp2)),
            M::Exp => each(&|x| x.monotone(f64::exp)),
            M::Sqrt => each(&|x| x.of_non_negative(f64::sqrt)),
            M::Log2 => each(&|x| x.of_non_negative(f64::log2)),
            M::Log => each(&|x| x.of_non_negative(f64::ln)),
            // An infinite argument has no fraction, sine or cosine: NaN.
            M::Fract => each(&|x| Interval { nan: !x.finite(), ..Interval::UNIT }),
            M::Sin | M::Cos => each(&|x| Interval { nan: !x.finite(), ..Interval::SIGNED_UNIT }),
            M::Sign => each(&|x| Interval { nan: x.nan, ..Interval::SIGNED_UNIT }),
            M::Saturate => each(&|x| Interval { nan: x.nan, ..Interval::UNIT }),
            M::Clamp => match (b, c) {
                (Some(b), Some(c)) => {
                    let (lo, hi) = (self.ranges_at(b, depth), self.ranges_at(c, depth));
                    std::array::from_fn(|i| clamp(ra[i], lo[i], hi[i]))
                }
                _ => [Interval::ANY; 4],
            },
            M::Dot => match b {
                Some(b) => [self.dot_range(a, ra, b, depth); 4],
                None => [Interval::ANY; 4],
            },
            _ => [Interval::ANY; 4],
        }
    }

    /// `dot(a, b)` of `vec4`s or `vec3`s: the sum over the operands' own components. A `vec3`
    /// swizzle's pattern still names a fourth component, which the sum must not read (its
    /// square may overflow where the three do not: `nrm` of (3, 0, 4, −1e30) is finite; fuzz-diff
    /// found a zero made of it). Where neither operand's size is visible, nothing is known.
    fn dot_range(&mut self, a: Handle<Expression>, ra: Ranges, b: Handle<Expression>, depth: u32) -> Interval {
        let Some(n) = self.vector_size(a).or_else(|| self.vector_size(b)) else { return Interval::ANY };
        let rb = self.ranges_at(b, depth);
        (0..n).map(|i| ra[i].mul(rb[i])).reduce(Interval::add).unwrap_or(Interval::ANY)
    }

    /// The number of components of a vector the lowering builds by size: a swizzle, a splat or
    /// a compose.
    fn vector_size(&self, e: Handle<Expression>) -> Option<usize> {
        match self.fb.f.expressions[e] {
            Expression::Swizzle { size, .. } | Expression::Splat { size, .. } => Some(size as usize),
            Expression::Compose { ref components, ty } => match self.module.types[ty].inner {
                TypeInner::Vector { size, .. } if components.len() == size as usize => Some(size as usize),
                _ => None,
            },
            _ => None,
        }
    }
}
