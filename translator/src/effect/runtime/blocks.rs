//! Parameter blocks (ID3DXEffect::BeginParameterBlock, EndParameterBlock, ApplyParameterBlock,
//! DeleteParameterBlock). While a block is recorded, parameter sets go into the block and not
//! into the effect: a read meanwhile gives the value from before (wine_preshader `value` records
//! of test_effect_parameter_block, "sets are recorded, not applied"). Applying the block makes
//! its sets, in order, as if the application made them then. Deleting one is dropping it.

use super::parameter_block::ParameterBlock;
use super::{EffectRuntime, RuntimeError};
use crate::effect::store::Handle;

impl EffectRuntime<'_> {
    /// BeginParameterBlock: later sets are recorded instead of applied. A block already being
    /// recorded is an error (D3DERR_INVALIDCALL).
    pub fn begin_parameter_block(&mut self) -> Result<(), RuntimeError> {
        if self.recording.is_some() {
            return Err(RuntimeError::Order("BeginParameterBlock"));
        }
        self.recording = Some(ParameterBlock::default());
        Ok(())
    }

    /// EndParameterBlock: the block recorded since BeginParameterBlock.
    pub fn end_parameter_block(&mut self) -> Result<ParameterBlock, RuntimeError> {
        self.recording.take().ok_or(RuntimeError::Order("EndParameterBlock"))
    }

    /// ApplyParameterBlock: makes the block's sets now, in order (a block of another effect's
    /// handles fails with the first that does not fit).
    pub fn apply_parameter_block(&mut self, block: &ParameterBlock) -> Result<(), RuntimeError> {
        for (h, words) in block.sets() {
            self.set_value(*h, words)?;
        }
        Ok(())
    }

    /// Records a set while a block is being recorded; `false` when none is.
    pub(super) fn record(&mut self, h: Handle, words: &[u32]) -> bool {
        match &mut self.recording {
            Some(block) => {
                block.push(h, words);
                true
            }
            None => false,
        }
    }
}
