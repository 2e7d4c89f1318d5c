//! The arithmetic instructions and the float rules they follow ([`FloatRules`]).
//!
//! Every multiply of the D3D9 rules goes through [`Arith::mul`], so the strict `0 · x = 0` rule
//! (docs/d3d9-rules.md#float-rules) holds in mul, mad, the dot products, the matrix macros, lrp, dst, crs, nrm,
//! pow, lit and the ps_1_x bump and matrix maths alike.

use crate::bytecode::Opcode;

use super::approximation::{exp2_error, log2_error, pow_error, sincos_error, ulp, Skew};
use super::FloatRules;

/// The float rules of one run, and where its approximate results lie.
#[derive(Clone, Copy, Debug)]
pub(super) struct Arith {
    pub rules: FloatRules,
    pub skew: Skew,
}

impl Arith {
    /// A D3D9 multiply: in strict mode a zero factor wins over inf and NaN, and the product is
    /// +0, as AMD's legacy multiply gives (docs/d3d9-rules.md#zero-product). A translation may
    /// give −0 there, so the skewed runs span both signs: +0 up, −0 down.
    #[inline]
    pub fn mul(self, a: f32, b: f32) -> f32 {
        let p = match self.rules {
            FloatRules::Strict if a == 0.0 || b == 0.0 => return self.zero_product(),
            FloatRules::Strict | FloatRules::Fast | FloatRules::Ieee => a * b,
        };
        // A GPU may fuse the product into the following add (SPIR-V contraction), skipping its
        // rounding: half an ulp, moved by a whole one (a half would round back to p half the time).
        // An exact product (zero included) has no rounding to skip.
        self.rounded(p, f64::from(a) * f64::from(b) == f64::from(p) || p == 0.0)
    }

    /// The strict rule's product of a zero factor: +0, and −0 in the run skewed down (either
    /// sign is allowed, docs/d3d9-rules.md#zero-product).
    #[inline]
    fn zero_product(self) -> f32 {
        if self.skew == Skew::Down {
            -0.0
        } else {
            0.0
        }
    }

    /// A correctly rounded result `r` as a skewed run sees it: moved by an ulp unless `exact`
    /// (then only an infinity moves: [`Skew::apply`]), untouched in the plain run.
    /// A subnormal result is ±0 in the skewed runs ([`Self::flushed`]).
    #[inline]
    fn rounded(self, r: f32, exact: bool) -> f32 {
        if self.skew == Skew::None {
            return r;
        }
        let r = self.flushed(r);
        if (exact && r.is_finite()) || r == 0.0 {
            return r;
        }
        self.skew.apply(r, if exact { 0.0 } else { ulp(r) })
    }

    /// `x`, or in the skewed runs a zero of its sign where `x` is subnormal. Vulkan leaves
    /// denormals to the implementation unless a module declares DenormPreserve (the translation
    /// declares nothing), and D3D9 specifies none: a GPU may flush a subnormal operand or result
    /// to zero, and lavapipe does (fuzz-diff found `nrm` of a vector of 5e-20s, whose squares sum
    /// to a subnormal length², giving 1/√0; docs/d3d9-rules.md#float-rules).
    #[inline]
    fn flushed(self, x: f32) -> f32 {
        if self.skew != Skew::None && x != 0.0 && x.abs() < f32::MIN_POSITIVE {
            0.0f32.copysign(x)
        } else {
            x
        }
    }

    /// Whether this run keeps a NaN where D3D9 decides on it (saturation, min, max, cmp and the
    /// comparisons). A Vulkan GPU need not generate NaN ("Precision and Operation of SPIR-V
    /// Instructions"): where IEEE arithmetic gives NaN it may give any value, and what D3D9
    /// then makes of the NaN (saturation to 0, a comparison's false) is the GPU's choice too.
    /// The skewed runs carry the NaN on to the output, which the comparison reads as "any value".
    #[inline]
    pub fn keeps_nan(self) -> bool {
        self.skew != Skew::None
    }

    /// `_sat`: [0, 1], NaN to 0 (docs/d3d9-rules.md#float-rules), or kept ([`Self::keeps_nan`]).
    #[inline]
    pub fn saturate(self, x: f32) -> f32 {
        if x.is_nan() && self.keeps_nan() {
            x
        } else {
            super::io::saturate(x)
        }
    }

    /// `pick(a, b)` unless a NaN operand is to be kept ([`Self::keeps_nan`]): min, max, cmp,
    /// slt, sge and cnd decide on their first operands through it.
    #[inline]
    pub fn decide(self, a: f32, b: f32, pick: impl Fn(f32, f32) -> f32) -> f32 {
        if self.keeps_nan() && (a.is_nan() || b.is_nan()) {
            f32::NAN
        } else {
            pick(a, b)
        }
    }

    /// `a + b`. A GPU's add is correctly rounded, but a driver may reassociate a sum or contract
    /// a product into it, which changes the value the add rounds (lavapipe does both,
    /// docs/d3d9-rules.md#float-rules): the skewed runs move an inexact sum by an ulp.
    #[inline]
    pub fn add(self, a: f32, b: f32) -> f32 {
        let r = a + b;
        self.rounded(r, sum_error(a, b, r) == 0.0)
    }

    /// `a·b + c`, the product rounded before the sum (not fused).
    #[inline]
    pub fn mad(self, a: f32, b: f32, c: f32) -> f32 {
        self.add(self.mul(a, b), c)
    }

    /// A dot product of the first `n` components, summed left to right, each product rounded.
    pub fn dot(self, a: &[f32; 4], b: &[f32; 4], n: usize) -> f32 {
        let mut sum = self.mul(a[0], b[0]);
        for c in 1..n {
            sum = self.add(sum, self.mul(a[c], b[c]));
        }
        sum
    }

    /// Fast mode keeps rcp, rsq and log results finite so that a zero factor still gives zero.
    #[inline]
    fn tame(self, x: f32) -> f32 {
        match self.rules {
            FloatRules::Fast => x.clamp(-f32::MAX, f32::MAX),
            _ => x,
        }
    }

    /// `rcp`: 1/x, so 1/+0 = +inf and 1/−0 = −inf (Windows, `d3d9_fp_special_rcp2`: the accepted
    /// colours of `rcp -0` all classify the result as −inf or 0, never +inf); 1/1 is exactly 1.
    pub fn rcp(self, x: f32) -> f32 {
        let r = 1.0 / self.flushed(x);
        self.tame(self.skew.apply(r, 2.5 * ulp(r)))
    }

    /// `rsq`: 1/√|x|, +inf for 0.
    pub fn rsq(self, x: f32) -> f32 {
        let a = self.flushed(x).abs();
        let r = if a == 0.0 { f32::INFINITY } else { 1.0 / a.sqrt() };
        self.tame(self.skew.apply(r, 2.0 * ulp(r)))
    }

    /// `exp`: 2^x.
    pub fn exp2(self, x: f32) -> f32 {
        let r = x.exp2();
        if self.skew != Skew::None && !x.is_finite() {
            // The allowed error, 3 + 2|x| ulp, has no bound: the skewed runs say so with NaN.
            return f32::NAN;
        }
        self.skew.apply(r, exp2_error(x, r))
    }

    /// `log`: log2|x|, with log(0) = -FLT_MAX (a finite value; -inf under IEEE rules).
    pub fn log2(self, x: f32) -> f32 {
        let a = self.flushed(x).abs();
        let r = if a == 0.0 && self.rules != FloatRules::Ieee { -f32::MAX } else { a.log2() };
        self.tame(if a == 0.0 { self.skew.apply(r, 0.0) } else { self.skew.apply(r, log2_error(a, r)) })
    }

    /// `pow`: |a|^b, with b = 0 giving 1 whatever a is (`powf` gives 1 for b = 0 even for a NaN).
    pub fn pow(self, a: f32, b: f32) -> f32 {
        let r = a.abs().powf(b);
        if a == 0.0 || b == 0.0 {
            return r;
        }
        if self.skew != Skew::None && !(a.is_finite() && b.is_finite()) {
            // exp2(b · log2 a) of an infinity: no bound (see exp2).
            return f32::NAN;
        }
        self.skew.apply(r, pow_error(a, b, r))
    }

    /// `sincos`: (cos x, sin x).
    pub fn sincos(self, x: f32) -> (f32, f32) {
        let e = sincos_error(x);
        (self.skew.apply(x.cos(), e), self.skew.apply(x.sin(), e))
    }

    /// `expp` (vs_1_x four-component form): (2^⌊f⌋, f − ⌊f⌋, 2^f, 1).
    pub fn expp_sm1(self, f: f32) -> [f32; 4] {
        let fl = f.floor();
        [fl.exp2(), f - fl, self.exp2(f), 1.0]
    }

    /// `logp` (vs_1_x four-component form): (exponent of |f|, mantissa in [1, 2), log2|f|, 1);
    /// |f| = 0 gives -FLT_MAX in x, y and z.
    pub fn logp_sm1(self, f: f32) -> [f32; 4] {
        let a = f.abs();
        if a == 0.0 {
            return [-f32::MAX, -f32::MAX, -f32::MAX, 1.0];
        }
        let bits = a.to_bits();
        let exponent = ((bits >> 23) & 0xFF) as i32 - 127;
        let mantissa = f32::from_bits((bits & 0x007F_FFFF) | 0x3F80_0000);
        [exponent as f32, mantissa, self.log2(a), 1.0]
    }
}

/// `mova` (SM2+): round to nearest, halves away from zero.
pub(super) fn round_address(x: f32) -> i32 {
    x.round() as i32
}

/// vs_1_x `mov a0`: toward −∞.
pub(super) fn floor_address(x: f32) -> i32 {
    x.floor() as i32
}

/// Evaluates a per-lane arithmetic instruction from its source values. `None` for an opcode that
/// is not plain arithmetic (flow control, textures, matrix macros, declarations).
///
/// `vs1x` selects the vs_1_x four-component expp/logp; `scalar` picks a source's scalar
/// component (the swizzle's `.w` slot, see the module documentation of `interp`).
pub(super) fn evaluate(ar: Arith, op: Opcode, s: &[[f32; 4]; 4], vs1x: bool) -> Option<[f32; 4]> {
    let f = |i: usize| s[i][3];
    let map = |g: &dyn Fn(usize) -> f32| -> [f32; 4] { std::array::from_fn(g) };
    let rep = |x: f32| [x; 4];
    Some(match op {
        Opcode::Mov | Opcode::Mova => s[0],
        Opcode::Add => map(&|c| ar.add(s[0][c], s[1][c])),
        Opcode::Sub => map(&|c| ar.add(s[0][c], -s[1][c])),
        Opcode::Mad => map(&|c| ar.mad(s[0][c], s[1][c], s[2][c])),
        Opcode::Mul => map(&|c| ar.mul(s[0][c], s[1][c])),
        Opcode::Rcp => rep(ar.rcp(f(0))),
        Opcode::Rsq => rep(ar.rsq(f(0))),
        Opcode::Dp3 => rep(ar.dot(&s[0], &s[1], 3)),
        Opcode::Dp4 => rep(ar.dot(&s[0], &s[1], 4)),
        Opcode::Min => map(&|c| ar.decide(s[0][c], s[1][c], |a, b| if a < b { a } else { b })),
        Opcode::Max => map(&|c| ar.decide(s[0][c], s[1][c], |a, b| if a >= b { a } else { b })),
        Opcode::Slt => map(&|c| ar.decide(s[0][c], s[1][c], |a, b| if a < b { 1.0 } else { 0.0 })),
        Opcode::Sge => map(&|c| ar.decide(s[0][c], s[1][c], |a, b| if a >= b { 1.0 } else { 0.0 })),
        Opcode::Exp => rep(ar.exp2(f(0))),
        Opcode::Log => rep(ar.log2(f(0))),
        Opcode::ExpP if vs1x => ar.expp_sm1(f(0)),
        Opcode::ExpP => rep(ar.exp2(f(0))),
        Opcode::LogP if vs1x => ar.logp_sm1(f(0)),
        Opcode::LogP => rep(ar.log2(f(0))),
        Opcode::Lit => {
            let [x, y, _, w] = s[0];
            // The specular power is clamped to ±127.9961 (D3D9 lit).
            let power = w.clamp(-127.9961, 127.9961);
            let z = if x > 0.0 && y > 0.0 { ar.pow(y, power) } else { 0.0 };
            [1.0, if x > 0.0 { x } else { 0.0 }, z, 1.0]
        }
        Opcode::Dst => [1.0, ar.mul(s[0][1], s[1][1]), s[0][2], s[1][3]],
        Opcode::Lrp => map(&|c| ar.mad(s[0][c], ar.add(s[1][c], -s[2][c]), s[2][c])),
        Opcode::Frc => map(&|c| s[0][c] - s[0][c].floor()),
        Opcode::Pow => rep(ar.pow(f(0), f(1))),
        Opcode::Crs => {
            let (a, b) = (s[0], s[1]);
            [
                ar.add(ar.mul(a[1], b[2]), -ar.mul(a[2], b[1])),
                ar.add(ar.mul(a[2], b[0]), -ar.mul(a[0], b[2])),
                ar.add(ar.mul(a[0], b[1]), -ar.mul(a[1], b[0])),
                0.0,
            ]
        }
        Opcode::Sgn => map(&|c| {
            let x = s[0][c];
            if x < 0.0 {
                -1.0
            } else if x > 0.0 {
                1.0
            } else {
                0.0
            }
        }),
        Opcode::Abs => map(&|c| s[0][c].abs()),
        Opcode::Nrm => {
            // Every written component, w included, is scaled by 1/|xyz|.
            let inv = ar.rsq(ar.dot(&s[0], &s[0], 3));
            map(&|c| ar.mul(s[0][c], inv))
        }
        Opcode::SinCos => {
            let (c, s) = ar.sincos(f(0));
            [c, s, 0.0, 0.0]
        }
        Opcode::Cmp => map(&|c| ar.decide(s[0][c], 0.0, |a, _| if a >= 0.0 { s[1][c] } else { s[2][c] })),
        Opcode::Dp2Add => rep(ar.add(ar.add(ar.mul(s[0][0], s[1][0]), ar.mul(s[0][1], s[1][1])), f(2))),
        _ => return None,
    })
}

/// The rounding error of the f32 sum `r = a + b`, exactly (Knuth's two-sum: every step is
/// exact in round-to-nearest while the values are finite): 0 when the sum is exact, NaN when an
/// operand or the sum is not finite. Summing in f64 instead is not exact where the operands'
/// exponents differ by more than the 29 bits f64 has beyond f32 (2·10³⁰ − 2 rounds to 2·10³⁰
/// in both), which made such an f32 sum look exact.
fn sum_error(a: f32, b: f32, r: f32) -> f32 {
    let b_part = r - a;
    let a_part = r - b_part;
    (a - a_part) + (b - b_part)
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: Arith = Arith { rules: FloatRules::Strict, skew: Skew::None };
    const I: Arith = Arith { rules: FloatRules::Ieee, skew: Skew::None };
    const F: Arith = Arith { rules: FloatRules::Fast, skew: Skew::None };

    #[test]
    fn skewed_runs_move_approximate_results_and_inexact_products_only() {
        let up = Arith { rules: FloatRules::Strict, skew: Skew::Up };
        let down = Arith { rules: FloatRules::Strict, skew: Skew::Down };
        // 3 · 0.5 = 1.5 is exact: a fused multiply-add would give the same.
        assert_eq!(up.mul(3.0, 0.5), 1.5);
        assert_eq!(up.mul(0.0, f32::INFINITY), 0.0);
        // 0.1 · 3 needs 26 bits and rounds: the skewed runs move it one ulp either way.
        let p = 0.1f32 * 3.0;
        assert_eq!(S.mul(0.1, 3.0), p);
        assert_eq!(up.mul(0.1, 3.0), f32::from_bits(p.to_bits() + 1));
        assert_eq!(down.mul(0.1, 3.0), f32::from_bits(p.to_bits() - 1));
        // exp2(1) = 2 moves by (3 + 2·1) ulp of 2, 2^-22 each.
        assert_eq!(up.exp2(1.0), 2.0 + 5.0 * 2f32.powi(-22));
        // An infinity is the plain run's only: rcp(+0) = +inf, but an implementation may assume
        // there are none, so the skewed runs make it NaN ("any value"), from a product too.
        assert_eq!(S.rcp(0.0), f32::INFINITY);
        assert!(up.rcp(0.0).is_nan() && down.mul(f32::MAX, 2.0).is_nan());
        // Inexact adds move by an ulp; exact ones stay.
        let s = 0.1f32 + 0.2;
        assert_eq!(up.add(0.1, 0.2), f32::from_bits(s.to_bits() + 1));
        assert_eq!(up.add(0.5, 0.25), 0.75);
        // An operand lost entirely in the sum is an inexact add too: 2e30 - 2 rounds to 2e30
        // (in f64 as well, the exponents being 100 bits apart), and a driver that reassociates
        // (2e30 - 2) + x can keep the 2 (fuzz-diff seed 1000123: lavapipe made (a + b) - b of a).
        let big = 2e30f32;
        assert_eq!(S.add(big, -2.0), big);
        assert_eq!(up.add(big, -2.0), f32::from_bits(big.to_bits() + 1));
        assert_eq!(down.add(big, -2.0), f32::from_bits(big.to_bits() - 1));
        assert_eq!(up.add(big, -big), 0.0);
        assert_eq!(sum_error(1.0, f32::EPSILON / 4.0, 1.0), f32::EPSILON / 4.0);
        // The skewed runs keep a NaN where D3D9 would decide on it; the plain run decides.
        let ops = |ar: Arith| {
            let nan = [[f32::NAN; 4], [0.5; 4], [0.25; 4], [0.0; 4]];
            [Opcode::Max, Opcode::Min, Opcode::Sge, Opcode::Slt, Opcode::Cmp]
                .map(|op| evaluate(ar, op, &nan, false).unwrap()[0])
        };
        assert_eq!(ops(S), [0.5, 0.5, 0.0, 0.0, 0.25]);
        assert!(ops(up).iter().all(|x| x.is_nan()));
        assert_eq!((S.saturate(f32::NAN), up.saturate(f32::NAN).is_nan()), (0.0, true));
    }

    #[test]
    fn a_zero_product_is_positive_and_the_skewed_runs_span_both_signs() {
        // The old formula, (b == 0 ? 0 : a) · (a == 0 ? 0 : b), kept the zero factor's sign:
        // −0 · 5 was −0. The rule gives +0 (AMD's legacy multiply), whatever the signs.
        for (a, b) in [(-0.0, 5.0), (5.0, -0.0), (-0.0, f32::NEG_INFINITY), (f32::NAN, -0.0), (-0.0, 0.0)] {
            assert_eq!(S.mul(a, b).to_bits(), 0, "{a} · {b}");
        }
        let up = Arith { rules: FloatRules::Strict, skew: Skew::Up };
        let down = Arith { rules: FloatRules::Strict, skew: Skew::Down };
        assert_eq!(up.mul(-0.0, 5.0).to_bits(), 0);
        assert_eq!(down.mul(0.0, 5.0).to_bits(), (-0.0f32).to_bits());
        // So a sign that decides an infinity later shows as the runs' spread (NaN: any value).
        assert!(down.rcp(down.mul(0.0, 5.0)).is_nan());
        // IEEE keeps IEEE's signs.
        assert_eq!(I.mul(-0.0, 5.0).to_bits(), (-0.0f32).to_bits());
    }

    #[test]
    fn zero_times_anything_is_zero_only_in_strict_mode() {
        // Strict: a zero factor gives +0 → 0·inf = 0, NaN·0 = 0.
        assert_eq!(S.mul(0.0, f32::INFINITY), 0.0);
        assert_eq!(S.mul(f32::NAN, 0.0), 0.0);
        assert_eq!(S.mul(2.0, 3.0), 6.0);
        // IEEE: 0·inf = NaN.
        assert!(I.mul(0.0, f32::INFINITY).is_nan());
        // Fast: rcp(0) is FLT_MAX, so 0·rcp(0) = 0 with a plain multiply.
        assert_eq!(F.rcp(0.0), f32::MAX);
        assert_eq!(F.mul(0.0, F.rcp(0.0)), 0.0);
    }

    #[test]
    fn transcendental_edges() {
        assert_eq!(S.rcp(0.0), f32::INFINITY);
        assert_eq!(S.rcp(-0.0), f32::NEG_INFINITY, "the sign of zero is kept");
        assert_eq!(S.rcp(1.0), 1.0);
        // rsq(-4) = 1/√4 = 0.5 (|x|).
        assert_eq!(S.rsq(-4.0), 0.5);
        assert_eq!(S.rsq(0.0), f32::INFINITY);
        // log(0) = -FLT_MAX; log(-8) = log2(8) = 3.
        assert_eq!(S.log2(0.0), -f32::MAX);
        assert_eq!(S.log2(-8.0), 3.0);
        // pow(-2, 3) = |−2|^3 = 8; pow(inf, 0) = 1; pow(0, 0) = 1.
        assert_eq!(S.pow(-2.0, 3.0), 8.0);
        assert_eq!(S.pow(f32::INFINITY, 0.0), 1.0);
        assert_eq!(S.pow(0.0, 0.0), 1.0);
        assert_eq!(S.pow(f32::NAN, 0.0), 1.0);
        assert_eq!(S.pow(0.0, -1.0), f32::INFINITY);
        // IEEE rules: log(0) = −inf; fast rules: −FLT_MAX as in strict mode.
        assert_eq!(I.log2(0.0), f32::NEG_INFINITY);
        assert_eq!(F.log2(0.0), -f32::MAX);
        assert_eq!(F.rsq(0.0), f32::MAX);
        assert_eq!(S.exp2(3.0), 8.0);
    }

    #[test]
    fn expp_logp_four_component_forms() {
        // expp(2.5): 2^2 = 4, 2.5 − 2 = 0.5, 2^2.5 = 5.656854, 1.
        let e = S.expp_sm1(2.5);
        assert_eq!(e[0], 4.0);
        assert_eq!(e[1], 0.5);
        assert!((e[2] - 5.656854).abs() < 1e-5);
        assert_eq!(e[3], 1.0);
        // logp(-6): |−6| = 1.5 · 2^2 → exponent 2, mantissa 1.5, log2 6 = 2.5849626, 1.
        let l = S.logp_sm1(-6.0);
        assert_eq!(&l[..2], &[2.0, 1.5]);
        assert!((l[2] - 2.5849626).abs() < 1e-6);
        assert_eq!(S.logp_sm1(0.0), [-f32::MAX, -f32::MAX, -f32::MAX, 1.0]);
    }

    #[test]
    fn address_conversions() {
        // Windows (conformance mova cases): mov floors, mova rounds; inputs ±0.4, ±1.6, ±2.4.
        let cases = [(0.4, 0, 0), (-0.4, -1, 0), (1.6, 1, 2), (-1.6, -2, -2), (2.4, 2, 2), (-2.4, -3, -2)];
        for (x, floor, round) in cases {
            assert_eq!(floor_address(x), floor, "floor({x})");
            assert_eq!(round_address(x), round, "round({x})");
        }
    }

    #[test]
    fn comparisons_are_ordered_except_ne() {
        use crate::bytecode::Comparison;
        let compare = |c: Comparison, a, b| c.eval(a, b);
        let n = f32::NAN;
        for c in Comparison::ALL {
            assert_eq!(compare(c, n, 1.0), c == Comparison::Ne, "{c:?} with NaN");
        }
        assert!(compare(Comparison::Ge, 1.0, 1.0));
        assert!(!compare(Comparison::Gt, 1.0, 1.0));
        assert!(compare(Comparison::Le, -0.0, 0.0));
    }
}
