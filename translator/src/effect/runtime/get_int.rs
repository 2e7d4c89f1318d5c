//! GetInt, with its D3DCOLOR packing of a float vector (docs/effects.md#methods).

use super::{EffectRuntime, RuntimeError};
use crate::effect::evaluate::f32_to_i32;
use crate::effect::store::Handle;
use crate::effect::types::{ParameterClass, ParameterType};
use crate::effect::values::d3dcolor;

impl EffectRuntime<'_> {
    /// GetInt. A 1×1 value that is no array converts (a float as GetInt converts one, a bool
    /// as 0 or 1). A float vector of 3 or 4 columns, or a 3×1 or 4×1 float matrix, packs as a
    /// D3DCOLOR: [`d3dcolor`] of its values. Anything else (a float2, a 2×1 or larger matrix,
    /// an array, a struct, an object) is [`RuntimeError::NotApplicable`] (Windows:
    /// D3DERR_INVALIDCALL; the `get_int` records of wine_parameter_value_float and
    /// wine_parameter_value_special). Like GetValue, it sees what other effects of the pool set.
    pub fn get_int(&mut self, h: Handle) -> Result<i32, RuntimeError> {
        self.check(h)?;
        self.pull_shared();
        let n = self.store.node(h);
        let v = self.store.value(h);
        let refuse = || self.not_applicable(h, "GetInt", "a scalar, or a float3/float4 colour");
        if n.elements > 0 || !n.class.is_numeric() {
            return Err(refuse());
        }
        if n.rows == 1 && n.columns == 1 {
            return Ok(match n.ty {
                ParameterType::Float => f32_to_i32(f32::from_bits(v[0])),
                ParameterType::Bool => (v[0] != 0) as i32,
                _ => v[0] as i32,
            });
        }
        let matrix = matches!(n.class, ParameterClass::MatrixRows | ParameterClass::MatrixColumns);
        let color = n.ty == ParameterType::Float
            && ((n.class == ParameterClass::Vector && (n.columns == 3 || n.columns == 4))
                || (matrix && n.columns == 1 && (n.rows == 3 || n.rows == 4)));
        if !color {
            return Err(refuse());
        }
        let floats: Vec<f32> = v.iter().map(|&w| f32::from_bits(w)).collect();
        Ok(d3dcolor(&floats) as i32)
    }
}
