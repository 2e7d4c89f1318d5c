//! What a pass sets, as the calls D3DX makes to apply it: one call per method of
//! ID3DXEffectStateManager (or of the device when no manager is set). The grouping is D3DX's
//! (docs/effects.md#device-calls): a light's member states become one `SetLight` of the whole
//! D3DLIGHT9 the pass keeps, a material's one `SetMaterial`, a sampler parameter's states one
//! `SetSamplerState` each plus `SetTexture` for its texture, and the shader constants one
//! `Set*ShaderConstant*` per run of consecutive registers of a register file.

use serde::Serialize;

use super::{AppliedState, Constants, PassState, StateValue};
use crate::effect::states::{constant_file, ShaderConstantFile, StateClass, LIGHT_WORDS, MATERIAL_WORDS};
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
    /// `SetMaterial(material)`: the pass's D3DMATERIAL9 ([`PassState::material`]).
    SetMaterial {
        /// The material's words.
        material: [u32; MATERIAL_WORDS],
    },
    /// `SetLight(index, light)`: the pass's D3DLIGHT9 of that light ([`PassState::lights`]).
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

impl PassState {
    /// The calls D3DX makes to apply this pass (or commit): states in pass order, then each
    /// light and the material a state changed, then the shader constants, vertex before
    /// pixel, float, int, bool.
    pub fn device_calls(&self) -> Vec<DeviceCall> {
        let mut calls = Vec::new();
        for state in &self.states {
            push_state(&mut calls, state);
        }
        calls.extend(self.lights.iter().map(|&(index, light)| DeviceCall::SetLight { index, light }));
        calls.extend(self.material.map(|material| DeviceCall::SetMaterial { material }));
        push_constants(&mut calls, &self.vertex_constants, true);
        push_constants(&mut calls, &self.pixel_constants, false);
        calls
    }
}

fn words(value: &StateValue) -> Vec<u32> {
    match value {
        StateValue::Words { words, .. } => words.clone(),
        _ => Vec::new(),
    }
}

fn push_state(calls: &mut Vec<DeviceCall>, state: &AppliedState) {
    let first = state.value.dword().unwrap_or(0);
    let (index, code) = (state.index, state.code);
    let call = match state.class {
        StateClass::RenderState => DeviceCall::SetRenderState { state: code, value: first },
        StateClass::TextureStage => DeviceCall::SetTextureStageState { stage: index, state: code, value: first },
        StateClass::SamplerState => DeviceCall::SetSamplerState { sampler: index, state: code, value: first },
        StateClass::NPatchMode => DeviceCall::SetNPatchMode { segments: first },
        StateClass::Fvf => DeviceCall::SetFvf { fvf: first },
        StateClass::Transform => DeviceCall::SetTransform { state: code + index, matrix: words(&state.value) },
        StateClass::LightEnable => DeviceCall::LightEnable { index, enable: first != 0 },
        // Sent whole, from the pass's structs.
        StateClass::Light | StateClass::Material => return,
        StateClass::VertexShader | StateClass::PixelShader => {
            let StateValue::Shader { object } = state.value else { return };
            match state.class {
                StateClass::VertexShader => DeviceCall::SetVertexShader { object },
                _ => DeviceCall::SetPixelShader { object },
            }
        }
        StateClass::ShaderConstant => {
            DeviceCall::SetShaderConstant { file: constant_file(code), first: index, words: words(&state.value) }
        }
        StateClass::Texture => {
            let StateValue::Texture { parameter } = state.value else { return };
            DeviceCall::SetTexture { stage: index, texture: parameter }
        }
        StateClass::Sampler => {
            let StateValue::Sampler { states } = &state.value else { return };
            for inner in states {
                // A sampler parameter's states apply to the sampler the state names.
                push_state(calls, &AppliedState { index, ..inner.clone() });
            }
            return;
        }
    };
    calls.push(call);
}

/// One call per run of consecutive registers.
fn push_constants(calls: &mut Vec<DeviceCall>, c: &Constants, vertex: bool) {
    use ShaderConstantFile::*;
    let (f, i, b) = if vertex { (VsFloat, VsInt, VsBool) } else { (PsFloat, PsInt, PsBool) };
    push_runs(calls, f, c.float.iter().map(|(r, v)| (*r, v.to_vec())));
    push_runs(calls, i, c.int.iter().map(|(r, v)| (*r, v.map(|x| x as u32).to_vec())));
    push_runs(calls, b, c.bool.iter().map(|(r, v)| (*r, vec![*v as u32])));
}

fn push_runs(calls: &mut Vec<DeviceCall>, file: ShaderConstantFile, registers: impl Iterator<Item = (u32, Vec<u32>)>) {
    let mut registers: Vec<(u32, Vec<u32>)> = registers.collect();
    registers.sort_by_key(|r| r.0);
    let mut run: Option<(u32, u32, Vec<u32>)> = None;
    for (r, v) in registers {
        match &mut run {
            Some((_, next, words)) if *next == r => {
                words.extend(v);
                *next += 1;
            }
            _ => {
                if let Some((first, _, words)) = run.take() {
                    calls.push(DeviceCall::SetShaderConstant { file, first, words });
                }
                run = Some((r, r + 1, v));
            }
        }
    }
    if let Some((first, _, words)) = run {
        calls.push(DeviceCall::SetShaderConstant { file, first, words });
    }
}
