//! The checks of the handles and indices a caller passes in: a [`Handle`] is an index into the
//! run-time's store (store.rs), and techniques and passes are indices into the effect's lists,
//! so one past the end (made up, or from another effect) names nothing and is refused as
//! [`RuntimeError::BadHandle`] before anything reads through it (docs/effects.md, "ID3DXEffect,
//! method by method": D3DX answers D3DERR_INVALIDCALL for a handle it does not know).

use super::{EffectRuntime, RuntimeError};
use crate::effect::store::Handle;

impl EffectRuntime<'_> {
    /// `Ok` when `h` names a parameter, element, member or annotation of this effect.
    pub(super) fn check(&self, h: Handle) -> Result<(), RuntimeError> {
        bounded("parameter handle", h.0 as usize, self.store.nodes.len())
    }

    /// `Ok` when technique `technique` exists.
    pub(super) fn check_technique(&self, technique: usize) -> Result<(), RuntimeError> {
        bounded("technique", technique, self.effect.techniques.len())
    }

    /// `Ok` when pass `pass` of technique `technique` exists.
    pub(super) fn check_pass(&self, technique: usize, pass: usize) -> Result<(), RuntimeError> {
        bounded("pass", pass, self.effect.techniques.get(technique).map_or(0, |t| t.passes.len()))
    }
}

fn bounded(what: &'static str, index: usize, count: usize) -> Result<(), RuntimeError> {
    if index < count {
        Ok(())
    } else {
        Err(RuntimeError::BadHandle { what, index, count })
    }
}
