//! The fog factor of the pixel epilogue (docs/d3d9-rules.md#fog), built in one place for both
//! ways the fog mode reaches the shader: baked from the key (the epilogue specialises on it) or
//! read at run time from an override or the render-state block ([`super::render_state`], which
//! computes every formula and selects by the mode's value).
//!
//! Each term is built at most once and always in the same order (depth, FOGSTART, FOGEND,
//! FOGDENSITY, linear, exp, exp2, the FOG input), so a baked mode emits exactly the expressions
//! its formula needs and the run-time mode emits all of them.

use naga::{BinaryOperator as B, MathFunction as M};

use super::constants::rs;
use super::state::Expr;
use super::{LowerError, Lowerer};
use crate::key::{FogMode, FogSource};

/// The fog mode the factor is built for.
#[derive(Clone, Copy)]
pub(crate) enum FogSelect {
    /// The key's mode; `w_source`: table fog reads 1 / w rather than z.
    Baked { mode: FogMode, w_source: bool },
    /// A `u32` read at run time: 1 exp, 2 exp2, 3 linear (D3DFOGMODE), 4 vertex (the layout's
    /// `fog_mode` member in [`super`]); with 0 the factor is built but not applied.
    RunTime(Expr),
}

impl FogSelect {
    /// Whether the factor needs `formula`'s term.
    fn needs(self, formula: FogMode) -> bool {
        match self {
            FogSelect::Baked { mode, .. } => mode == formula,
            FogSelect::RunTime(_) => true,
        }
    }
}

impl Lowerer<'_> {
    /// The fog factor f before its clamp to [0, 1]: LINEAR (end − d) / (end − start), EXP
    /// e^−(density · d), EXP2 e^−(density · d)², vertex fog the interpolated FOG input.
    pub(crate) fn fog_factor(&mut self, select: FogSelect) -> Result<Expr, LowerError> {
        let table = [FogMode::Linear, FogMode::Exp, FogMode::Exp2].into_iter().any(|m| select.needs(m));
        // A run-time mode may still have its depth source baked (the two are delivered apart):
        // the key's source then, as for a baked mode.
        let d = match (table, select) {
            (false, _) => None,
            (true, FogSelect::Baked { w_source, .. }) => Some(self.fog_depth(w_source)?),
            (true, FogSelect::RunTime(_)) => Some(self.fog_depth(self.key.fog_source == FogSource::W)?),
        };
        let range = match select.needs(FogMode::Linear) {
            true => Some((self.render_state(rs::FOG_START)?, self.render_state(rs::FOG_END)?)),
            false => None,
        };
        let exponential = select.needs(FogMode::Exp) || select.needs(FogMode::Exp2);
        let density = if exponential { Some(self.render_state(rs::FOG_DENSITY)?) } else { None };
        // (the run-time mode's value, the term), in the order the run-time selection tests them.
        let mut terms = Vec::new();
        if let (Some(d), Some((start, end))) = (d, range) {
            let num = self.bin(B::Subtract, end, d);
            let den = self.bin(B::Subtract, end, start);
            terms.push((3, self.bin(B::Divide, num, den)));
        }
        if let (Some(d), Some(density)) = (d, density) {
            let e = self.bin(B::Multiply, d, density);
            let mut exps = Vec::new();
            if select.needs(FogMode::Exp) {
                let ne = self.neg(e);
                exps.push((1, self.math1(M::Exp, ne)));
            }
            if select.needs(FogMode::Exp2) {
                let e2 = self.bin(B::Multiply, e, e);
                let ne2 = self.neg(e2);
                exps.push((2, self.math1(M::Exp, ne2)));
            }
            terms.extend(exps.into_iter().rev());
        }
        match select {
            FogSelect::Baked { mode: FogMode::Vertex, .. } => Ok(self.fog_input()),
            FogSelect::Baked { .. } => terms.first().map(|t| t.1).ok_or_else(|| self.invalid("fog without a fog mode")),
            FogSelect::RunTime(mode) => {
                let mut f = self.fog_input();
                for (v, value) in terms {
                    let is = self.mode_is(mode, v);
                    f = self.select(is, value, f);
                }
                Ok(f)
            }
        }
    }
}
