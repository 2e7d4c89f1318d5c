//! Register values kept per component ([`Parts`]): a swizzle permutes components, a partial
//! write replaces some, a `mov` copies them, and none of it costs a naga expression. A value
//! becomes one `vec4` expression only where something reads it as a vector (an operation's
//! source, a store before a statement or block boundary), in the cheapest form
//! ([`Lowerer::materialize`]). naga's validator and writers cost grows with the expression
//! count (docs/architecture.md#values-per-component).
//!
//! Every statement, block opening and block closing of the lowering goes through
//! [`Lowerer::stmt`], [`Lowerer::open`] and [`Lowerer::close`], which first give each register
//! value waiting for its store a vector.

use naga::{Expression, Statement, SwizzleComponent, VectorSize};

use super::builder::{as_whole, Comp, Parts, Pending, SCALAR};
use super::state::Expr;
use super::Lowerer;
use crate::bytecode::{Swizzle, WriteMask};

const COMPONENTS: [SwizzleComponent; 4] =
    [SwizzleComponent::X, SwizzleComponent::Y, SwizzleComponent::Z, SwizzleComponent::W];

/// A value's components through a source swizzle.
#[inline(always)]
pub(crate) fn swizzled(parts: Parts, s: Swizzle) -> Parts {
    s.components().map(|i| parts[i])
}

/// The components of `parts` taken from `base` in place (component i is `base[i]`).
fn in_place(parts: &Parts, base: Expr) -> bool {
    parts.iter().enumerate().all(|(i, c)| c.base != base || usize::from(c.index) == i)
}

impl Lowerer<'_> {
    /// The value as one `vec4<f32>` expression: the base itself, one swizzle or splat, one
    /// select between two bases, or a compose of the components, whichever is fewest
    /// expressions; once per block for the same components.
    pub fn materialize(&mut self, parts: Parts) -> Expr {
        let parts = self.resolve_unstored(parts);
        if let Some(v) = as_whole(&parts) {
            return v;
        }
        if let Some(&v) = self.fb.tables.composed.get(&parts) {
            return v;
        }
        let v = self.compose_cheapest(parts);
        self.fb.tables.composed.insert(parts, v);
        if let Some(bits) = self.parts_known(&parts) {
            self.fb.tables.known.insert(v, bits);
        }
        v
    }

    /// The bit patterns of a value whose every base is a known constant.
    fn parts_known(&self, parts: &Parts) -> Option<[u32; 4]> {
        let mut bits = [0u32; 4];
        for (b, c) in bits.iter_mut().zip(parts) {
            let k = self.fb.tables.known.get(&c.base)?;
            *b = k[usize::from(c.index.min(3))];
        }
        Some(bits)
    }

    fn compose_cheapest(&mut self, parts: Parts) -> Expr {
        let first = parts[0].base;
        if parts.iter().all(|c| c.base == first) {
            return self.one_base(first, parts);
        }
        // Two bases: the one with more components is the reject side of a select against
        // the write mask of the other's components, each brought into place (a swizzle or a
        // splat) unless it already is.
        // The distinct bases in order of first use (at most four; no allocation).
        let mut bases = [first; 4];
        let mut distinct = 1;
        for c in &parts[1..] {
            if !bases[..distinct].contains(&c.base) {
                bases[distinct] = c.base;
                distinct += 1;
            }
        }
        let place_cost = |b: Expr| {
            let vector = parts.iter().any(|c| c.base == b && c.index != SCALAR);
            usize::from(!(vector && in_place(&parts, b)))
        };
        // A compose: one expression, plus one AccessIndex per component of a vector.
        let compose_cost = 1 + parts.iter().filter(|c| c.index != SCALAR).count();
        if distinct == 2 && 1 + place_cost(bases[0]) + place_cost(bases[1]) < compose_cost {
            let count = |b: Expr| parts.iter().filter(|c| c.base == b).count();
            // On a tie the later expression is kept: the old value of a register merged with a
            // partial write is usually loaded after the written value was computed.
            let (a, b) = if bases[0].index() > bases[1].index() { (bases[0], bases[1]) } else { (bases[1], bases[0]) };
            let (keep, take) = if count(a) >= count(b) { (a, b) } else { (b, a) };
            let mask =
                WriteMask(parts.iter().enumerate().filter(|(_, c)| c.base == take).fold(0, |m, (i, _)| m | 1 << i));
            let reject = self.one_base(keep, filled(keep, &parts));
            let accept = self.one_base(take, filled(take, &parts));
            let condition = self.mask_constant(mask);
            return self.fb.expr(Expression::Select { condition, accept, reject });
        }
        self.fb.compose_parts(parts)
    }

    /// A vector of components all from `base`: the base, a splat or a swizzle.
    fn one_base(&mut self, base: Expr, parts: Parts) -> Expr {
        if parts[0].index == SCALAR {
            let v = self.fb.expr(Expression::Splat { size: VectorSize::Quad, value: base });
            return self.note_derived(base, v);
        }
        if as_whole(&parts).is_some() {
            return base;
        }
        let pattern = parts.map(|c| COMPONENTS[usize::from(c.index)]);
        let v = self.fb.expr(Expression::Swizzle { size: VectorSize::Quad, vector: base, pattern });
        if let Some(bits) = self.fb.tables.known.get(&base).copied() {
            self.fb.tables.known.insert(v, pattern.map(|c| bits[c.index() as usize]));
        }
        self.note_derived(base, v)
    }

    /// `v` is made of `base`'s components: it keeps a splat's known value.
    fn note_derived(&mut self, base: Expr, v: Expr) -> Expr {
        if let Some(bits) = self.fb.tables.known.get(&base).copied().filter(|b| b.iter().all(|x| *x == b[0])) {
            self.fb.tables.known.insert_if_absent(v, bits);
        }
        v
    }

    /// The scalar of one component.
    pub fn scalar_part(&mut self, c: Comp) -> Expr {
        if self.fb.unstored() == Some(c.base) {
            return self.runtime_zero(super::parts::Width::Scalar);
        }
        self.fb.scalar_of(c)
    }

    /// `parts` with the stand-in for a never-stored register's +0 ([`FnBuilder::unstored_zero`])
    /// replaced by the run-time zero, made now: a component of it is being read (as a scalar,
    /// `scalar_part` does the same).
    ///
    /// [`FnBuilder::unstored_zero`]: super::builder::FnBuilder::unstored_zero
    fn resolve_unstored(&mut self, parts: Parts) -> Parts {
        let Some(stand_in) = self.fb.unstored().filter(|z| parts.iter().any(|c| c.base == *z)) else {
            return parts;
        };
        let zero = self.runtime_zero(super::parts::Width::Scalar);
        parts.map(|c| if c.base == stand_in { Comp { base: zero, index: SCALAR } } else { c })
    }

    /// Gives every register value waiting for its store a vector expression and the pointer
    /// of its variable (made now when the register has none yet).
    pub fn sync_values(&mut self) {
        let pending: Vec<_> = self.fb.tables.values.unmaterialised().collect();
        for (key, parts) in pending {
            let v = self.materialize(parts);
            self.fb.tables.values.set_vector(&key, v);
        }
        let unplaced: Vec<_> = self.fb.tables.values.unplaced().collect();
        for key in unplaced {
            let var = self.reg_var(crate::bytecode::Register::new(key.0, key.1));
            let pointer = self.var_ptr(var);
            self.fb.tables.values.place(&key, pointer);
        }
    }

    /// Appends a statement (register values are stored first).
    pub fn stmt(&mut self, s: Statement) {
        self.sync_values();
        self.fb.stmt(s);
    }

    /// Opens a nested block.
    pub fn open(&mut self) {
        self.sync_values();
        self.fb.open();
    }

    /// Closes the innermost block.
    pub fn close(&mut self) -> naga::Block {
        self.sync_values();
        self.fb.close()
    }

    /// Writes `new`'s components in `mask` into a register kept per component (no predicate,
    /// not in an array, not relatively addressed).
    pub fn store_parts(
        &mut self,
        reg: crate::bytecode::Register,
        mask: WriteMask,
        new: Parts,
    ) -> Result<(), super::LowerError> {
        let mut parts = if mask == WriteMask::ALL { new } else { self.current_parts(reg)? };
        for (i, p) in parts.iter_mut().enumerate() {
            if mask.has(i) {
                *p = new[i];
            }
        }
        // Into the register's variable, made when the store is written; a register of an
        // array is an element of the array's variable, which exists already.
        let pending = match self.regs.arrays.contains(reg.ty) {
            true => Pending::At(self.reg_ptr(reg)?),
            false => Pending::Variable,
        };
        self.fb.tables.values.insert((reg.ty, reg.num), parts, Some(pending));
        Ok(())
    }
}

/// `base`'s components of `parts`, the other places filled so that an in-place vector stays
/// whole (the select does not take them).
fn filled(base: Expr, parts: &Parts) -> Parts {
    let scalar = parts.iter().any(|c| c.base == base && c.index == SCALAR);
    let mut out = *parts;
    for (i, c) in out.iter_mut().enumerate() {
        if c.base != base {
            *c = Comp { base, index: if scalar { SCALAR } else { i as u8 } };
        }
    }
    out
}
