//! D3DXCreateEffectEx's `pSkipConstants`: shader constants the application sets itself, so the
//! effect never writes their registers (docs/effects.md#skip-constants). The rules are the ones
//! Windows shows in Wine's d3dx9 test `test_effect_skip_constants` (effect.c), restated:
//!
//! - the list is read as identifiers (a letter or `_`, then letters, digits, `_`); every other
//!   character separates names, so `" v1#,.+-= &\t\nv2*/!\"'v5 v6[1]"` names v1, v2, v5 and v6
//!   (and `v6[1]` skips the whole array v6: neither of its registers is written);
//! - a name that no shader's constant table binds (v5, an unused parameter) is accepted and
//!   changes nothing;
//! - a listed constant that a shader's constant table binds must have been bound to its register
//!   by the source (`register(cN)`; the table entry's reserved word is then nonzero): v3, placed
//!   at c0 by the compiler, is refused with D3DERR_INVALIDCALL;
//! - a listed parameter that a technique still reads once the listed constants are taken out of
//!   the constant tables (a state's reference or preshader, an array selector, a shader's
//!   preshader) is refused: v4, read by `PointScale_A = v4`'s preshader, fails creation.

use std::collections::BTreeSet;

use thiserror::Error;

use super::Effect;

/// Why D3DXCreateEffectEx refuses a skip list (D3DERR_INVALIDCALL on Windows).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SkipConstantsError {
    /// The constant table of shader object `shader` gives `name` a register the compiler chose;
    /// only constants the source bound with `register(...)` can be left to the application.
    #[error(
        "skip list: {name} is not bound to a register by the source (shader object {shader}, register {register})"
    )]
    NotRegisterBound {
        /// The constant.
        name: String,
        /// The shader object whose constant table names it.
        shader: usize,
        /// The register it was given.
        register: u16,
    },
    /// Technique `technique` reads `name` other than through a shader's constant table (a
    /// state, a preshader, an array selector), so the effect cannot leave it to the application.
    #[error("skip list: {name} is used by technique {technique:?} other than as a shader constant")]
    UsedByTechnique {
        /// The parameter.
        name: String,
        /// The technique's name.
        technique: String,
    },
}

/// The names of a skip list: identifiers, everything else separating them.
pub fn skip_list_names(list: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut rest = list;
    while let Some(start) = rest.find(|c: char| c.is_ascii_alphabetic() || c == '_') {
        let tail = &rest[start..];
        let end = tail.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(tail.len());
        names.insert(tail[..end].to_string());
        rest = &tail[end..];
    }
    names
}

impl Effect {
    /// D3DXCreateEffectEx's skip list (`"a; b"`): the names the effect leaves to the
    /// application, or why Windows refuses the list (module docs).
    pub fn skip_constants(&self, list: &str) -> Result<BTreeSet<String>, SkipConstantsError> {
        let names = skip_list_names(list);
        for (shader, s) in self.shaders() {
            let table = s.constants.iter().flat_map(|t| &t.constants);
            if let Some(c) = table.filter(|c| names.contains(&c.name)).find(|c| c.reserved == 0) {
                let (name, register) = (c.name.clone(), c.register_index);
                return Err(SkipConstantsError::NotRegisterBound { name, shader, register });
            }
        }
        for (t, technique) in self.techniques.iter().enumerate() {
            let used = self.used_parameters_skipping(t, &names);
            if let Some(name) = names.iter().find(|n| used.contains(*n)) {
                let technique = technique.name.clone();
                return Err(SkipConstantsError::UsedByTechnique { name: name.clone(), technique });
            }
        }
        Ok(names)
    }
}
