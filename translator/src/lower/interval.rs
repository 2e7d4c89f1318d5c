//! Intervals of float values for the value-range pass (`value_range`): a component lies in
//! `[lo, hi]` unless it is NaN, which it may be only where `nan`. Bounds are computed in `f64`
//! and not trusted near the ends of the float range: a bound past [`HUGE`] may be an infinity,
//! and one within [`TINY`] of zero may be zero, because a GPU may contract a product into an
//! add, reassociate a sum or flush a denormal to zero.

/// Past this magnitude a computed bound may be an infinity.
const HUGE: f64 = 1.0e37;
/// Within this magnitude of zero a computed bound may be zero.
const TINY: f64 = 1.0e-30;

/// What is known of one component: it lies in `[lo, hi]` (infinite bounds allowed) unless it is
/// NaN, which it may be only where `nan`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Interval {
    pub(super) lo: f64,
    pub(super) hi: f64,
    pub(super) nan: bool,
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
    pub(super) fn union(self, o: Interval) -> Interval {
        Interval { lo: self.lo.min(o.lo), hi: self.hi.max(o.hi), nan: self.nan || o.nan }
    }

    pub(super) fn neg(self) -> Interval {
        Interval { lo: -self.hi, hi: -self.lo, nan: self.nan }
    }

    pub(super) fn abs(self) -> Interval {
        if self.lo >= 0.0 {
            self
        } else if self.hi <= 0.0 {
            self.neg()
        } else {
            Interval { lo: 0.0, hi: self.hi.max(-self.lo), nan: self.nan }
        }
    }

    /// Bounded: no infinite bound (NaN may still be possible).
    pub(super) fn bounded(self) -> bool {
        self.lo > f64::NEG_INFINITY && self.hi < f64::INFINITY
    }

    /// The sum. An unbounded operand keeps the sum bounded on its other side, unless opposite
    /// infinities may meet (inf − inf is NaN).
    pub(super) fn add(self, o: Interval) -> Interval {
        let inf = f64::INFINITY;
        if (self.hi == inf && o.lo == -inf) || (self.lo == -inf && o.hi == inf) {
            return Interval::ANY;
        }
        Interval::computed(self.lo + o.lo, self.hi + o.hi, self.nan || o.nan)
    }

    /// The IEEE product. The strict rule's is within it wherever the lowering multiplies
    /// plainly: there a zero factor never meets an infinite or NaN one.
    pub(super) fn mul(self, o: Interval) -> Interval {
        if self.is_zero() || o.is_zero() {
            // 0 · inf and 0 · NaN are NaN.
            return Interval { lo: 0.0, hi: 0.0, nan: !(self.finite() && o.finite()) };
        }
        // 0 · inf is NaN: where a zero may meet an infinity nothing is known.
        if (self.may_be_zero() && !o.bounded()) || (o.may_be_zero() && !self.bounded()) {
            return Interval::ANY;
        }
        let c = [self.lo * o.lo, self.lo * o.hi, self.hi * o.lo, self.hi * o.hi];
        let lo = c.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = c.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Interval::computed(lo, hi, self.nan || o.nan)
    }

    /// The quotient `self / o`. A divisor that may be zero gives anything (x / 0 is ±inf or
    /// NaN), and one within [`TINY`] of it may be flushed to zero; infinities on both sides
    /// give anything too (inf / inf is NaN).
    pub(super) fn div(self, o: Interval) -> Interval {
        if (o.lo <= TINY && o.hi >= -TINY) || (!self.bounded() && !o.bounded()) {
            return Interval::ANY;
        }
        let c = [self.lo / o.lo, self.lo / o.hi, self.hi / o.lo, self.hi / o.hi];
        let lo = c.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = c.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Interval::computed(lo, hi, self.nan || o.nan)
    }

    /// A function increasing on `[0, inf]` and NaN below 0 (sqrt, log2): a possibly negative
    /// argument may give NaN.
    pub(super) fn of_non_negative(self, f: fn(f64) -> f64) -> Interval {
        let lo = self.lo.max(0.0);
        if lo > self.hi {
            return Interval::ANY;
        }
        Interval::computed(f(lo), f(self.hi), self.nan || self.lo < 0.0)
    }

    /// A function increasing in its argument, of a value that is never NaN where `f` is
    /// defined on all of `[lo, hi]`.
    pub(super) fn monotone(self, f: fn(f64) -> f64) -> Interval {
        Interval::computed(f(self.lo), f(self.hi), self.nan)
    }

    /// D3D9's `min`, `a < b ? a : b`: a NaN `a` picks `b`, a NaN `b` is picked.
    pub(super) fn d3d9_min(a: Interval, b: Interval) -> Interval {
        let hi = if a.nan { b.hi } else { a.hi.min(b.hi) };
        Interval { lo: a.lo.min(b.lo), hi, nan: b.nan }
    }

    /// D3D9's `max`, `a >= b ? a : b`.
    pub(super) fn d3d9_max(a: Interval, b: Interval) -> Interval {
        let lo = if a.nan { b.lo } else { a.lo.max(b.lo) };
        Interval { lo, hi: a.hi.max(b.hi), nan: b.nan }
    }
}

/// naga's clamp with bounds `lo` and `hi`: a NaN `x` gives any of the three (SPIR-V's FClamp).
pub(super) fn clamp(x: Interval, lo: Interval, hi: Interval) -> Interval {
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
    fn unbounded_values_keep_a_side_unless_zero_may_meet_infinity() {
        let inf = f64::INFINITY;
        let positive = Interval::new(1.0, inf);
        // [1, inf] + [-2, 3] = [-1, inf]: never NaN, never -inf.
        assert_eq!(positive.add(Interval::new(-2.0, 3.0)), Interval::new(-1.0, inf));
        // inf + (-inf) may meet: NaN possible.
        assert_eq!(positive.add(Interval::new(-inf, 0.0)), Interval::ANY);
        // [1, inf] · [2, 3] = [2, inf]; but 0 · inf is NaN.
        assert_eq!(positive.mul(Interval::new(2.0, 3.0)), Interval::new(2.0, inf));
        assert_eq!(Interval::new(0.0, inf).mul(Interval::new(2.0, 3.0)), Interval::new(0.0, inf));
        assert_eq!(Interval::new(0.0, 1.0).mul(positive), Interval::ANY);
    }

    #[test]
    fn quotients_and_roots_of_known_values() {
        let inf = f64::INFINITY;
        // 1 / [2, 4] = [0.25, 0.5]; 1 / [1, inf] = [0, 1] (1 / inf is 0).
        assert_eq!(Interval::exact(1.0).div(Interval::new(2.0, 4.0)), Interval::new(0.25, 0.5));
        assert_eq!(Interval::exact(1.0).div(Interval::new(1.0, inf)), Interval::new(0.0, 1.0));
        // A divisor that may be zero, or a denormal a GPU may flush to zero: anything.
        assert_eq!(Interval::exact(1.0).div(Interval::new(0.0, 1.0)), Interval::ANY);
        assert_eq!(Interval::exact(1.0).div(Interval::exact(1e-40)), Interval::ANY);
        // inf / inf is NaN.
        assert_eq!(Interval::new(1.0, inf).div(Interval::new(1.0, inf)), Interval::ANY);
        // sqrt and log2 of [0, 4]: [0, 2] and [-inf, 2]; of a possibly negative value: NaN possible.
        let r = Interval::new(0.0, 4.0);
        assert_eq!(r.of_non_negative(f64::sqrt), Interval::new(0.0, 2.0));
        assert_eq!(r.of_non_negative(f64::log2), Interval::new(-inf, 2.0));
        assert!(Interval::new(-1.0, 4.0).of_non_negative(f64::sqrt).nan);
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
