//! What a pass sets, as the calls D3DX makes to apply it: one call per method of
//! ID3DXEffectStateManager (or of the device when no manager is set). The grouping is D3DX's
//! (docs/effects.md#device-calls): a light's member states become one `SetLight` of the whole
//! D3DLIGHT9 the pass keeps, a material's one `SetMaterial`, a sampler parameter's states one
//! `SetSamplerState` each plus `SetTexture` for its texture, and the shader constants one
//! `Set*ShaderConstant*` per run of consecutive registers of a register file.

use super::device_call::{DeviceCall, StateManager};
use super::{AppliedState, Constants, PassState, StateValue};
use crate::effect::states::{constant_file, ShaderConstantFile, StateClass};

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

impl PassState {
    /// Delivers what this pass (or commit) sets to `manager`, call by call, as D3DX does with a
    /// state manager set (docs/effects.md#device-calls).
    pub fn deliver(&self, manager: &mut dyn StateManager) {
        self.device_calls().iter().for_each(|c| manager.call(c));
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
