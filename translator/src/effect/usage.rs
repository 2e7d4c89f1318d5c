//! IsParameterUsed: the top-level parameters a technique reads. The walk follows what D3DX
//! follows (`docs/effects.md`, "Parameter usage"): the parameters its states name (references,
//! array selectors and the arrays they select from, preshader inputs), the constant tables and
//! preshaders of the shaders those states can bind, and the states of every sampler reached —
//! through a `Sampler` state, or through a sampler register a shader's constant table names —
//! whose Texture state makes the texture parameter used and whose preshaders read their inputs
//! (wine_preshader `used[9]` vect_sampler, `used[10]` tex1).

use std::collections::BTreeSet;

use super::parameters::Parameter;
use super::parameters::{State, StateSource};
use super::{Effect, ObjectKind};

/// The top-level name of a D3DX full name (`a` of `a[1].b`).
fn top(name: &str) -> &str {
    name.split(['.', '[', '@']).next().unwrap_or("")
}

/// A walk over one technique.
struct Walk<'e> {
    effect: &'e Effect,
    used: BTreeSet<String>,
    /// Shader objects reached, walked once each.
    shaders: Vec<usize>,
    /// Sampler parameters whose states were walked.
    samplers: BTreeSet<String>,
    /// D3DXCreateEffectEx's skip list: constants the effect does not set, so a shader's
    /// constant table does not make them used (wine_clone `used[0]`).
    skipped: &'e BTreeSet<String>,
}

impl<'e> Walk<'e> {
    fn parameter(&self, name: &str) -> Option<&'e Parameter> {
        self.effect.parameters.iter().find(|p| p.name == top(name))
    }

    /// Marks a parameter used and follows what it leads to: the shaders a shader parameter (or
    /// array) holds, the states of a sampler parameter.
    fn reach(&mut self, name: &str) {
        self.used.insert(top(name).to_string());
        let Some(p) = self.parameter(name) else { return };
        if p.ty.is_shader() {
            // An array's value holds its elements' object ids one after another.
            self.shaders.extend(p.value.iter().map(|&id| id as usize));
        } else if p.ty.is_sampler() && self.samplers.insert(p.name.clone()) {
            let states: Vec<&'e State> = if p.element_list.is_empty() {
                p.sampler_states.iter().collect()
            } else {
                p.element_list.iter().flat_map(|e| &e.sampler_states).collect()
            };
            states.into_iter().for_each(|s| self.state(s));
        }
    }

    fn state(&mut self, state: &'e State) {
        match &state.source {
            StateSource::Constant => {
                if state.value.ty.is_shader() {
                    self.shaders.extend(state.value.value.iter().map(|&id| id as usize));
                }
                // An inline `sampler_state { … }` block: its own states.
                state.value.sampler_states.iter().for_each(|s| self.state(s));
            }
            StateSource::Parameter { name } => self.reach(name),
            StateSource::Expression { preshader } => {
                preshader.inputs.iter().for_each(|c| self.reach(&c.name));
            }
            StateSource::ArraySelector { name, preshader } => {
                self.reach(name);
                preshader.inputs.iter().for_each(|c| self.reach(&c.name));
            }
        }
    }

    /// Every shader reached: the parameters its constant table and preshader read, and the
    /// samplers its sampler registers name.
    fn shaders(&mut self) {
        let mut done = BTreeSet::new();
        while let Some(id) = self.shaders.pop() {
            if !done.insert(id) {
                continue;
            }
            let Some(ObjectKind::Shader(s)) = self.effect.objects.get(id).map(|o| &o.kind) else { continue };
            let names: Vec<String> = s
                .constants
                .iter()
                .flat_map(|t| &t.constants)
                .filter(|c| !self.skipped.contains(&c.name))
                .chain(s.preshader.iter().flat_map(|p| &p.inputs))
                .map(|c| c.name.clone())
                .collect();
            names.iter().for_each(|n| self.reach(n));
        }
    }
}

impl Effect {
    /// The names of the top-level parameters technique `technique` uses (IsParameterUsed of a
    /// top-level parameter; elements and members always report FALSE on Windows). Empty for a
    /// technique that does not exist.
    pub fn used_parameters(&self, technique: usize) -> BTreeSet<String> {
        self.used_parameters_skipping(technique, &BTreeSet::new())
    }

    /// [`Effect::used_parameters`] of an effect created with a skip list (the names of
    /// [`Effect::skip_constants`]).
    pub fn used_parameters_skipping(&self, technique: usize, skipped: &BTreeSet<String>) -> BTreeSet<String> {
        let mut walk =
            Walk { effect: self, used: BTreeSet::new(), shaders: Vec::new(), samplers: BTreeSet::new(), skipped };
        for pass in self.techniques.get(technique).iter().flat_map(|t| &t.passes) {
            pass.states.iter().for_each(|s| walk.state(s));
        }
        walk.shaders();
        walk.used
    }
}
