//! An effect's link to its pool (the data; `shared.rs` joins, writes through and reads back).
//! A leaf of the runtime folder, so that the runtime holds the link without importing the file
//! that extends the runtime with the pool's methods.

use crate::effect::pool::EffectPool;
use crate::effect::store::Handle;

/// The shared parameters of one effect.
#[derive(Debug)]
pub(super) struct PoolLink {
    pub(super) pool: EffectPool,
    pub(super) shared: Vec<Shared>,
}

/// One shared top-level parameter: its handle, its pool entry and the entry version last read.
#[derive(Clone, Copy, Debug)]
pub(super) struct Shared {
    pub(super) top: Handle,
    pub(super) entry: usize,
    pub(super) seen: u64,
}

impl Clone for PoolLink {
    /// A cloned effect is one more user of every entry.
    fn clone(&self) -> PoolLink {
        for s in &self.shared {
            self.pool.retain(s.entry);
        }
        PoolLink { pool: self.pool.clone(), shared: self.shared.clone() }
    }
}

impl Drop for PoolLink {
    fn drop(&mut self) {
        for s in &self.shared {
            self.pool.release(s.entry);
        }
    }
}
