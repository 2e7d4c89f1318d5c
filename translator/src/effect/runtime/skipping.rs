//! D3DXCreateEffectEx's skip list on the run-time (docs/effects.md#skip-constants; the rules
//! are `effect/skip.rs`'s).

use super::{EffectRuntime, RuntimeError};
use crate::effect::{Effect, EffectPool};

impl<'e> EffectRuntime<'e> {
    /// D3DXCreateEffectEx: a runtime whose shaders leave the constants of `skip` (`"a; b"`)
    /// to the application: BeginPass and CommitChanges never write their registers, while the
    /// constants beside them still are. [`Effect::skip_constants`] decides which lists Windows
    /// refuses (D3DERR_INVALIDCALL; docs/effects.md#skip-constants).
    pub fn with_skip_constants(effect: &'e Effect, skip: &str) -> Result<EffectRuntime<'e>, RuntimeError> {
        let skipped = effect.skip_constants(skip)?;
        let mut rt = EffectRuntime::new(effect);
        // Only shader-constant evaluators read the list, and none exists yet.
        rt.skipped = skipped;
        Ok(rt)
    }

    /// D3DXCreateEffectEx with both a pool and a skip list: [`in_pool`](Self::in_pool) and
    /// [`with_skip_constants`](Self::with_skip_constants) together.
    pub fn in_pool_with_skip_constants(
        effect: &'e Effect,
        pool: &EffectPool,
        skip: &str,
    ) -> Result<EffectRuntime<'e>, RuntimeError> {
        let skipped = effect.skip_constants(skip)?;
        let mut rt = EffectRuntime::in_pool(effect, pool);
        rt.skipped = skipped;
        Ok(rt)
    }

    /// The skip list the effect was created with.
    pub fn skipped(&self) -> &std::collections::BTreeSet<String> {
        &self.skipped
    }
}
