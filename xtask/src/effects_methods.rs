//! `[[method]]` records (this project's, `shaders/effects`): a sequence of ID3DXEffect calls on
//! one fresh run-time, each step an `op` — `BeginParameterBlock`, `EndParameterBlock`,
//! `ApplyParameterBlock` (the block last ended), `SetFloat` (`param`, `f32`), `SetRawValue`
//! (`param`, `offset`, `f32` written as little-endian bytes), `SetMatrix`/`SetMatrixTranspose`
//! (`param`, 16 `f32`), `FindNextValidTechnique` (`after`, `found`, `""` = none) — or a read,
//! `GetValue` (`param`, `f32` compared bit for bit with the stored words).

use d3d9_shader::effect::runtime::{EffectRuntime, ParameterBlock};
use d3d9_shader::effect::Effect;

type Record = toml::Table;

fn floats(step: &Record) -> Vec<f32> {
    step.get("f32").and_then(crate::effects_checks::floats).unwrap_or_default()
}

fn matrix(step: &Record) -> Result<[f32; 16], String> {
    floats(step).try_into().map_err(|v: Vec<f32>| format!("SetMatrix takes 16 floats, {} given", v.len()))
}

/// Runs the record's steps; the first step that fails or reads another value fails it.
pub fn check(effect: &Effect, r: &Record) -> Result<(), String> {
    let mut rt = EffectRuntime::new(effect);
    let mut block = ParameterBlock::default();
    let steps = r.get("step").and_then(|v| v.as_array()).cloned().unwrap_or_default();
    for (i, step) in steps.iter().filter_map(|s| s.as_table()).enumerate() {
        step_once(effect, &mut rt, &mut block, step).map_err(|e| format!("step {i}: {e}"))?;
    }
    Ok(())
}

fn step_once(effect: &Effect, rt: &mut EffectRuntime, block: &mut ParameterBlock, step: &Record) -> Result<(), String> {
    let op = step.get("op").and_then(|v| v.as_str()).unwrap_or("");
    let name = step.get("param").and_then(|v| v.as_str()).unwrap_or("");
    let param = |rt: &EffectRuntime| rt.handle(name).map_err(|e| e.to_string());
    let done = match op {
        "BeginParameterBlock" => rt.begin_parameter_block(),
        "EndParameterBlock" => rt.end_parameter_block().map(|b| *block = b),
        "ApplyParameterBlock" => rt.apply_parameter_block(block),
        "SetFloat" => rt.set_float(param(rt)?, floats(step).first().copied().unwrap_or(0.0)),
        "SetRawValue" => {
            let offset = step.get("offset").and_then(|v| v.as_integer()).unwrap_or(0) as usize;
            let bytes: Vec<u8> = floats(step).iter().flat_map(|f| f.to_le_bytes()).collect();
            rt.set_raw_value(param(rt)?, offset, &bytes)
        }
        "SetMatrix" => rt.set_matrix(param(rt)?, &matrix(step)?),
        "SetMatrixTranspose" => rt.set_matrix_transpose(param(rt)?, &matrix(step)?),
        "FindNextValidTechnique" => {
            let after = step.get("after").and_then(|v| v.as_str()).unwrap_or("");
            let after = if after.is_empty() { None } else { Some(effect.technique(after).ok_or("no technique")?) };
            let found = rt.find_next_valid_technique(after).map_or("", |t| effect.techniques[t].name.as_str());
            let want = step.get("found").and_then(|v| v.as_str()).unwrap_or("");
            return if found == want { Ok(()) } else { Err(format!("found {found:?}, expected {want:?}")) };
        }
        "GetValue" => {
            let h = param(rt)?;
            let got = rt.value(h).to_vec();
            let want: Vec<u32> = floats(step).iter().map(|f| f.to_bits()).collect();
            return if got == want { Ok(()) } else { Err(format!("GetValue {got:08x?}, expected {want:08x?}")) };
        }
        other => return Err(format!("unknown op {other:?}")),
    };
    done.map_err(|e| format!("{op}: {e}"))
}
