//! ValidateTechnique: a technique is valid when every pass's states apply (no array selector
//! out of range) and every shader they select is one a hardware device creates.

use super::{EffectRuntime, RuntimeError};
use crate::effect::evaluate::{f32_to_i32, plan, upload, Registers, Target};
use crate::effect::parameters::{State, StateSource};
use crate::effect::preshader::Table;
use crate::effect::ObjectKind;

impl EffectRuntime<'_> {
    /// ValidateTechnique: every pass's states apply (no array selector out of range) and every
    /// shader they select is one a hardware device creates.
    pub fn validate(&mut self, technique: usize) -> Result<(), RuntimeError> {
        self.pull_shared();
        self.check_technique(technique)?;
        let t = &self.effect.techniques[technique];
        let saved = (self.technique, self.begun, self.pass);
        self.technique = technique;
        let mut result = Ok(());
        for pass in 0..t.passes.len() {
            let state = self.evaluate_pass(pass, true)?;
            if let Some(e) = state.errors.into_iter().next() {
                result = Err(e);
                break;
            }
            let refused = t.passes[pass].states.iter().any(|s| self.selects_unsupported(s));
            if refused {
                result = Err(RuntimeError::Unsupported { technique: t.name.clone(), pass });
                break;
            }
        }
        (self.technique, self.begun, self.pass) = saved;
        result
    }

    /// FindNextValidTechnique: the first technique after `after` (from the first when `None`)
    /// that [`validate`](Self::validate) accepts, `None` when none is (S_FALSE on Windows;
    /// wine_two_techniques and wine_unsupported_shader `find_next_valid`).
    pub fn find_next_valid_technique(&mut self, after: Option<usize>) -> Option<usize> {
        let start = after.map_or(0, |t| t + 1);
        (start..self.effect.techniques.len()).find(|&t| self.validate(t).is_ok())
    }

    /// Whether a shader state selects a shader object a hardware device refuses.
    fn selects_unsupported(&self, s: &State) -> bool {
        let id = match &s.source {
            StateSource::Constant if s.value.ty.is_shader() => s.value.value.first().copied(),
            StateSource::Parameter { name } if s.value.ty.is_shader() => {
                self.store.lookup(None, name).and_then(|h| self.store.value(h).first().copied())
            }
            StateSource::ArraySelector { name, preshader } => {
                let Some(array) = self.store.lookup(None, name) else { return false };
                let mut regs = Registers::new(preshader);
                let uploads = plan(&self.store, &preshader.inputs, Target::PreshaderInputs);
                upload(&mut regs, &self.store, &uploads);
                regs.run(preshader);
                let index = regs.tables[Table::Output as usize].first().map_or(0, |&w| f32_to_i32(f32::from_bits(w)));
                let index = if index == -1 { 0 } else { index as u32 as usize };
                self.store.element(array, index).and_then(|h| self.store.value(h).first().copied())
            }
            _ => None,
        };
        let Some(id) = id else { return false };
        matches!(self.effect.objects.get(id as usize).map(|o| &o.kind), Some(ObjectKind::Shader(sh)) if !sh.hardware_supported())
    }
}
