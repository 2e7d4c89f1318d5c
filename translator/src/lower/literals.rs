//! Float values the lowering itself introduces (0, 1, ±FLT_MAX, +inf, the defaults of unwritten
//! outputs) and how each reaches the module so that every WGSL compiler reads it exactly.
//!
//! naga's WGSL writer prints an `f32` literal as Rust's shortest decimal without an exponent, and
//! a browser compiles that text, not naga's IR (docs/wgsl.md):
//! - ±FLT_MAX prints as `340282350000000000000000000000000000000f`, a decimal just above FLT_MAX
//!   that Tint refuses ("value cannot be represented as 'f32'");
//! - magnitudes of 10^19 and more print as integers of 20 or more digits, which WebKit's lexer
//!   refused until 2026; tiny magnitudes print as long runs of zeros;
//! - an infinity or a NaN has no literal, and WGSL evaluates an expression of constants when the
//!   module is created and refuses a non-finite result, so even `bitcast<f32>(2139095040u)` of a
//!   literal fails.
//!
//! So a value is a literal only when its text is short and exact (zero, or a magnitude in
//! [10^-6, 10^18): at most 9 significant digits and 20 characters); every other value is the
//! bitcast of a load from a module-private `u32` variable that holds its bits. A load is not a
//! constant expression, so WGSL evaluates nothing at creation, and SPIR-V and the other backends
//! see the same value. The lowering still knows the bits ([`super::builder::FnBuilder::known`])
//! for the strict multiply rule.

use naga::{AddressSpace, Expression, GlobalVariable, Handle, Scalar, Span, Type, TypeInner};

use super::builder::{ScopedKey, SharedKey};
use super::parts::Width;
use super::state::Expr;
use super::Lowerer;

/// Whether naga writes `bits` as a WGSL literal that every compiler reads back exactly.
pub(crate) fn is_exact_literal(bits: u32) -> bool {
    let v = f32::from_bits(bits).abs();
    v == 0.0 || (1e-6..1e18).contains(&v)
}

/// A readable name for a bit-pattern variable (naga makes names unique).
fn special_name(bits: &[u32]) -> &'static str {
    let first = f32::from_bits(bits[0]);
    if bits.iter().any(|&b| b != bits[0]) {
        return "bits";
    }
    match first {
        f32::INFINITY => "pos_inf",
        f32::NEG_INFINITY => "neg_inf",
        f32::MAX => "flt_max",
        f32::MIN => "neg_flt_max",
        v if v.is_nan() => "nan_bits",
        _ => "bits",
    }
}

impl Lowerer<'_> {
    /// A module constant `vec4(v, v, v, v)` (needs no emit, usable in every block).
    pub fn splat(&mut self, v: f32) -> Expr {
        self.splat_bits([v.to_bits(); 4])
    }

    /// A `vec4<f32>` from raw bit patterns, finite or not. Exact literals become a module
    /// constant (no emit needed); anything else is loaded from its bit pattern.
    pub fn splat_bits(&mut self, bits: [u32; 4]) -> Expr {
        if !bits.iter().all(|&b| is_exact_literal(b)) {
            return self.special(&bits);
        }
        let c = self.vec4_constant(bits);
        let h = self.fb.shared(SharedKey::Constant(c));
        self.fb.tables.known.insert(h, bits);
        h
    }

    /// The module constant holding the `vec4<f32>` of exact literals `bits`, made once.
    pub fn vec4_constant(&mut self, bits: [u32; 4]) -> naga::Handle<naga::Constant> {
        if let Some(&c) = self.vec_constants.get(&bits) {
            return c;
        }
        let ge = &mut self.module.global_expressions;
        let comps: Vec<Expr> = bits
            .iter()
            .map(|&b| ge.append(Expression::Literal(naga::Literal::F32(f32::from_bits(b))), Span::UNDEFINED))
            .collect();
        let init = ge.append(Expression::Compose { ty: self.t.vec4f, components: comps }, Span::UNDEFINED);
        let c = self.module.constants.append(naga::Constant { name: None, ty: self.t.vec4f, init }, Span::UNDEFINED);
        self.vec_constants.insert(bits, c);
        c
    }

    /// A float constant of the given width.
    pub fn fconst(&mut self, v: f32, w: Width) -> Expr {
        match w {
            Width::Scalar => self.scalar_literal(v.to_bits()),
            Width::Vec4 => self.splat(v),
        }
    }

    /// +0 as a value the shader computes when it runs, not a literal, for the zeros the
    /// program reads as values (a product with a zero factor, a register nothing stored to, a
    /// constant outside the buffer): arithmetic on literals alone is a WGSL constant
    /// expression, which browsers evaluate when the module is created and refuse where the
    /// result is not finite, as `rcp`, `rsq` and `log` of zero are (`1f / 0f`; docs/wgsl.md §2).
    /// Known as +0 to the lowering.
    pub fn runtime_zero(&mut self, w: Width) -> Expr {
        let zero = self.special(&[0]);
        match w {
            Width::Scalar => zero,
            Width::Vec4 => {
                let v = self.splat_expr(zero);
                self.fb.tables.known.insert(v, [0; 4]);
                v
            }
        }
    }

    /// An `f32` from its bits: a literal when exact, else loaded from its bit pattern.
    pub fn scalar_literal(&mut self, bits: u32) -> Expr {
        if !is_exact_literal(bits) {
            return self.special(&[bits]);
        }
        let h = self.fb.shared(SharedKey::F32(bits));
        self.fb.tables.known.insert(h, [bits; 4]);
        h
    }

    /// `bitcast<f32>` (or `vec4<f32>`) of the module-private variable holding `bits` (one
    /// component: a scalar), loaded once per block.
    pub(super) fn special(&mut self, bits: &[u32]) -> Expr {
        let index = match self.specials.iter().position(|(b, _)| b.as_slice() == bits) {
            Some(i) => i,
            None => {
                let g = self.bit_pattern_variable(bits);
                self.specials.push((bits.to_vec(), g));
                self.specials.len() - 1
            }
        };
        let key = ScopedKey::Special(index);
        if let Some(v) = self.fb.scoped(key) {
            return v;
        }
        let pointer = self.fb.shared(SharedKey::Global(self.specials[index].1));
        let u = self.load(pointer);
        let v = self.fb.expr(Expression::As { expr: u, kind: naga::ScalarKind::Float, convert: None });
        let known = if bits.len() == 1 { [bits[0]; 4] } else { std::array::from_fn(|i| bits[i]) };
        self.fb.tables.known.insert(v, known);
        self.fb.remember_scoped(key, v);
        v
    }

    /// `var<private> NAME: u32 = BITS` (or `vec4<u32>`): a value, not a constant, to WGSL.
    fn bit_pattern_variable(&mut self, bits: &[u32]) -> Handle<GlobalVariable> {
        let ge = &mut self.module.global_expressions;
        let comps: Vec<Expr> =
            bits.iter().map(|&b| ge.append(Expression::Literal(naga::Literal::U32(b)), Span::UNDEFINED)).collect();
        let (ty, init) = if bits.len() == 1 {
            let ty =
                self.module.types.insert(Type { name: None, inner: TypeInner::Scalar(Scalar::U32) }, Span::UNDEFINED);
            (ty, comps[0])
        } else {
            let init = ge.append(Expression::Compose { ty: self.t.vec4u, components: comps }, Span::UNDEFINED);
            (self.t.vec4u, init)
        };
        self.private_variable(special_name(bits), ty, init)
    }

    /// A module-private variable with an initialiser: a run-time value to WGSL (a load from it
    /// is never a constant expression), used for `def` values and bit patterns.
    pub fn private_variable(&mut self, name: &str, ty: Handle<Type>, init: Expr) -> Handle<GlobalVariable> {
        self.module.global_variables.append(
            GlobalVariable {
                name: Some(name.into()),
                space: AddressSpace::Private,
                binding: None,
                ty,
                init: Some(init),
                memory_decorations: Default::default(),
            },
            Span::UNDEFINED,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::is_exact_literal;

    #[test]
    fn exact_literals_are_short_and_finite() {
        // Rust's shortest decimal of each, as naga's WGSL writer prints it.
        for v in [0.0f32, -0.0, 1.0, 0.5, -2.0, 1e-6, 123_456_790.0, 9.9e17, 0.003_921_569] {
            assert!(is_exact_literal(v.to_bits()), "{v}");
            let text = format!("{v}");
            assert!(text.len() <= 20, "{v} prints as {text}");
        }
        // FLT_MAX prints above FLT_MAX; 1e19 as 20 digits; 1e-7 as 0.0000001 (short, but the
        // rule keeps one simple magnitude window); subnormals, inf and NaN have no exact text.
        for v in [f32::MAX, f32::MIN, 1e18, 1e19, 1e-7, 1e-40, f32::INFINITY, f32::NEG_INFINITY, f32::NAN] {
            assert!(!is_exact_literal(v.to_bits()), "{v}");
        }
    }
}
