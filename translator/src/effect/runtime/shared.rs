//! An effect's link to its pool: which top-level parameters share a pool entry, and the entry
//! version each last read. Sets write through; every evaluation first reads what other effects
//! of the pool set since (docs/effects.md#effect-pools).

use super::pool_link::{PoolLink, Shared};
use super::EffectRuntime;
use crate::effect::pool::{is_shared, EffectPool};
use crate::effect::store::Handle;

impl<'e> EffectRuntime<'e> {
    /// Joins every `shared` parameter to the pool; one the pool already holds takes the pool's
    /// current value instead of this effect's default.
    pub(super) fn join_pool(&mut self, pool: &EffectPool) {
        let mut shared = Vec::new();
        for (i, p) in self.effect.parameters.iter().enumerate() {
            let Some(&top) = self.store.top_level.get(i) else { continue };
            if !is_shared(p) {
                continue;
            }
            let (entry, values, seen) = pool.join(p, self.store.value(top));
            copy(self.store.value_mut(top), &values);
            shared.push(Shared { top, entry, seen });
        }
        self.pool = Some(PoolLink { pool: pool.clone(), shared });
    }

    /// Writes a set parameter through to the pool, when it is shared.
    pub(super) fn push_shared(&mut self, top: Handle) {
        let Some(link) = &mut self.pool else { return };
        if let Some(s) = link.shared.iter_mut().find(|s| s.top == top) {
            s.seen = link.pool.store(s.entry, self.store.value(top));
        }
    }

    /// Reads what other effects of the pool set since; each such parameter counts as changed.
    pub(super) fn pull_shared(&mut self) {
        let Some(link) = &mut self.pool else { return };
        let mut changed = Vec::new();
        for s in &mut link.shared {
            if let Some((values, version)) = link.pool.newer(s.entry, s.seen) {
                s.seen = version;
                changed.push((s.top, values));
            }
        }
        for (top, values) in changed {
            copy(self.store.value_mut(top), &values);
            self.touch(top);
        }
    }

    /// A parameter's value words (GetValue), with what other effects of the pool set since.
    pub fn value(&mut self, h: Handle) -> &[u32] {
        self.pull_shared();
        self.store.value(h)
    }
}

/// Copies what fits (declarations that match hold as many words; a damaged blob's may not).
fn copy(dst: &mut [u32], src: &[u32]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d = *s;
    }
}
