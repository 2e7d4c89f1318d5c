//! The light and material structs of a pass: D3DX keeps one D3DLIGHT9 per light and one
//! D3DMATERIAL9, zeroed at BeginPass, writes the light and material states into them and sends
//! each struct a state changed whole (docs/effects.md#device-calls).

use super::{EffectRuntime, PassState, StateValue};
use crate::effect::states::{light_member, material_member, StateClass, LIGHT_WORDS, MATERIAL_WORDS};

impl EffectRuntime<'_> {
    /// Writes the applied light and material states into the pass's structs and lists the
    /// structs to send.
    pub(super) fn cache_structs(&mut self, out: &mut PassState) {
        for st in &out.states {
            let StateValue::Words { words, .. } = &st.value else { continue };
            let (dst, at): (&mut [u32], _) = match st.class {
                StateClass::Light => (self.lights.entry(st.index).or_insert([0; LIGHT_WORDS]), light_member(st.code)),
                StateClass::Material => (&mut self.material, material_member(st.code)),
                _ => continue,
            };
            if let Some((first, n)) = at {
                for (d, w) in dst[first..first + n].iter_mut().zip(words) {
                    *d = *w;
                }
            }
            if st.class == StateClass::Light && !out.lights.iter().any(|l| l.0 == st.index) {
                out.lights.push((st.index, [0; LIGHT_WORDS]));
            }
            if st.class == StateClass::Material {
                out.material = Some([0; MATERIAL_WORDS]);
            }
        }
        for (index, light) in &mut out.lights {
            *light = self.lights[index];
        }
        if let Some(m) = &mut out.material {
            *m = self.material;
        }
    }
}
