//! The error Vulkan allows the instructions D3D9 defines as approximations, for runs that push
//! every such result to one end of its allowed error ([`Skew`]).
//!
//! The name says what the skewed runs model: the error a conforming Vulkan GPU may add.
//! A GPU evaluates `exp`, `log`, `rcp`, `rsq`, `pow`, `sincos` (and `nrm`, `lit`, `expp`, `logp`
//! through them) with its own approximations; the interpreter with correctly rounded library
//! functions. Where a shader's result amplifies those few ulps (cancellation after an `exp`, a
//! division by a small difference), no fixed tolerance separates a bug from rounding. Running the
//! interpreter again with each approximate result moved by the whole error the Vulkan
//! specification allows it ("Precision and Operation of SPIR-V Instructions"), once up and once
//! down, measures how far the final value moves: the comparison then accepts what lies within
//! that spread (`gpu-harness/src/compare.rs`). The bounds, for a result `r` of an input `x`:
//!
//! - `exp2(x)`: 3 + 2·|x| ulp of `r` (no bound for an infinite x: the skewed runs give NaN,
//!   which the comparison reads as "any value");
//! - `log2(x)`: absolute 2⁻²¹ for x in [0.5, 2], else 3 ulp;
//! - `1/x`: 2.5 ulp; `inversesqrt`: 2 ulp;
//! - `pow(a, b)`, evaluated as `exp2(b · log2 a)`: the `exp2` bound at `b · log2 a`, plus the
//!   `log2` bound carried through (`r · ln 2 · |b| · err(log2 a)`);
//! - `sin`, `cos`: absolute 2⁻¹¹ in [−π, π] (the range D3D9 defines `sincos` on); outside it
//!   the specification leaves the precision open, and the bound grows with |x| / π;
//! - every multiply (mul, mad, the dot products, …): half an ulp of the product (moved by one,
//!   the smallest step that does not round back), since a Vulkan
//!   driver may contract `a · b + c` into a fused multiply-add (the translation does not forbid
//!   it), which skips the product's rounding;
//! - an infinite result, of any of these or of a multiply or add: NaN, since an implementation
//!   may assume there are none (WGSL; SPIR-V without SignedZeroInfNanPreserve);
//! - every add of the arithmetic (add, sub, mad, lrp, the dot products, crs, dp2add) that is
//!   inexact: an ulp, since a driver may reassociate a sum or fuse a product into it, so that the
//!   add rounds another value (lavapipe does);
//! - a subnormal sum, product or operand of `rcp`, `rsq` and `log`: zero of its sign, since a
//!   driver may flush denormals (lavapipe does).

/// Which end of the allowed error an approximate instruction's result is moved to.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Skew {
    /// The correctly rounded result (the reference).
    #[default]
    None,
    /// Every approximate result moved up by its bound.
    Up,
    /// Every approximate result moved down by its bound.
    Down,
}

impl Skew {
    fn sign(self) -> f32 {
        match self {
            Skew::None => 0.0,
            Skew::Up => 1.0,
            Skew::Down => -1.0,
        }
    }

    /// `r` moved by `err` in this direction. An infinity becomes NaN ("any value"): WGSL, and
    /// SPIR-V without the SignedZeroInfNanPreserve execution mode, let an implementation assume
    /// that no operation makes or takes one, so what a GPU computes there is its own.
    pub(super) fn apply(self, r: f32, err: f32) -> f32 {
        if self == Skew::None {
            return r;
        }
        if !r.is_finite() {
            return f32::NAN;
        }
        r + self.sign() * err
    }
}

/// One unit in the last place of `x` (0 for infinities and NaN).
pub(super) fn ulp(x: f32) -> f32 {
    let a = x.abs();
    if !a.is_finite() {
        return 0.0;
    }
    f32::from_bits(a.to_bits() + 1) - a
}

/// The `exp2` bound at `x` for the result `r`.
pub(super) fn exp2_error(x: f32, r: f32) -> f32 {
    (3.0 + 2.0 * x.abs()) * ulp(r)
}

/// The `log2` bound at `a` (already |x|) for the result `r`.
pub(super) fn log2_error(a: f32, r: f32) -> f32 {
    if (0.5..=2.0).contains(&a) {
        1.0 / (1u32 << 21) as f32
    } else {
        3.0 * ulp(r)
    }
}

/// The `pow` bound for `|a|^b = r`.
pub(super) fn pow_error(a: f32, b: f32, r: f32) -> f32 {
    let l = a.abs().log2();
    exp2_error(b * l, r) + r.abs() * std::f32::consts::LN_2 * b.abs() * log2_error(a.abs(), l)
}

/// The `sin`/`cos` bound at `x`.
pub(super) fn sincos_error(x: f32) -> f32 {
    (x.abs() / std::f32::consts::PI).max(1.0) / (1u32 << 11) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_follow_the_vulkan_precision_table() {
        // exp2(1) = 2: 5 ulp of 2 (ulp 2^-22).
        assert_eq!(exp2_error(1.0, 2.0), 5.0 * 2f32.powi(-22));
        // log2 inside [0.5, 2] is absolute 2^-21; log2(8) = 3: 3 ulp of 3 (ulp 2^-22).
        assert_eq!(log2_error(1.5, 0.585), 2f32.powi(-21));
        assert_eq!(log2_error(8.0, 3.0), 3.0 * 2f32.powi(-22));
        assert_eq!(sincos_error(1.0), 2f32.powi(-11));
        assert_eq!(Skew::Up.apply(1.0, 0.5), 1.5);
        assert_eq!(Skew::Down.apply(1.0, 0.5), 0.5);
        assert_eq!(Skew::None.apply(1.0, 0.5), 1.0);
        assert_eq!(Skew::None.apply(f32::INFINITY, 0.5), f32::INFINITY);
        assert!(Skew::Up.apply(f32::INFINITY, 0.5).is_nan());
    }
}
