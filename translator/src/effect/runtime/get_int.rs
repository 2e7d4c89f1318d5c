//! GetInt, with its D3DCOLOR packing of a float vector (docs/effects.md#methods).

use super::{EffectRuntime, RuntimeError};
use crate::effect::evaluate::f32_to_i32;
use crate::effect::store::Handle;
use crate::effect::types::{ParameterClass, ParameterType};

impl EffectRuntime<'_> {
    /// GetInt. A 1×1 value that is no array converts (a float as GetInt converts one, a bool
    /// as 0 or 1). A float vector of 3 or 4 columns, or a 3×1 or 4×1 float matrix, packs as a
    /// D3DCOLOR: [`d3dcolor`] of its values. Anything else (a float2, a 2×1 or larger matrix,
    /// an array, a struct, an object) is [`RuntimeError::NotApplicable`] (Windows:
    /// D3DERR_INVALIDCALL; the `get_int` records of wine_parameter_value_float and
    /// wine_parameter_value_special). Like GetValue, it sees what other effects of the pool set.
    pub fn get_int(&mut self, h: Handle) -> Result<i32, RuntimeError> {
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

/// A D3DCOLOR (0xAARRGGBB) from floats r, g, b and, when given, a (else alpha is 0): each channel
/// is the float clamped to [0, 1] times 255, truncated (0.5 gives 127), NaN giving 0. The
/// Windows results Wine's test_effect_parameter_value_GetInt compares with compute exactly
/// this, and the alpha byte only for a value of more than 3 components; the clamping is what
/// wine_parameter_value_special's `get_int` records show (`f3` = (-3.1, 153.2, 283.3) gives
/// 0x0000ffff).
pub fn d3dcolor(rgba: &[f32]) -> u32 {
    let byte = |i: usize| -> u32 {
        let f = rgba.get(i).copied().unwrap_or(0.0);
        let c = if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) };
        (c * 255.0) as u32
    };
    let a = if rgba.len() > 3 { byte(3) } else { 0 };
    a << 24 | byte(0) << 16 | byte(1) << 8 | byte(2)
}
