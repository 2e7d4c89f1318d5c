//! The run-time part a layer or an engine needs: set parameters (by name, semantic or handle),
//! pick a technique, begin a pass, and get what the pass sets — its states as typed values named
//! after their D3D9 states, the shader pair, and the constants to upload per register file, with
//! every preshader evaluated. [`EffectRuntime::commit`] recomputes only what depends on
//! parameters changed since the last evaluation.

use std::collections::HashMap;

use serde::Serialize;

use super::evaluate::{f32_to_i32, plan, upload, Registers, Target, Upload};
use super::parameters::{State, StateSource};
use super::pool::EffectPool;
use super::preshader::{Preshader, Table};
use super::states::{constant_file, ShaderConstantFile, StateClass, LIGHT_WORDS, MATERIAL_WORDS};
use super::store::{Handle, Store};
use super::types::{ParameterClass, ParameterType};
use super::values::{constant_registers, device_word, evaluate_once, expression_words, is_dword_state};
pub use super::values::{convert_word, d3dcolor};
use super::{Effect, ObjectKind};
pub use device_call::{DeviceCall, StateManager};
pub use error::RuntimeError;
pub use parameter_block::ParameterBlock;
pub use pass_shaders::PassDesc;

mod blocks;
mod device_call;
mod device_calls;
mod error;
mod get_int;
mod handles;
mod lights;
mod matrices;
mod parameter_block;
mod pass_desc;
mod pass_shaders;
mod pool_link;
mod setters;
mod shared;
mod skipping;
mod strings;
mod validate;

/// A state's value as the device takes it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StateValue {
    /// Words: one DWORD for render, texture-stage and sampler states (a float-typed value as its
    /// bits), 16 floats for a transform, 4 for a colour, n × 4 for constants.
    Words {
        /// The storage type of the words.
        #[serde(rename = "type")]
        ty: ParameterType,
        /// The words.
        words: Vec<u32>,
    },
    /// A shader: the object id, `None` for NULL.
    Shader {
        /// The object id.
        object: Option<usize>,
    },
    /// A texture: the texture parameter that supplies it, `None` for NULL.
    Texture {
        /// The parameter.
        parameter: Option<Handle>,
    },
    /// A sampler: its states.
    Sampler {
        /// The sampler states.
        states: Vec<AppliedState>,
    },
}

impl StateValue {
    /// The first word (for one-DWORD states).
    pub fn dword(&self) -> Option<u32> {
        match self {
            StateValue::Words { words, .. } => words.first().copied(),
            _ => None,
        }
    }
}

/// One state a pass sets.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AppliedState {
    /// Its name in the effect file (`BLENDOP`, `LightDiffuse`, `MipFilter`).
    pub name: &'static str,
    /// What part of the device it sets.
    pub class: StateClass,
    /// The D3D9 enumerant (D3DRS_*, D3DTSS_*, D3DSAMP_*, D3DTS_*, light member).
    pub code: u32,
    /// The index (light, stage, sampler, first register, world matrix).
    pub index: u32,
    /// The value.
    pub value: StateValue,
}

/// Constants of one stage, per register file, as (register, value) runs to upload.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Constants {
    /// Float registers: (register, four float bit patterns).
    pub float: Vec<(u32, [u32; 4])>,
    /// Int registers.
    pub int: Vec<(u32, [i32; 4])>,
    /// Bool registers.
    pub bool: Vec<(u32, bool)>,
}

/// What a pass sets (or, from [`EffectRuntime::commit`], what changed).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PassState {
    /// States, in pass order (shader states included).
    pub states: Vec<AppliedState>,
    /// The vertex shader's object id, when the pass sets one (`Some(None)` = NULL).
    pub vertex_shader: Option<Option<usize>>,
    /// The pixel shader's object id.
    pub pixel_shader: Option<Option<usize>>,
    /// Vertex shader constants from the shader's constant table and preshader.
    pub vertex_constants: Constants,
    /// Pixel shader constants.
    pub pixel_constants: Constants,
    /// The lights to send, each whole: D3DX keeps one D3DLIGHT9 per light, zeroed at
    /// BeginPass, writes the light states into it and sends every light a state changed
    /// (docs/effects.md#device-calls).
    pub lights: Vec<(u32, [u32; LIGHT_WORDS])>,
    /// The material to send whole, kept the same way, when a material state changed.
    pub material: Option<[u32; MATERIAL_WORDS]>,
    /// States that could not be applied (the pass call fails with the first, as on Windows,
    /// but every other state is applied).
    #[serde(skip)]
    pub errors: Vec<RuntimeError>,
}

/// A cached evaluator: the parameters it reads, and the version it last saw.
#[derive(Clone, Debug)]
struct Evaluator {
    inputs: Vec<Handle>,
    uploads: Vec<Upload>,
    shader_uploads: Vec<Upload>,
    registers: Registers,
    seen: u64,
    /// An array selector's last element in range.
    selected: Option<u32>,
    /// An array selector's last computed index, in range or not (what GetPassDesc reads while
    /// no input changed; `runtime/pass_desc.rs`).
    last: Option<u32>,
}

/// An effect being used: parameter values, the current technique and pass.
#[derive(Clone)]
pub struct EffectRuntime<'e> {
    effect: &'e Effect,
    /// Parameter values. In a pool these are as of the last call into the runtime;
    /// [`value`](Self::value) also reads what other effects of the pool set since.
    pub store: Store,
    versions: Vec<u64>,
    clock: u64,
    technique: usize,
    begun: bool,
    pass: Option<usize>,
    evaluators: HashMap<(usize, usize, usize, u8), Evaluator>,
    /// The shader object each shader state last bound, and whether it is a vertex shader.
    bound: HashMap<(usize, usize, usize, u8), (usize, bool)>,
    /// Strings set with SetString, by handle (the blob's string objects stay as read).
    strings: HashMap<Handle, String>,
    /// D3DXCreateEffectEx's skip list: shader constants the effect leaves to the application.
    skipped: std::collections::BTreeSet<String>,
    /// The pass's light and material structs since BeginPass.
    lights: std::collections::BTreeMap<u32, [u32; LIGHT_WORDS]>,
    material: [u32; MATERIAL_WORDS],
    /// The clock when the pass was last applied: a parameter set after it is dirty.
    applied_at: u64,
    /// The pool the effect was created into, if any.
    pool: Option<pool_link::PoolLink>,
    /// The parameter block being recorded (BeginParameterBlock … EndParameterBlock).
    recording: Option<ParameterBlock>,
}

impl<'e> EffectRuntime<'e> {
    /// A runtime with every parameter at its default value and the first technique current.
    pub fn new(effect: &'e Effect) -> EffectRuntime<'e> {
        EffectRuntime::create(effect, None)
    }

    /// D3DXCreateEffect into a pool: the effect's `shared` parameters share storage with those
    /// declared the same way by the pool's other effects; one the pool holds already keeps its
    /// current value.
    pub fn in_pool(effect: &'e Effect, pool: &EffectPool) -> EffectRuntime<'e> {
        EffectRuntime::create(effect, Some(pool))
    }

    fn create(effect: &'e Effect, pool: Option<&EffectPool>) -> EffectRuntime<'e> {
        let store = Store::new(&effect.parameters);
        let versions = vec![0; store.nodes.len()];
        let mut rt = EffectRuntime {
            effect,
            store,
            versions,
            clock: 1,
            technique: 0,
            begun: false,
            pass: None,
            evaluators: HashMap::new(),
            bound: HashMap::new(),
            strings: HashMap::new(),
            skipped: Default::default(),
            lights: Default::default(),
            material: [0; MATERIAL_WORDS],
            applied_at: 0,
            pool: None,
            recording: None,
        };
        if let Some(pool) = pool {
            rt.join_pool(pool);
        }
        rt.preselect();
        rt
    }

    /// A parameter, element, member or annotation by D3DX name (`s.m[1]`, `c@d`).
    pub fn handle(&self, name: &str) -> Result<Handle, RuntimeError> {
        self.store.lookup(None, name).ok_or_else(|| RuntimeError::NoSuchParameter(name.into()))
    }

    /// A top-level parameter by semantic.
    pub fn by_semantic(&self, semantic: &str) -> Option<Handle> {
        self.store.by_semantic(semantic)
    }

    /// Makes technique `index` current.
    pub fn set_technique(&mut self, index: usize) -> Result<(), RuntimeError> {
        self.check_technique(index)?;
        self.technique = index;
        Ok(())
    }

    /// The current technique.
    pub fn technique(&self) -> usize {
        self.technique
    }

    /// Begin: returns the current technique's pass count.
    pub fn begin(&mut self) -> Result<usize, RuntimeError> {
        let t =
            self.effect.techniques.get(self.technique).ok_or(RuntimeError::NoSuch { what: "technique", index: 0 })?;
        self.begun = true;
        Ok(t.passes.len())
    }

    /// BeginPass: evaluates every state of the pass.
    pub fn begin_pass(&mut self, pass: usize) -> Result<PassState, RuntimeError> {
        if !self.begun || self.pass.is_some() {
            return Err(RuntimeError::Order("BeginPass"));
        }
        self.check_pass(self.technique, pass)?;
        self.pull_shared();
        self.lights.clear();
        self.material = [0; MATERIAL_WORDS];
        let out = self.evaluate_pass(pass, true)?;
        // A pass whose states do not all apply is not entered (BeginPass fails with E_FAIL;
        // the states that did apply stay applied).
        if out.errors.is_empty() {
            self.pass = Some(pass);
        }
        Ok(out)
    }

    /// CommitChanges: what changed since the pass began or the last commit (only states and
    /// constants that read a parameter set since are recomputed and returned). States that fail
    /// are listed in [`PassState::errors`]; Windows' CommitChanges still succeeds.
    pub fn commit(&mut self) -> Result<PassState, RuntimeError> {
        let pass = self.pass.ok_or(RuntimeError::Order("CommitChanges"))?;
        self.pull_shared();
        self.evaluate_pass(pass, false)
    }

    /// EndPass.
    pub fn end_pass(&mut self) -> Result<(), RuntimeError> {
        self.pass.take().map(|_| ()).ok_or(RuntimeError::Order("EndPass"))
    }

    /// End.
    pub fn end(&mut self) {
        self.pass = None;
        self.begun = false;
    }

    fn evaluate_pass(&mut self, pass: usize, all: bool) -> Result<PassState, RuntimeError> {
        let effect = self.effect;
        let states = &effect.techniques[self.technique].passes[pass].states;
        let mut out = PassState::default();
        for (i, state) in states.iter().enumerate() {
            let key = (self.technique, pass, i, 0);
            let applied = match self.state(key, state, all) {
                Ok(Some(a)) => a,
                Ok(None) => {
                    // The shader did not change: its constants and sampler states may have.
                    if let Some(&(id, vertex)) = self.bound.get(&key) {
                        let c = self.shader_constants((self.technique, pass, i, 1), id, false);
                        *(if vertex { &mut out.vertex_constants } else { &mut out.pixel_constants }) = c;
                        out.states.extend(self.shader_samplers(id, vertex, true));
                    }
                    continue;
                }
                Err(e) => {
                    out.errors.push(e);
                    continue;
                }
            };
            if let StateValue::Shader { object } = applied.value {
                let (slot, constants) = match applied.class {
                    StateClass::VertexShader => (&mut out.vertex_shader, &mut out.vertex_constants),
                    _ => (&mut out.pixel_shader, &mut out.pixel_constants),
                };
                *slot = Some(object);
                let vertex = applied.class == StateClass::VertexShader;
                match object {
                    Some(id) => self.bound.insert(key, (id, vertex)),
                    None => self.bound.remove(&key),
                };
                if let Some(id) = object {
                    // A shader (re)set sends every constant and sampler state it reads.
                    *constants = self.shader_constants((self.technique, pass, i, 1), id, true);
                    let samplers = self.shader_samplers(id, vertex, false);
                    out.states.push(applied);
                    out.states.extend(samplers);
                    continue;
                }
            }
            out.states.push(applied);
        }
        self.cache_structs(&mut out);
        self.applied_at = self.clock;
        Ok(out)
    }

    /// Whether a sampler state reads a parameter set since the pass was last applied.
    fn sampler_state_dirty(&self, s: &State) -> bool {
        let dirty = |h: Handle| self.versions[self.store.node(h).top.0 as usize] > self.applied_at;
        match &s.source {
            StateSource::Parameter { name } => self.store.lookup(None, name).is_some_and(dirty),
            StateSource::Expression { preshader } => {
                plan(&self.store, &preshader.inputs, Target::PreshaderInputs).iter().any(|u| dirty(u.param))
            }
            _ => false,
        }
    }

    /// The applied value of one state, `None` when `all` is false and nothing it reads changed.
    fn state(
        &mut self,
        key: (usize, usize, usize, u8),
        state: &State,
        all: bool,
    ) -> Result<Option<AppliedState>, RuntimeError> {
        let Some(info) = state.info() else { return Ok(None) };
        let value = match &state.source {
            StateSource::Constant => {
                if !all {
                    return Ok(None);
                }
                self.constant_value(state)
            }
            StateSource::Parameter { name } => {
                let h = self.handle(name)?;
                if !all && !self.changed_since(&[self.store.node(h).top], key) {
                    return Ok(None);
                }
                self.mark_seen(key);
                self.parameter_value(h, state)
            }
            StateSource::Expression { preshader } => {
                let Some(regs) = self.run_preshader(key, preshader, all) else { return Ok(None) };
                self.typed(state, expression_words(&regs, &state.value))
            }
            StateSource::ArraySelector { name, preshader } => {
                let array = self.handle(name)?;
                let dirty = self.is_dirty(key, preshader);
                let Some(regs) = self.run_preshader(key, preshader, all) else { return Ok(None) };
                let elements = self.store.node(array).elements;
                if dirty {
                    // A selection past the array fails the state and keeps the last good one.
                    let index = selection(&regs);
                    self.set_last(key, Some(index));
                    if index >= elements {
                        let name = name.clone();
                        return Err(RuntimeError::SelectorOutOfRange { state: info.name, name, index, elements });
                    }
                    let previous = self.evaluators.get(&key).and_then(|e| e.selected);
                    // CommitChanges re-sets the element only when the selection changed since
                    // the last good one (wine_preshader `scenario[2]`, effect.c:5309).
                    if !all && previous == Some(index) {
                        return Ok(None);
                    }
                    if let Some(e) = self.evaluators.get_mut(&key) {
                        e.selected = Some(index);
                    }
                }
                let selected = self.evaluators.get(&key).and_then(|e| e.selected);
                self.set_last(key, selected);
                let index = selected.unwrap_or(u32::MAX);
                let element = self.store.element(array, index as usize).ok_or_else(|| {
                    RuntimeError::SelectorOutOfRange { state: info.name, name: name.clone(), index, elements }
                })?;
                self.parameter_value(element, state)
            }
        };
        Ok(Some(AppliedState { name: info.name, class: info.class, code: info.code, index: state.index, value }))
    }

    /// Words in the state's storage type as the device takes them: a one-DWORD state converts
    /// to its D3D9 value type (`values::device_word`).
    fn typed(&self, state: &State, mut words: Vec<u32>) -> StateValue {
        let mut ty = state.value.ty;
        if let Some(info) = state.info().filter(|i| is_dword_state(i.class) && words.len() == 1) {
            words[0] = device_word(words[0], ty, info.class, info.code);
            ty = if super::values::float_valued(info.class, info.code) {
                ParameterType::Float
            } else {
                ParameterType::Int
            };
        }
        StateValue::Words { ty, words }
    }

    fn constant_value(&self, state: &State) -> StateValue {
        let p = &state.value;
        if p.ty.is_shader() {
            let id = p.value.first().map(|&id| id as usize);
            return StateValue::Shader { object: id.filter(|&id| self.is_shader(id)) };
        }
        if p.ty.is_sampler() {
            return StateValue::Sampler { states: self.sampler_states(&p.sampler_states) };
        }
        if p.ty.is_texture() {
            return StateValue::Texture { parameter: None };
        }
        if state.info().is_some_and(|i| i.class == StateClass::ShaderConstant) {
            return StateValue::Words { ty: p.ty, words: constant_registers(p).concat() };
        }
        self.typed(state, p.value.clone())
    }

    /// Whether object `id` is a shader a hardware device creates (others bind NULL).
    fn is_shader(&self, id: usize) -> bool {
        matches!(self.effect.objects.get(id).map(|o| &o.kind), Some(ObjectKind::Shader(s)) if s.hardware_supported())
    }

    fn parameter_value(&self, h: Handle, state: &State) -> StateValue {
        let node = self.store.node(h);
        if node.ty.is_shader() {
            let id = self.store.value(h).first().map(|&id| id as usize);
            return StateValue::Shader { object: id.filter(|&id| self.is_shader(id)) };
        }
        if node.ty.is_texture() {
            return StateValue::Texture { parameter: Some(h) };
        }
        if node.ty.is_sampler() {
            let states = self.parameter_sampler(h).map(|s| self.sampler_states(s)).unwrap_or_default();
            return StateValue::Sampler { states };
        }
        let words = self.store.value(h).iter().map(|&w| convert_word(w, node.ty, state.value.ty)).collect();
        self.typed(state, words)
    }

    /// The sampler states of a sampler parameter (or element) in the parsed effect.
    fn parameter_sampler(&self, h: Handle) -> Option<&'e [State]> {
        let node = self.store.node(h);
        let top = self.effect.parameters.get(node.parameter?)?;
        let p = if top.elements > 0 {
            let index: usize = node.full_name.rsplit('[').next()?.trim_end_matches(']').parse().ok()?;
            top.element_list.get(index)?
        } else {
            top
        };
        Some(&p.sampler_states)
    }

    fn sampler_states<'s>(&self, states: impl IntoIterator<Item = &'s State>) -> Vec<AppliedState> {
        states
            .into_iter()
            .filter_map(|s| {
                let info = s.info()?;
                let value = match &s.source {
                    StateSource::Parameter { name } => match self.store.lookup(None, name) {
                        Some(h) => self.parameter_value(h, s),
                        None => self.constant_value(s),
                    },
                    // D3DX evaluates a sampler state's expression whenever the sampler is
                    // applied (wine_preshader `scenario[0]`: MinFilter = an expression).
                    StateSource::Expression { preshader } => {
                        self.typed(s, expression_words(&evaluate_once(&self.store, preshader), &s.value))
                    }
                    _ => self.constant_value(s),
                };
                Some(AppliedState { name: info.name, class: info.class, code: info.code, index: s.index, value })
            })
            .collect()
    }

    fn changed_since(&self, inputs: &[Handle], key: (usize, usize, usize, u8)) -> bool {
        let seen = self.evaluators.get(&key).map_or(0, |e| e.seen);
        inputs.iter().any(|h| self.versions[h.0 as usize] > seen) || !self.evaluators.contains_key(&key)
    }

    fn mark_seen(&mut self, key: (usize, usize, usize, u8)) {
        let clock = self.clock;
        self.evaluators
            .entry(key)
            .or_insert_with(|| Evaluator {
                inputs: Vec::new(),
                uploads: Vec::new(),
                shader_uploads: Vec::new(),
                registers: Registers::new(&Preshader::empty()),
                seen: 0,
                selected: None,
                last: None,
            })
            .seen = clock;
    }

    fn evaluator(&self, p: &Preshader, shader_table: Option<&[crate::bytecode::ConstantInfo]>) -> Evaluator {
        let uploads = plan(&self.store, &p.inputs, Target::PreshaderInputs);
        // Constants of the skip list are not set by the effect.
        let table: Vec<_> =
            shader_table.into_iter().flatten().filter(|c| !self.skipped.contains(&c.name)).cloned().collect();
        let shader_uploads = plan(&self.store, &table, Target::ShaderConstants);
        let mut sized = p.clone();
        for u in &shader_uploads {
            let _ = sized.grow(u.table, u.register + u.count - 1);
        }
        let mut inputs: Vec<Handle> =
            uploads.iter().chain(&shader_uploads).map(|u| self.store.node(u.param).top).collect();
        inputs.sort();
        inputs.dedup();
        Evaluator {
            inputs,
            uploads,
            shader_uploads,
            registers: Registers::new(&sized),
            seen: 0,
            selected: None,
            last: None,
        }
    }

    /// Runs a state's preshader when needed; `None` when `all` is false and no input changed.
    /// Whether the evaluator of `key` must run (new, or an input set since it last ran).
    fn is_dirty(&mut self, key: (usize, usize, usize, u8), p: &Preshader) -> bool {
        if !self.evaluators.contains_key(&key) {
            let e = self.evaluator(p, None);
            self.evaluators.insert(key, e);
        }
        let e = &self.evaluators[&key];
        e.seen == 0 || e.inputs.iter().any(|h| self.versions[h.0 as usize] > e.seen)
    }

    /// D3DX evaluates array selectors when it creates the effect: the element they choose with
    /// the default values stays chosen until a later evaluation chooses one in range.
    fn preselect(&mut self) {
        let effect = self.effect;
        for (t, tech) in effect.techniques.iter().enumerate() {
            for (p, pass) in tech.passes.iter().enumerate() {
                for (i, state) in pass.states.iter().enumerate() {
                    if let StateSource::ArraySelector { name, preshader } = &state.source {
                        let key = (t, p, i, 0);
                        let Some(regs) = self.run_preshader(key, preshader, true) else { continue };
                        let elements = self.store.lookup(None, name).map_or(0, |h| self.store.node(h).elements);
                        let index = selection(&regs);
                        if let Some(e) = self.evaluators.get_mut(&key) {
                            e.selected = (index < elements).then_some(index);
                            e.last = Some(index);
                        }
                    }
                }
            }
        }
    }

    fn run_preshader(&mut self, key: (usize, usize, usize, u8), p: &Preshader, all: bool) -> Option<Registers> {
        if !self.evaluators.contains_key(&key) {
            let e = self.evaluator(p, None);
            self.evaluators.insert(key, e);
        }
        let e = &self.evaluators[&key];
        let dirty = e.inputs.iter().any(|h| self.versions[h.0 as usize] > e.seen) || e.seen == 0;
        if !dirty && !all {
            return None;
        }
        let mut e = self.evaluators.remove(&key)?;
        if dirty {
            upload(&mut e.registers, &self.store, &e.uploads);
            e.registers.run(p);
        }
        e.seen = self.clock;
        let regs = e.registers.clone();
        self.evaluators.insert(key, e);
        Some(regs)
    }

    /// The constants of shader object `id`: its preshader's outputs and the parameters its
    /// constant table names.
    fn shader_constants(&mut self, key: (usize, usize, usize, u8), id: usize, all: bool) -> Constants {
        let Some(ObjectKind::Shader(shader)) = self.effect.objects.get(id).map(|o| &o.kind) else {
            return Constants::default();
        };
        let empty = Preshader::empty();
        let p = shader.preshader.as_ref().unwrap_or(&empty);
        let table = shader.constants.as_ref().map(|t| t.constants.as_slice()).unwrap_or(&[]);
        let key = (key.0, key.1, key.2, 1 + (id as u8 & 0x7f));
        if !self.evaluators.contains_key(&key) {
            let e = self.evaluator(p, Some(table));
            self.evaluators.insert(key, e);
        }
        let Some(mut e) = self.evaluators.remove(&key) else { return Constants::default() };
        let fresh = e.seen == 0;
        let dirty: Vec<Handle> = e.inputs.iter().copied().filter(|h| self.versions[h.0 as usize] > e.seen).collect();
        let pres_dirty = fresh || e.uploads.iter().any(|u| dirty.contains(&self.store.node(u.param).top));
        if pres_dirty {
            upload(&mut e.registers, &self.store, &e.uploads);
            e.registers.run(p);
        }
        upload(&mut e.registers, &self.store, &e.shader_uploads);
        let mut out = Constants::default();
        let mut emit = |table: Table, register: u32, regs: &Registers| {
            let t = &regs.tables[table as usize];
            match table {
                Table::Output => {
                    let at = register as usize * 4;
                    if let Some(v) = t.get(at..at + 4) {
                        out.float.push((register, [v[0], v[1], v[2], v[3]]));
                    }
                }
                Table::IntOutput => {
                    let at = register as usize * 4;
                    if let Some(v) = t.get(at..at + 4) {
                        out.int.push((register, [v[0] as i32, v[1] as i32, v[2] as i32, v[3] as i32]));
                    }
                }
                Table::BoolOutput => {
                    if let Some(&v) = t.get(register as usize) {
                        out.bool.push((register, v != 0));
                    }
                }
                _ => {}
            }
        };
        for u in &e.shader_uploads {
            if all || fresh || dirty.contains(&self.store.node(u.param).top) {
                (u.register..u.register + u.count).for_each(|r| emit(u.table, r, &e.registers));
            }
        }
        if all || pres_dirty {
            for ins in &p.instructions {
                if ins.output.table != Table::Temp {
                    emit(ins.output.table, ins.output.table.register_of(ins.output.offset), &e.registers);
                }
            }
        }
        e.seen = self.clock;
        self.evaluators.insert(key, e);
        out.float.sort_by_key(|c| c.0);
        out.float.dedup_by_key(|c| c.0);
        out.int.sort_by_key(|c| c.0);
        out.int.dedup_by_key(|c| c.0);
        out.bool.sort_by_key(|c| c.0);
        out.bool.dedup_by_key(|c| c.0);
        out
    }

    /// The sampler states a shader's sampler parameters set: each sampler its constant table
    /// names gets the states of the sampler parameter (or array element) bound to it; vertex
    /// shader samplers are D3DVERTEXTEXTURESAMPLER0 (257) onwards.
    /// `dirty_only`: only the states that read a parameter set since the pass was applied
    /// (CommitChanges), and only samplers left with one.
    fn shader_samplers(&self, id: usize, vertex: bool, dirty_only: bool) -> Vec<AppliedState> {
        let Some(ObjectKind::Shader(shader)) = self.effect.objects.get(id).map(|o| &o.kind) else { return Vec::new() };
        let base = if vertex { 257 } else { 0 };
        let mut out = Vec::new();
        for c in shader.constants.iter().flat_map(|t| &t.constants) {
            if c.register_set != crate::bytecode::RegisterSet::Sampler {
                continue;
            }
            let Some(h) = self.store.top_by_name(&c.name) else { continue };
            for k in 0..c.register_count as usize {
                let node = if self.store.node(h).elements > 0 { self.store.element(h, k) } else { Some(h) };
                let Some(states) = node.and_then(|n| self.parameter_sampler(n)) else { continue };
                let states = self.sampler_states(states.iter().filter(|s| !dirty_only || self.sampler_state_dirty(s)));
                if states.is_empty() && dirty_only {
                    continue;
                }
                let value = StateValue::Sampler { states };
                let index = base + c.register_index as u32 + k as u32;
                out.push(AppliedState { name: "Sampler", class: StateClass::Sampler, code: 0, index, value });
            }
        }
        out
    }

    /// Which register file a shader-constant state writes.
    pub fn constant_file(state: &AppliedState) -> Option<ShaderConstantFile> {
        (state.class == StateClass::ShaderConstant).then(|| constant_file(state.code))
    }

    /// The effect.
    pub fn effect(&self) -> &'e Effect {
        self.effect
    }
}

/// The element index an array selector's preshader computed: its first output truncated; -1
/// selects element 0.
fn selection(regs: &Registers) -> u32 {
    let index = regs.tables[Table::Output as usize].first().map_or(0, |&w| f32_to_i32(f32::from_bits(w))) as u32;
    if index == u32::MAX {
        0
    } else {
        index
    }
}

impl ParameterClass {
    /// Whether values of this class are read as D3DCOLOR by GetInt (vectors of 3 or 4).
    pub fn is_vector(self) -> bool {
        self == ParameterClass::Vector
    }
}
