//! Sums a driver may reassociate. D3D9 adds in program order, but a Vulkan driver may reorder
//! a chain of float adds that carry no `NoContraction` (Mesa's NIR treats them as inexact, and
//! lavapipe does: docs/d3d9-rules.md#float-rules). Across two instructions that changes the
//! value by as much as an ulp of the largest term of the chain, however small the result: in
//! `r1 = -z + w; r3 = c + r1` with z = w = −1e30, D3D9 gives c and lavapipe, computing
//! `(c − z) + w`, gives 0 (fuzz-diff seed 1796701136, vs_2_0).
//!
//! The skewed runs model it: each temp component remembers the largest magnitude among the
//! terms of the sum that wrote it ([`Lane::sums`]), carried through plain and negated reads,
//! and a sum that continues such a chain moves by an ulp of it. Within one instruction the
//! rounding skew of [`super::arithmetic::Arith::add`] already covers the order.
//!
//! [`Lane::sums`]: super::registers::Lane::sums

use crate::bytecode::{Instruction, Opcode, RegisterType, SrcModifier, SrcParam};

use super::approximation::ulp;
use super::machine::Machine;

impl Machine<'_> {
    /// For a skewed run's `add`, `sub` or `mad` with sources `s` and result `r`: `r` moved by
    /// an ulp of the largest term of the sums its summed operands continue, and the terms the
    /// result carries on.
    pub(super) fn continued_sum(
        &self,
        lane: usize,
        ins: &Instruction,
        s: &[[f32; 4]; 4],
        r: [f32; 4],
    ) -> ([f32; 4], [f32; 4]) {
        let terms = |i: usize| ins.src.get(i).map_or([0.0; 4], |src| self.src_sums(lane, src));
        let (inner, own): ([f32; 4], [[f32; 4]; 2]) = match ins.opcode {
            // The product is one term; only src2 may continue a chain.
            Opcode::Mad => (terms(2), [std::array::from_fn(|c| s[0][c] * s[1][c]), s[2]]),
            _ => {
                let (a, b) = (terms(0), terms(1));
                (std::array::from_fn(|c| a[c].max(b[c])), [s[0], s[1]])
            }
        };
        let moved = std::array::from_fn(|c| match inner[c] {
            m if m > 0.0 => self.arith.skew.apply(r[c], ulp(m)),
            _ => r[c],
        });
        let carried = std::array::from_fn(|c| magnitude(own[0][c]).max(magnitude(own[1][c])).max(inner[c]));
        (moved, carried)
    }

    /// The sum terms a source brings ([`super::registers::Lane::sums`] through its swizzle): a
    /// temp read plainly or negated; any other register or modifier starts afresh.
    fn src_sums(&self, lane: usize, src: &SrcParam) -> [f32; 4] {
        let plain = matches!(src.modifier, SrcModifier::None | SrcModifier::Neg);
        if src.reg.ty != RegisterType::Temp || !plain || src.relative.is_some() {
            return [0.0; 4];
        }
        match self.lanes[lane].sums.get(usize::from(src.reg.num)) {
            Some(t) => std::array::from_fn(|c| t[src.swizzle.get(c)]),
            None => [0.0; 4],
        }
    }
}

/// A term's magnitude, 0 for a NaN or an infinity (a chain through one is NaN in the skewed
/// runs already).
fn magnitude(x: f32) -> f32 {
    if x.is_finite() {
        x.abs()
    } else {
        0.0
    }
}
