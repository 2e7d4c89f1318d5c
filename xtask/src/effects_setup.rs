//! Setup that an expectation record gives only as prose in its `context`, as typed steps the
//! runner performs before the record's check. The shared data is read-only, so the steps are
//! keyed here by effect and record (`kind[index]`), each entry quoting the prose it encodes.

use d3d9_shader::effect::runtime::{EffectRuntime, RuntimeError};
use d3d9_shader::effect::Effect;

/// One setup step.
#[derive(Clone, Copy, Debug)]
pub enum Step {
    /// D3DXCreateEffectEx with this skip list (instead of D3DXCreateEffect).
    SkipConstants(&'static str),
    /// SetFloat.
    SetFloat(&'static str, f32),
    /// SetString.
    SetString(&'static str, &'static str),
    /// SetValue of ints (the parameter's own storage).
    SetInts(&'static str, &'static [i32]),
    /// CloneEffect: the record is read on a copy carrying every value set so far.
    Clone,
}

/// (effect, record, the `context` prose, the steps).
pub const SETUP: &[(&str, &str, &str, &[Step])] = &[
    ("wine_clone", "used[0]", "created with skip_constants = \"skipped\"", &[Step::SkipConstants("skipped")]),
    (
        "wine_clone",
        "value[0]",
        "SetFloat(f, 123) then CloneEffect; read on the clone",
        &[Step::SetFloat("f", 123.0), Step::Clone],
    ),
    (
        "wine_clone",
        "value[1]",
        "SetString(s) then CloneEffect; read on the clone",
        // The prose names no text; the record's `string` is what the test set.
        &[Step::SetString("s", "tiny silver hammers"), Step::Clone],
    ),
    (
        "wine_clone",
        "value[2]",
        "SetFloat(f@a, 4) then CloneEffect; read on the clone",
        &[Step::SetFloat("f@a", 4.0), Step::Clone],
    ),
    (
        "wine_preshader",
        "value[6]",
        "created with D3DXFX_LARGEADDRESSAWARE; SetValue(handle, {28,29,30,31}) first",
        // D3DXFX_LARGEADDRESSAWARE changes only how handles are given out, not values.
        &[Step::SetInts("g_iVect", &[28, 29, 30, 31])],
    ),
];

/// The setup steps of a record (none for most).
pub fn steps(effect: &str, record: &str) -> &'static [Step] {
    SETUP.iter().find(|s| s.0 == effect && s.1 == record).map_or(&[], |s| s.3)
}

/// The skip list the steps create the effect with, if any.
pub fn skip_list(steps: &[Step]) -> Option<&'static str> {
    steps.iter().find_map(|s| match s {
        Step::SkipConstants(list) => Some(*list),
        _ => None,
    })
}

/// A runtime after the steps: created (with the skip list, if any), values set, cloned.
pub fn runtime<'e>(effect: &'e Effect, steps: &[Step]) -> Result<EffectRuntime<'e>, String> {
    let mut rt = match skip_list(steps) {
        Some(list) => EffectRuntime::with_skip_constants(effect, list).map_err(|e| e.to_string())?,
        None => EffectRuntime::new(effect),
    };
    for step in steps {
        let done: Result<(), RuntimeError> = match *step {
            Step::SkipConstants(_) => Ok(()),
            Step::SetFloat(name, v) => rt.handle(name).and_then(|h| rt.set_floats(h, &[v])),
            Step::SetString(name, text) => rt.handle(name).and_then(|h| rt.set_string(h, text)),
            Step::SetInts(name, v) => {
                let words: Vec<u32> = v.iter().map(|&i| i as u32).collect();
                rt.handle(name).and_then(|h| rt.set_value(h, &words))
            }
            Step::Clone => {
                rt = rt.clone();
                Ok(())
            }
        };
        done.map_err(|e| format!("setup {step:?}: {e}"))?;
    }
    Ok(rt)
}
