//! Techniques and passes: names, annotations and the state assignments of each pass.

use serde::Serialize;

use super::error::EffectError;
use super::parameters::State;
use super::parameters::{read_annotations, read_state, Budget, Parameter};
use super::reader::Reader;

/// A technique.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Technique {
    /// Its name.
    pub name: String,
    /// Its annotations.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub annotations: Vec<Parameter>,
    /// Its passes.
    pub passes: Vec<Pass>,
}

/// A pass.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pass {
    /// Its name.
    pub name: String,
    /// Its annotations.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub annotations: Vec<Parameter>,
    /// Its state assignments, in blob order.
    pub states: Vec<State>,
}

/// A technique at the cursor: name offset, annotation count, pass count, annotations, passes.
pub(crate) fn read_technique(r: &mut Reader, budget: &Budget) -> Result<Technique, EffectError> {
    let name_offset = r.u32("technique name offset")?;
    let name = r.string_at(name_offset, "technique name")?;
    let annotation_count = r.count("technique annotation", 8)?;
    let pass_count = r.count("pass", 12)?;
    let annotations = read_annotations(r, annotation_count, budget)?;
    let mut passes = Vec::with_capacity(pass_count);
    for _ in 0..pass_count {
        passes.push(read_pass(r, budget)?);
    }
    Ok(Technique { name, annotations, passes })
}

fn read_pass(r: &mut Reader, budget: &Budget) -> Result<Pass, EffectError> {
    let name_offset = r.u32("pass name offset")?;
    let name = r.string_at(name_offset, "pass name")?;
    let annotation_count = r.count("pass annotation", 8)?;
    let state_count = r.count("pass state", 16)?;
    let annotations = read_annotations(r, annotation_count, budget)?;
    let mut states = Vec::with_capacity(state_count);
    for _ in 0..state_count {
        states.push(read_state(r, budget, 0)?);
    }
    Ok(Pass { name, annotations, states })
}
