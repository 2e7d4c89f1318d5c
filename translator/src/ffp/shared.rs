//! What the vertex and pixel halves of a pair share: where each varying lives and the fog
//! formulas. Both keys build on this file, which imports neither
//! (docs/architecture.md#no-circles).

use crate::bytecode::Usage;

/// Where each varying lives: (usage, usage index, location). Both halves of a pair, generated or
/// translated, must agree; [`Varyings::default`] is the generator's own layout.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Varyings(pub Vec<(Usage, u8, u32)>);

impl Default for Varyings {
    /// COLOR0 → 0, COLOR1 → 1, TEXCOORDn → 2 + n, FOG → 10.
    fn default() -> Self {
        let mut v = vec![(Usage::Color, 0, 0), (Usage::Color, 1, 1)];
        v.extend((0..8).map(|n| (Usage::TexCoord, n, 2 + n as u32)));
        v.push((Usage::Fog, 0, 10));
        Varyings(v)
    }
}

impl Varyings {
    /// The location of a semantic, if the layout has it.
    pub fn location(&self, usage: Usage, index: u8) -> Option<u32> {
        self.0.iter().find(|(u, i, _)| *u == usage && *i == index).map(|(_, _, l)| *l)
    }
}

/// The three fog formulas (D3DFOG_*).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum FogFormula {
    Linear,
    Exp,
    Exp2,
}
