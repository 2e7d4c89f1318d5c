//! One verdict per expectation record of a `NAME.expect.toml` (format: `docs/effects.md`).

use std::path::Path;

use d3d9_shader::effect::runtime::{EffectRuntime, PassState, StateValue};
use d3d9_shader::effect::{Effect, ParameterClass, ParameterType};

use crate::effects_setup::Step;

/// A record's verdict.
pub enum Outcome {
    Pass,
    Fail(String),
    /// Not an expectation (a top-level scalar key).
    NotARecord,
}

type Record = toml::Table;

fn get_str<'a>(r: &'a Record, key: &str) -> Option<&'a str> {
    r.get(key).and_then(|v| v.as_str())
}

fn get_int(r: &Record, key: &str) -> Option<i64> {
    r.get(key).and_then(|v| v.as_integer())
}

/// A `bits` list as words.
fn bits(r: &Record) -> Option<Vec<u32>> {
    r.get("bits")?.as_array()?.iter().map(|v| u32::from_str_radix(v.as_str()?, 16).ok()).collect()
}

/// An `f32` list (or single float) as floats.
pub fn floats(v: &toml::Value) -> Option<Vec<f32>> {
    match v {
        toml::Value::Array(a) => a.iter().map(as_f32).collect(),
        other => as_f32(other).map(|f| vec![f]),
    }
}

fn as_f32(v: &toml::Value) -> Option<f32> {
    match v {
        toml::Value::Float(f) => Some(*f as f32),
        toml::Value::Integer(i) => Some(*i as f32),
        _ => None,
    }
}

/// Distance in float ulps between two bit patterns (NaNs equal when both NaN).
pub fn ulps(a: u32, b: u32) -> u64 {
    let fa = f32::from_bits(a);
    let fb = f32::from_bits(b);
    if fa.is_nan() && fb.is_nan() {
        return 0;
    }
    let key = |w: u32| if w & 0x8000_0000 != 0 { -((w & 0x7fff_ffff) as i64) } else { w as i64 };
    (key(a) - key(b)).unsigned_abs()
}

/// `setup`: the steps `effects_setup.rs` gives the record (its prose `context`); `dir`: the
/// folder of the effect, where the setup finds other effects it creates.
pub fn check_record(effect: &Effect, bytes: &[u8], kind: &str, r: &Record, setup: &[Step], dir: &Path) -> Outcome {
    let verdict = match kind {
        "effect" => check_effect(effect, r),
        "create" => check_create(effect, r),
        "parameter" => check_parameter(effect, bytes, r),
        "lookup" => crate::effects_lookup::check_lookup(effect, r),
        "value" => check_value(effect, r, setup, dir),
        "technique" => check_technique(effect, r),
        "preshader_case" => check_preshader_case(effect, r),
        "used" => crate::effects_lookup::check_used(effect, r, setup),
        "method" => crate::effects_methods::check(effect, r),
        "scenario" | "validate" | "find_next_valid" | "pass_desc" => {
            crate::effects_scenario::check(effect, bytes, kind, r)
        }
        _ => return Outcome::NotARecord,
    };
    match verdict {
        Ok(()) => Outcome::Pass,
        Err(e) => Outcome::Fail(e),
    }
}

fn expect_eq<T: PartialEq + std::fmt::Debug>(what: &str, got: T, want: T) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("{what}: got {got:?}, expected {want:?}"))
    }
}

fn check_effect(effect: &Effect, r: &Record) -> Result<(), String> {
    match get_int(r, "parameters") {
        Some(n) => expect_eq("parameters", effect.parameters.len() as i64, n),
        None => Ok(()),
    }
}

/// Creation: the blob parses (it did, or there would be no effect); a skip list must name
/// parameters bound to registers.
fn check_create(effect: &Effect, r: &Record) -> Result<(), String> {
    let want = get_str(r, "result").unwrap_or("D3D_OK");
    let got = match get_str(r, "skip_constants") {
        Some(list) => crate::effects_lookup::skip_result(effect, list),
        None => "D3D_OK",
    };
    expect_eq("result", got, want)
}

fn check_technique(effect: &Effect, r: &Record) -> Result<(), String> {
    let index = get_int(r, "index").unwrap_or(0) as usize;
    let t = effect.techniques.get(index).ok_or(format!("no technique {index}"))?;
    expect_eq("passes", t.passes.len() as i64, get_int(r, "passes").unwrap_or(-1))
}

fn check_parameter(effect: &Effect, bytes: &[u8], r: &Record) -> Result<(), String> {
    let name = get_str(r, "name").unwrap_or("");
    let p = effect.parameters.iter().find(|p| p.name == name).ok_or(format!("no parameter {name:?}"))?;
    expect_eq("semantic", p.semantic.as_str(), get_str(r, "semantic").unwrap_or(""))?;
    expect_eq("class", p.class.name(), get_str(r, "class").unwrap_or(""))?;
    expect_eq("type", p.ty.name(), get_str(r, "type").unwrap_or(""))?;
    for (key, got) in [
        ("rows", p.rows as i64),
        ("columns", p.columns as i64),
        ("elements", p.elements as i64),
        ("annotations", p.annotations.len() as i64),
        ("struct_members", p.struct_members() as i64),
        ("flags", p.flags as i64),
    ] {
        if let Some(want) = get_int(r, key) {
            expect_eq(key, got, want)?;
        }
    }
    if let Some(want) = get_int(r, "bytes") {
        expect_eq("bytes", p.bytes(4) as i64, want)?;
    }
    if let Some(want) = get_int(r, "bytes_pointers") {
        expect_eq("bytes (pointers)", p.bytes(1) as i64, want)?;
    }
    if let Some(words) = r.get("default").and_then(|v| v.as_array()) {
        let want: Vec<u32> = words.iter().filter_map(|w| u32::from_str_radix(w.as_str()?, 16).ok()).collect();
        expect_eq("default", &p.value, &want)?;
        if let Some(at) = get_int(r, "default_dword") {
            expect_eq("default's word index", p.value_offset as i64 / 4, at)?;
            let _ = bytes;
        }
    }
    if let Some(want) = r.get("get_int") {
        let mut rt = EffectRuntime::new(effect);
        let h = rt.handle(name).map_err(|e| e.to_string())?;
        let got = rt.get_int(h).map_or("D3DERR_INVALIDCALL".to_string(), |v| format!("{:08x}", v as u32));
        let want = want.as_str().unwrap_or("");
        let want =
            if want.starts_with("D3D") { want.to_string() } else { want.trim_start_matches("0x").to_lowercase() };
        expect_eq("GetInt", got.as_str(), want.as_str())?;
    }
    Ok(())
}

fn check_value(effect: &Effect, r: &Record, setup: &[Step], dir: &Path) -> Result<(), String> {
    let name = get_str(r, "name").unwrap_or("");
    let mut rt = crate::effects_setup::runtime(effect, setup, dir)?;
    let h = rt.handle(name).map_err(|e| e.to_string())?;
    let words = rt.value(h).to_vec();
    let words = &words[..];
    let node = rt.store.node(h);
    match get_str(r, "call").unwrap_or("") {
        "GetString" => {
            let text = rt.get_string(h).map_err(|e| e.to_string())?;
            expect_eq("string", text.as_str(), get_str(r, "string").unwrap_or(""))
        }
        call => {
            let as_float = |w: u32| d3d9_shader::effect::runtime::convert_word(w, node.ty, ParameterType::Float);
            let got: Vec<u32> = match call {
                "GetMatrix" => matrix_of(node.class, node.rows, node.columns, words),
                "GetFloat" => words.iter().take(1).map(|&w| as_float(w)).collect(),
                "GetFloatArray" => {
                    words.iter().take(get_int(r, "count").unwrap_or(1) as usize).map(|&w| as_float(w)).collect()
                }
                _ => words.to_vec(),
            };
            let ints = r.get("i32").and_then(|v| v.as_array());
            let want: Vec<u32> = match (bits(r), ints) {
                (Some(b), _) => b,
                // GetValue of an int parameter: its words as signed ints.
                (None, Some(i)) => {
                    i.iter().map(|v| v.as_integer().map(|i| i as i32 as u32)).collect::<Option<_>>().ok_or("bad i32")?
                }
                (None, None) => {
                    floats(r.get("f32").ok_or("no f32")?).ok_or("bad f32")?.iter().map(|f| f.to_bits()).collect()
                }
            };
            expect_eq("value", got, want)
        }
    }
}

/// GetMatrix: 16 floats in D3DXMATRIX memory order; a parameter's rows × columns values go to
/// the top-left cells (its storage is row-major for both classes), the rest is 0.
fn matrix_of(_class: ParameterClass, rows: u32, columns: u32, words: &[u32]) -> Vec<u32> {
    let mut m = vec![0u32; 16];
    for i in 0..rows.min(4) as usize {
        for j in 0..columns.min(4) as usize {
            if let Some(&w) = words.get(i * columns as usize + j) {
                m[i * 4 + j] = w;
            }
        }
    }
    m
}

/// A state name as the records write it: `LightSpecular[1]` or `FOGDENSITY`.
pub fn split_state(name: &str) -> (&str, u32) {
    match name.split_once('[') {
        Some((n, i)) => (n, i.trim_end_matches(']').parse().unwrap_or(0)),
        None => (name, 0),
    }
}

/// The words a pass set for a state.
pub fn state_words(pass: &PassState, name: &str, index: u32) -> Option<Vec<u32>> {
    pass.states.iter().rev().find(|s| s.name.eq_ignore_ascii_case(name) && s.index == index).and_then(|s| {
        match &s.value {
            StateValue::Words { words, .. } => Some(words.clone()),
            _ => None,
        }
    })
}

/// Sets the record's `inputs` (SetVector of four floats each).
pub fn set_inputs(rt: &mut EffectRuntime, inputs: Option<&toml::Value>) -> Result<(), String> {
    let Some(table) = inputs.and_then(|v| v.as_table()) else { return Ok(()) };
    for (name, v) in table {
        let values = floats(v).ok_or(format!("input {name}: not floats"))?;
        let h = rt.handle(name).map_err(|e| e.to_string())?;
        rt.set_floats(h, &values).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Compares words against a record's `bits` (`components`, `ulps`).
pub fn compare_bits(got: &[u32], r: &Record) -> Result<(), String> {
    let want = bits(r).ok_or("no bits")?;
    let components: Vec<usize> = match r.get("components").and_then(|v| v.as_array()) {
        Some(c) => c.iter().filter_map(|v| v.as_integer().map(|i| i as usize)).collect(),
        None => (0..want.len()).collect(),
    };
    let allowed = get_int(r, "ulps").unwrap_or(0) as u64;
    for (k, &c) in components.iter().enumerate() {
        let g = *got.get(c).ok_or(format!("component {c} missing (got {} words)", got.len()))?;
        let w = want[k];
        if ulps(g, w) > allowed {
            return Err(format!(
                "component {c}: got {g:08x} ({}), expected {w:08x} ({}){}",
                f32::from_bits(g),
                f32::from_bits(w),
                if allowed > 0 { format!(" within {allowed} ulps") } else { String::new() }
            ));
        }
    }
    Ok(())
}

fn check_preshader_case(effect: &Effect, r: &Record) -> Result<(), String> {
    let mut rt = EffectRuntime::new(effect);
    let technique = get_str(r, "technique").unwrap_or("");
    let t = effect.technique(technique).ok_or(format!("no technique {technique:?}"))?;
    rt.set_technique(t).map_err(|e| e.to_string())?;
    let pass = get_int(r, "pass").unwrap_or(0) as usize;
    let (name, index) = split_state(get_str(r, "state").unwrap_or(""));
    rt.begin().map_err(|e| e.to_string())?;
    let words = if get_str(r, "applied_by") == Some("CommitChanges") {
        let first = rt.begin_pass(pass).map_err(|e| e.to_string())?;
        set_inputs(&mut rt, r.get("inputs"))?;
        let changed = rt.commit().map_err(|e| e.to_string())?;
        state_words(&changed, name, index).or_else(|| state_words(&first, name, index))
    } else {
        set_inputs(&mut rt, r.get("inputs"))?;
        let applied = rt.begin_pass(pass).map_err(|e| e.to_string())?;
        state_words(&applied, name, index)
    };
    let words = words.ok_or(format!("the pass sets no {name}[{index}]"))?;
    compare_bits(&words, r)
}
