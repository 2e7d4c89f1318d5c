//! GetString and SetString: a string parameter's value is an object id into the effect's
//! string objects; SetString keeps the new text beside it, per handle, so that the parsed
//! effect stays as read (wine_clone `value[1]`: SetString then CloneEffect reads the new text).

use super::{EffectRuntime, RuntimeError};
use crate::effect::store::Handle;
use crate::effect::types::ParameterType;
use crate::effect::ObjectKind;

impl EffectRuntime<'_> {
    /// GetString: the text last set, else the blob's string object (an empty string for a
    /// string parameter whose object is missing, as D3DX gives for NULL strings).
    pub fn get_string(&self, h: Handle) -> Result<String, RuntimeError> {
        self.string_node(h)?;
        if let Some(text) = self.strings.get(&h) {
            return Ok(text.clone());
        }
        let id = self.store.value(h).first().copied().unwrap_or(u32::MAX) as usize;
        Ok(match self.effect.objects.get(id).map(|o| &o.kind) {
            Some(ObjectKind::String { text }) => text.clone(),
            _ => String::new(),
        })
    }

    /// SetString.
    pub fn set_string(&mut self, h: Handle, text: &str) -> Result<(), RuntimeError> {
        self.string_node(h)?;
        self.strings.insert(h, text.to_string());
        self.touch(h);
        Ok(())
    }

    /// Only a single string (not an array of them) takes GetString/SetString.
    fn string_node(&self, h: Handle) -> Result<(), RuntimeError> {
        self.check(h)?;
        let node = self.store.node(h);
        if node.ty == ParameterType::String && node.elements == 0 {
            Ok(())
        } else {
            Err(RuntimeError::NotAString(node.full_name.clone()))
        }
    }
}
