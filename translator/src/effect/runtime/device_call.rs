//! The call type of [`PassState::device_calls`](super::PassState::device_calls): one method of
//! ID3DXEffectStateManager with its arguments. A leaf of the runtime folder (it names no runtime
//! type), so that `runtime.rs` re-exports it without importing the file that builds the calls.

use serde::Serialize;

use crate::effect::states::{ShaderConstantFile, LIGHT_WORDS, MATERIAL_WORDS};
use crate::effect::store::Handle;

/// One call to the state manager (or the device).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "call")]
pub enum DeviceCall {
    /// `SetTransform(state, matrix)`: D3DTRANSFORMSTATETYPE and 16 float bit patterns.
    SetTransform {
        /// The transform state.
        state: u32,
        /// The matrix in memory order.
        matrix: Vec<u32>,
    },
    /// `SetMaterial(material)`: the pass's D3DMATERIAL9 ([`PassState::material`](super::PassState::material)).
    SetMaterial {
        /// The material's words.
        material: [u32; MATERIAL_WORDS],
    },
    /// `SetLight(index, light)`: the pass's D3DLIGHT9 of that light ([`PassState::lights`](super::PassState::lights)).
    SetLight {
        /// The light.
        index: u32,
        /// The light's words.
        light: [u32; LIGHT_WORDS],
    },
    /// `LightEnable(index, enable)`.
    LightEnable {
        /// The light.
        index: u32,
        /// Enabled.
        enable: bool,
    },
    /// `SetRenderState(state, value)`.
    SetRenderState {
        /// D3DRENDERSTATETYPE.
        state: u32,
        /// The DWORD.
        value: u32,
    },
    /// `SetTexture(stage, texture)`.
    SetTexture {
        /// The sampler (257–260 for vertex texture samplers).
        stage: u32,
        /// The texture parameter that supplies it, `None` for NULL.
        texture: Option<Handle>,
    },
    /// `SetTextureStageState(stage, state, value)`.
    SetTextureStageState {
        /// The stage.
        stage: u32,
        /// D3DTEXTURESTAGESTATETYPE.
        state: u32,
        /// The DWORD.
        value: u32,
    },
    /// `SetSamplerState(sampler, state, value)`.
    SetSamplerState {
        /// The sampler.
        sampler: u32,
        /// D3DSAMPLERSTATETYPE.
        state: u32,
        /// The DWORD.
        value: u32,
    },
    /// `SetNPatchMode(segments)`: the float's bits.
    SetNPatchMode {
        /// The segment count.
        segments: u32,
    },
    /// `SetFVF(fvf)`.
    SetFvf {
        /// The FVF code.
        fvf: u32,
    },
    /// `SetVertexShader`: the object id, `None` for NULL.
    SetVertexShader {
        /// The shader object.
        object: Option<usize>,
    },
    /// `SetPixelShader`.
    SetPixelShader {
        /// The shader object.
        object: Option<usize>,
    },
    /// `Set{Vertex,Pixel}ShaderConstant{F,I,B}(first, values, count)`.
    SetShaderConstant {
        /// The register file.
        file: ShaderConstantFile,
        /// The first register.
        first: u32,
        /// Four words per float or int register, one per bool register.
        words: Vec<u32>,
    },
}

impl DeviceCall {
    /// The ID3DXEffectStateManager method this call is.
    pub fn method(&self) -> &'static str {
        use ShaderConstantFile::*;
        match self {
            DeviceCall::SetTransform { .. } => "SetTransform",
            DeviceCall::SetMaterial { .. } => "SetMaterial",
            DeviceCall::SetLight { .. } => "SetLight",
            DeviceCall::LightEnable { .. } => "LightEnable",
            DeviceCall::SetRenderState { .. } => "SetRenderState",
            DeviceCall::SetTexture { .. } => "SetTexture",
            DeviceCall::SetTextureStageState { .. } => "SetTextureStageState",
            DeviceCall::SetSamplerState { .. } => "SetSamplerState",
            DeviceCall::SetNPatchMode { .. } => "SetNPatchMode",
            DeviceCall::SetFvf { .. } => "SetFVF",
            DeviceCall::SetVertexShader { .. } => "SetVertexShader",
            DeviceCall::SetPixelShader { .. } => "SetPixelShader",
            DeviceCall::SetShaderConstant { file, .. } => match file {
                VsFloat => "SetVertexShaderConstantF",
                VsInt => "SetVertexShaderConstantI",
                VsBool => "SetVertexShaderConstantB",
                PsFloat => "SetPixelShaderConstantF",
                PsInt => "SetPixelShaderConstantI",
                PsBool => "SetPixelShaderConstantB",
            },
        }
    }

    /// The method's place in ID3DXEffectStateManager's vtable (after IUnknown's three).
    pub fn vtable_slot(&self) -> usize {
        Self::slot_of(self.method()).unwrap_or(usize::MAX)
    }

    /// The vtable place of a method by name (`SetLight`), `None` for a name that is none.
    pub fn slot_of(method: &str) -> Option<usize> {
        const ORDER: [&str; 18] = [
            "SetTransform",
            "SetMaterial",
            "SetLight",
            "LightEnable",
            "SetRenderState",
            "SetTexture",
            "SetTextureStageState",
            "SetSamplerState",
            "SetNPatchMode",
            "SetFVF",
            "SetVertexShader",
            "SetVertexShaderConstantF",
            "SetVertexShaderConstantI",
            "SetVertexShaderConstantB",
            "SetPixelShader",
            "SetPixelShaderConstantF",
            "SetPixelShaderConstantI",
            "SetPixelShaderConstantB",
        ];
        ORDER.iter().position(|m| *m == method).map(|i| 3 + i)
    }

    /// The call's two leading integer arguments: (state, 0) for render states, (index, 0) for
    /// lights and textures, (stage or sampler, state) for stage and sampler states, (first
    /// register, count) for constants, (state, 0) for transforms, 0 otherwise.
    pub fn args(&self) -> (u32, u32) {
        match self {
            DeviceCall::SetTransform { state, .. } | DeviceCall::SetRenderState { state, .. } => (*state, 0),
            DeviceCall::SetLight { index, .. } | DeviceCall::LightEnable { index, .. } => (*index, 0),
            DeviceCall::SetTexture { stage, .. } => (*stage, 0),
            DeviceCall::SetTextureStageState { stage, state, .. } => (*stage, *state),
            DeviceCall::SetSamplerState { sampler, state, .. } => (*sampler, *state),
            DeviceCall::SetShaderConstant { file, first, words } => {
                let per = if matches!(file, ShaderConstantFile::VsBool | ShaderConstantFile::PsBool) { 1 } else { 4 };
                (*first, (words.len() / per) as u32)
            }
            _ => (0, 0),
        }
    }
}

/// SetStateManager: a caller's receiver of the calls a pass makes, as ID3DXEffectStateManager
/// receives them (one [`DeviceCall`] per callback, in [`PassState::device_calls`]'s order).
/// A closure `FnMut(&DeviceCall)` is one.
pub trait StateManager {
    /// One callback: SetTransform, SetMaterial, SetLight, LightEnable, SetRenderState,
    /// SetTexture, SetTextureStageState, SetSamplerState, SetNPatchMode, SetFVF,
    /// Set{Vertex,Pixel}Shader or Set{Vertex,Pixel}ShaderConstant{F,I,B}.
    fn call(&mut self, call: &DeviceCall);
}

impl<F: FnMut(&DeviceCall)> StateManager for F {
    fn call(&mut self, call: &DeviceCall) {
        self(call)
    }
}
