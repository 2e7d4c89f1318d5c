//! A parameter block's recorded sets (the type; the ID3DXEffect calls are `blocks.rs`).

use crate::effect::store::Handle;

/// A recorded parameter block: the sets made while it was recorded, each as the words the
/// parameter (or element, member) stores.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParameterBlock {
    sets: Vec<(Handle, Vec<u32>)>,
}

impl ParameterBlock {
    /// The recorded sets, in order.
    pub fn sets(&self) -> &[(Handle, Vec<u32>)] {
        &self.sets
    }

    /// Records one set.
    pub(super) fn push(&mut self, h: Handle, words: &[u32]) {
        self.sets.push((h, words.to_vec()));
    }
}
