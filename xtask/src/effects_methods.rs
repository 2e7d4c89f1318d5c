//! `[[method]]` records (this project's, `shaders/effects`): a sequence of ID3DXEffect calls on
//! one fresh run-time, each step an `op` — `BeginParameterBlock`, `EndParameterBlock`,
//! `ApplyParameterBlock` (the block last ended), `SetFloat` (`param`, `f32`), `SetRawValue`
//! (`param`, `offset`, `f32` written as little-endian bytes), `SetMatrix`/`SetMatrixTranspose`
//! (`param`, 16 `f32`), `SetMatrixTransposeArray` (`param`, 16 `f32` per matrix),
//! `SetArrayRange` (`param`, `start`, `end`), `FindNextValidTechnique` (`after`, `found`, `""` =
//! none) — or a read, `GetValue` (`param`, `f32` compared bit for bit with the stored words),
//! `GetMatrixTranspose` (`param`, 16 `f32`), `GetMatrixTransposeArray` (`param`, `count`, 16
//! `f32` per matrix), `GetInt` (`param`, `int` as 8 hex digits). A step with `result =
//! "D3DERR_INVALIDCALL"` expects the call to be refused.

use d3d9_shader::effect::runtime::{EffectRuntime, ParameterBlock};
use d3d9_shader::effect::{Effect, Handle};

type Record = toml::Table;

fn floats(step: &Record) -> Vec<f32> {
    step.get("f32").and_then(crate::effects_checks::floats).unwrap_or_default()
}

fn matrices(step: &Record) -> Result<Vec<[f32; 16]>, String> {
    let f = floats(step);
    if !f.len().is_multiple_of(16) {
        return Err(format!("SetMatrixTransposeArray takes 16 floats a matrix, {} given", f.len()));
    }
    Ok(f.chunks_exact(16).map(|c| std::array::from_fn(|i| c[i])).collect())
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
        "SetMatrixTransposeArray" => rt.set_matrix_transpose_array(param(rt)?, &matrices(step)?),
        "SetArrayRange" => {
            let at = |k: &str| step.get(k).and_then(|v| v.as_integer()).unwrap_or(0) as u32;
            rt.set_array_range(param(rt)?, at("start"), at("end"))
        }
        "FindNextValidTechnique" => {
            let after = step.get("after").and_then(|v| v.as_str()).unwrap_or("");
            let after = if after.is_empty() { None } else { Some(effect.technique(after).ok_or("no technique")?) };
            let found = rt.find_next_valid_technique(after).map_or("", |t| effect.techniques[t].name.as_str());
            let want = step.get("found").and_then(|v| v.as_str()).unwrap_or("");
            return if found == want { Ok(()) } else { Err(format!("found {found:?}, expected {want:?}")) };
        }
        "GetValue" | "GetMatrixTranspose" | "GetMatrixTransposeArray" | "GetInt" => {
            return read(rt, op, param(rt)?, step)
        }
        other => return Err(format!("unknown op {other:?}")),
    };
    outcome(op, done.map_err(|e| e.to_string()), step)
}

/// Compares a call's success or refusal with the step's `result` (D3D_OK unless given).
fn outcome(op: &str, done: Result<(), String>, step: &Record) -> Result<(), String> {
    let want = step.get("result").and_then(|v| v.as_str()).unwrap_or("D3D_OK");
    match (done, want) {
        (Ok(()), "D3D_OK") | (Err(_), "D3DERR_INVALIDCALL") => Ok(()),
        (Ok(()), _) => Err(format!("{op} succeeded, expected {want}")),
        (Err(e), _) => Err(format!("{op}: {e}")),
    }
}

/// A read step: the words, matrices or int the call gives, compared bit for bit.
fn read(rt: &mut EffectRuntime, op: &str, h: Handle, step: &Record) -> Result<(), String> {
    let count = step.get("count").and_then(|v| v.as_integer()).unwrap_or(1) as usize;
    let got: Result<Vec<u32>, _> = match op {
        "GetValue" => Ok(rt.value(h).to_vec()),
        "GetMatrixTranspose" => rt.get_matrix_transpose(h).map(|m| m.iter().map(|f| f.to_bits()).collect()),
        "GetMatrixTransposeArray" => {
            rt.get_matrix_transpose_array(h, count).map(|ms| ms.iter().flatten().map(|f| f.to_bits()).collect())
        }
        _ => rt.get_int(h).map(|i| vec![i as u32]),
    };
    let got = match got {
        Ok(words) => words,
        Err(e) => return outcome(op, Err(e.to_string()), step),
    };
    outcome(op, Ok(()), step)?;
    let want: Vec<u32> = match step.get("int").and_then(|v| v.as_str()) {
        Some(hex) => vec![u32::from_str_radix(hex.trim_start_matches("0x"), 16).map_err(|e| e.to_string())?],
        None => floats(step).iter().map(|f| f.to_bits()).collect(),
    };
    if got == want {
        Ok(())
    } else {
        Err(format!("{op} {got:08x?}, expected {want:08x?}"))
    }
}
