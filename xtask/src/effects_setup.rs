//! Setup that an expectation record gives only as prose in its `context`, as typed steps the
//! runner performs before the record's check. The shared data is read-only, so the steps are
//! keyed here by effect and record (`kind[index]`), each entry quoting the prose it encodes.

use std::path::Path;

use d3d9_shader::effect::runtime::{EffectRuntime, RuntimeError};
use d3d9_shader::effect::{Effect, EffectPool};

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
    /// The record's effect is created (again) into the setup's effect pool.
    InPool,
    /// Another effect is created into the pool, from the named effect of the same folder (or
    /// the record's own blob), and SetFloat is called on it.
    Partner(Option<&'static str>, &'static str, f32),
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
    (
        "wine_shared_parameters",
        "value[0]",
        "same pool holds wine_preshader effects (their arr2 is float[2], a different shared parameter) that set \
         their arr2[0]",
        // Created before this effect, as in the test (effect.c:6560-6597); the prose names no
        // value, so any other than this effect's default 0 shows the two are not shared.
        &[Step::Partner(Some("wine_preshader"), "arr2[0]", 3.0), Step::InPool],
    ),
    (
        "wine_shared_parameters",
        "value[1]",
        "a second wine_shared_parameters effect in the same pool set arr2[0] = 28 (shared between the two)",
        &[Step::InPool, Step::Partner(None, "arr2[0]", 28.0)],
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

/// A runtime after the steps: created (with the skip list, if any), values set, cloned, and
/// other effects of `dir` created into its pool.
pub fn runtime<'e>(effect: &'e Effect, steps: &[Step], dir: &Path) -> Result<EffectRuntime<'e>, String> {
    let pool = EffectPool::new();
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
            Step::InPool => {
                rt = EffectRuntime::in_pool(effect, &pool);
                Ok(())
            }
            Step::Partner(blob, name, v) => {
                let other = match blob {
                    Some(blob) => {
                        let bytes = crate::effects::read_hex(&dir.join(format!("{blob}.fx.hex")))?;
                        Effect::parse(&bytes).map_err(|e| format!("{blob}: {e}"))?
                    }
                    None => effect.clone(),
                };
                let mut partner = EffectRuntime::in_pool(&other, &pool);
                partner.handle(name).and_then(|h| partner.set_float(h, v))
            }
        };
        done.map_err(|e| format!("setup {step:?}: {e}"))?;
    }
    Ok(rt)
}
