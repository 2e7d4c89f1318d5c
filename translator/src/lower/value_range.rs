//! The value-range pass: what the lowering knows of each component of an expression it has
//! built, as an interval the value lies in and whether it may be NaN. The strict multiply
//! reads it (docs/d3d9-rules.md#zero-product): the rule differs from IEEE's product only where
//! one factor is zero and the other infinite or NaN, so a factor known finite, or known never
//! to be zero, spares the product a guard ([`Lowerer::fmul_lanes`]).
//!
//! The facts come from the expressions themselves, computed when a product asks and kept for
//! the function (literals and constants, splats, swizzles, composes, selects, D3D9's `min`/`max`
//! selects, arithmetic on bounded values, `frc`, `sincos`, `exp`, integer conversions), and from
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
//! Bounds are computed in `f64` and not trusted near the ends of the float range: a bound past
//! [`HUGE`] may be an infinity, and one within [`TINY`] of zero may be zero, because a GPU may
//! contract a product into an add, reassociate a sum or flush a denormal to zero.
//!
//! [`Lowerer::fmul_lanes`]: super::Lowerer::fmul_lanes

use naga::{BinaryOperator as B, Expression, Handle, Literal, MathFunction as M, ScalarKind, TypeInner, UnaryOperator};

use super::Lowerer;

/// Past this magnitude a computed bound may be an infinity.
const HUGE: f64 = 1.0e37;
/// Within this magnitude of zero a computed bound may be zero.
const TINY: f64 = 1.0e-30;
/// How deep the pass follows operands before it calls a value unknown (a long chain of
/// arithmetic; the bound keeps the recursion's stack small).
const MAX_DEPTH: u32 = 24;

/// What is known of one component: it lies in `[lo, hi]` (infinite bounds allowed) unless it is
/// NaN, which it may be only where `nan`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Interval {
    lo: f64,
    hi: f64,
    nan: bool,
}

/// An expression's facts per component (a scalar's four are the same).
pub(crate) type Ranges = [Interval; 4];

impl Interval {
    /// Nothing known.
    pub const ANY: Interval = Interval { lo: f64::NEG_INFINITY, hi: f64::INFINITY, nan: true };
    /// `[0, 1]`, never NaN: saturated values, comparisons' 0/1 results.
    pub const UNIT: Interval = Interval { lo: 0.0, hi: 1.0, nan: false };
    /// A finite value.
    pub const FINITE: Interval = Interval { lo: -(f32::MAX as f64), hi: f32::MAX as f64, nan: false };
    /// `[−1, 1]`, never NaN.
    pub const SIGNED_UNIT: Interval = Interval { lo: -1.0, hi: 1.0, nan: false };

    /// `[lo, hi]`, never NaN, with the bounds as computed (not widened).
    pub fn new(lo: f64, hi: f64) -> Interval {
        Interval { lo, hi, nan: false }
    }

    /// Exactly `v` (NaN: anything).
    pub fn exact(v: f32) -> Interval {
        if v.is_nan() {
            return Interval::ANY;
        }
        Interval::new(f64::from(v), f64::from(v))
    }

    /// A computed interval, its bounds widened where a GPU may round them to an infinity or a
    /// zero; a NaN bound (inf − inf) makes it unknown.
    fn computed(lo: f64, hi: f64, nan: bool) -> Interval {
        if lo.is_nan() || hi.is_nan() {
            return Interval::ANY;
        }
        let widen = |x: f64, toward_zero: f64| {
            if x.abs() > HUGE {
                x.signum() * f64::INFINITY
            } else if x.abs() < TINY {
                toward_zero
            } else {
                x
            }
        };
        // A tiny bound becomes 0 (the value may flush to zero); a huge one infinite.
        Interval { lo: widen(lo, lo.min(0.0)), hi: widen(hi, hi.max(0.0)), nan }
    }

    /// Finite: never NaN, never infinite.
    pub fn finite(self) -> bool {
        !self.nan && self.lo > f64::NEG_INFINITY && self.hi < f64::INFINITY
    }

    /// Possibly ±0.
    pub fn may_be_zero(self) -> bool {
        self.lo <= 0.0 && self.hi >= 0.0
    }

    /// Certainly ±0.
    pub fn is_zero(self) -> bool {
        !self.nan && self.lo == 0.0 && self.hi == 0.0
    }

    /// Either value.
    fn union(self, o: Interval) -> Interval {
        Interval { lo: self.lo.min(o.lo), hi: self.hi.max(o.hi), nan: self.nan || o.nan }
    }

    fn neg(self) -> Interval {
        Interval { lo: -self.hi, hi: -self.lo, nan: self.nan }
    }

    fn abs(self) -> Interval {
        if self.lo >= 0.0 {
            self
        } else if self.hi <= 0.0 {
            self.neg()
        } else {
            Interval { lo: 0.0, hi: self.hi.max(-self.lo), nan: self.nan }
        }
    }

    /// Bounded: no infinite bound (NaN may still be possible).
    fn bounded(self) -> bool {
        self.lo > f64::NEG_INFINITY && self.hi < f64::INFINITY
    }

    fn add(self, o: Interval) -> Interval {
        if !self.bounded() || !o.bounded() {
            return Interval::ANY;
        }
        Interval::computed(self.lo + o.lo, self.hi + o.hi, self.nan || o.nan)
    }

    /// The IEEE product. The strict rule's is within it wherever the lowering multiplies
    /// plainly: there a zero factor never meets an infinite or NaN one.
    fn mul(self, o: Interval) -> Interval {
        if self.is_zero() || o.is_zero() {
            // 0 · inf and 0 · NaN are NaN.
            return Interval { lo: 0.0, hi: 0.0, nan: !(self.finite() && o.finite()) };
        }
        if !self.bounded() || !o.bounded() {
            return Interval::ANY;
        }
        let c = [self.lo * o.lo, self.lo * o.hi, self.hi * o.lo, self.hi * o.hi];
        let lo = c.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = c.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Interval::computed(lo, hi, self.nan || o.nan)
    }

    /// A function increasing in its argument, of a value that is never NaN where `f` is
    /// defined on all of `[lo, hi]`.
    fn monotone(self, f: fn(f64) -> f64) -> Interval {
        Interval::computed(f(self.lo), f(self.hi), self.nan)
    }

    /// D3D9's `min`, `a < b ? a : b`: a NaN `a` picks `b`, a NaN `b` is picked.
    fn d3d9_min(a: Interval, b: Interval) -> Interval {
        let hi = if a.nan { b.hi } else { a.hi.min(b.hi) };
        Interval { lo: a.lo.min(b.lo), hi, nan: b.nan }
    }

    /// D3D9's `max`, `a >= b ? a : b`.
    fn d3d9_max(a: Interval, b: Interval) -> Interval {
        let lo = if a.nan { b.lo } else { a.lo.max(b.lo) };
        Interval { lo, hi: a.hi.max(b.hi), nan: b.nan }
    }
}

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

    fn ranges_at(&mut self, e: Handle<Expression>, depth: u32) -> Ranges {
        if let Some(r) = self.fb.tables.ranges.get(&e) {
            return *r;
        }
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
                Some(b) => [self.dot_range(ra, b, depth); 4],
                None => [Interval::ANY; 4],
            },
            _ => [Interval::ANY; 4],
        }
    }

    /// `dot(a, b)` of `vec4`s or `vec3`s (the unused fourth component of a `vec3` is unknown,
    /// which only makes the sum unknown where it is read: a `vec3`'s swizzle names three).
    fn dot_range(&mut self, ra: Ranges, b: Handle<Expression>, depth: u32) -> Interval {
        let rb = self.ranges_at(b, depth);
        (0..4).map(|i| ra[i].mul(rb[i])).reduce(Interval::add).unwrap_or(Interval::ANY)
    }
}

/// naga's clamp with bounds `lo` and `hi`: a NaN `x` gives any of the three (SPIR-V's FClamp).
fn clamp(x: Interval, lo: Interval, hi: Interval) -> Interval {
    if x.nan {
        return x.union(lo).union(hi);
    }
    Interval { lo: x.lo.max(lo.lo).min(hi.hi), hi: x.hi.min(hi.hi).max(lo.lo), nan: lo.nan || hi.nan }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_on_bounded_values_stays_bounded_and_near_the_ends_widens() {
        let unit = Interval::UNIT;
        let k = Interval::exact(-3.0);
        assert_eq!(unit.mul(k), Interval::new(-3.0, 0.0));
        assert!(unit.mul(k).add(Interval::exact(5.0)).finite());
        // FLT_MAX · 2 overflows: no longer finite.
        assert!(!Interval::exact(f32::MAX).mul(Interval::exact(2.0)).finite());
        // 1e-20 · 1e-20 underflows (and a GPU may flush it): possibly zero.
        let small = Interval::exact(1e-20);
        assert!(!small.may_be_zero() && small.mul(small).may_be_zero());
        // A NaN factor or an unbounded one: nothing known; a zero times one is 0 or NaN.
        assert_eq!(Interval::ANY.mul(k), Interval::ANY);
        let z = Interval::ANY.mul(Interval::exact(0.0));
        assert!(z.may_be_zero() && z.nan && !z.is_zero());
        assert!(Interval::exact(0.0).mul(k).is_zero());
    }

    #[test]
    fn d3d9_min_and_max_bound_by_the_other_operand_except_through_a_nan() {
        let any = Interval::ANY;
        let one = Interval::exact(1.0);
        let zero = Interval::exact(0.0);
        // max(min(x, 1), 0) of anything is in [0, 1]: min's NaN x picks 1, max's NaN is not picked.
        let m = Interval::d3d9_min(any, one);
        assert_eq!((m.hi, m.nan), (1.0, false));
        assert_eq!(Interval::d3d9_max(m, zero), Interval::UNIT);
        // min(1, x): a NaN x is picked.
        assert!(Interval::d3d9_min(one, any).nan);
    }

    #[test]
    fn naga_clamp_of_a_nan_may_be_any_operand() {
        let c = clamp(Interval::ANY, Interval::exact(-1.0), Interval::exact(1.0));
        assert!(c.nan);
        assert_eq!(
            clamp(Interval::new(-5.0, 0.5), Interval::exact(-1.0), Interval::exact(1.0)),
            Interval::new(-1.0, 0.5)
        );
    }
}
