//! GetPassDesc: the shaders a pass would bind with the current parameter values, without
//! applying anything. An array selector is recomputed only when one of its inputs changed since
//! it was last computed (by BeginPass, CommitChanges or GetPassDesc), and GetPassDesc then reads
//! the index last computed, in range or not, where BeginPass falls back to the last good one.
//! That is the rule wine_preshader `scenario[5]` pins (effect.c:6885–6927): with g_iVect.z = 3,
//! GetPassDesc fails twice (E_FAIL, no vertex shader), the BeginPass after it succeeds with the
//! element chosen before (0), and a GetPassDesc after that BeginPass gives element 0 too.

use super::pass_shaders::PassDesc;
use super::{selection, EffectRuntime, RuntimeError};
use crate::effect::parameters::{State, StateSource};
use crate::effect::states::StateClass;
use crate::effect::ObjectKind;

type Key = (usize, usize, usize, u8);

impl EffectRuntime<'_> {
    /// GetPassDesc of pass `pass` of technique `technique` (E_FAIL on Windows when an array
    /// selector's index is past its array).
    pub fn pass_desc(&mut self, technique: usize, pass: usize) -> Result<PassDesc, RuntimeError> {
        self.pull_shared();
        let effect = self.effect;
        self.check_technique(technique)?;
        self.check_pass(technique, pass)?;
        let p = &effect.techniques[technique].passes[pass];
        let mut desc = PassDesc::default();
        for (i, state) in p.states.iter().enumerate() {
            let Some(info) = state.info() else { continue };
            let slot = match info.class {
                StateClass::VertexShader => &mut desc.vertex_shader,
                StateClass::PixelShader => &mut desc.pixel_shader,
                _ => continue,
            };
            *slot = self.desc_shader((technique, pass, i, 0), state)?;
        }
        Ok(desc)
    }

    /// The shader object a shader state names now.
    fn desc_shader(&mut self, key: Key, state: &State) -> Result<Option<usize>, RuntimeError> {
        let id = match &state.source {
            StateSource::Constant => state.value.value.first().copied(),
            StateSource::Parameter { name } => self.handle(name).map(|h| self.store.value(h).first().copied())?,
            StateSource::Expression { .. } => None,
            StateSource::ArraySelector { name, preshader } => {
                let array = self.handle(name)?;
                let elements = self.store.node(array).elements;
                let index = if self.is_dirty(key, preshader) {
                    let index = self.run_preshader(key, preshader, true).map_or(u32::MAX, |r| selection(&r));
                    self.set_last(key, Some(index));
                    if let Some(e) = self.evaluators.get_mut(&key).filter(|_| index < elements) {
                        e.selected = Some(index);
                    }
                    index
                } else {
                    self.evaluators.get(&key).and_then(|e| e.last).unwrap_or(u32::MAX)
                };
                let element = self.store.element(array, index as usize).ok_or_else(|| {
                    RuntimeError::SelectorOutOfRange { state: state.name(), name: name.clone(), index, elements }
                })?;
                self.store.value(element).first().copied()
            }
        };
        let id = id.map(|id| id as usize);
        Ok(id.filter(|&id| matches!(self.effect.objects.get(id).map(|o| &o.kind), Some(ObjectKind::Shader(_)))))
    }

    /// Records an array selector's last computed index.
    pub(super) fn set_last(&mut self, key: Key, index: Option<u32>) {
        if let Some(e) = self.evaluators.get_mut(&key) {
            e.last = index;
        }
    }
}
