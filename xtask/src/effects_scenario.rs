//! Step-by-step scenarios (`[[scenario]]`) on a simulated device, technique validation
//! (`[[validate]]`, `[[find_next_valid]]`, run in order on one effect, as the tests do) and pass
//! descriptions (`[[pass_desc]]`).

use std::collections::HashMap;

use d3d9_shader::effect::runtime::{AppliedState, DeviceCall, EffectRuntime, PassDesc, PassState, StateValue};
use d3d9_shader::effect::states::LIGHT_WORDS;
use d3d9_shader::effect::{Effect, StateClass};

use crate::effects_checks::floats;

type Record = toml::Table;

pub(crate) fn s<'a>(r: &'a Record, k: &str) -> Option<&'a str> {
    r.get(k).and_then(|v| v.as_str())
}

pub(crate) fn int(r: &Record, k: &str) -> Option<i64> {
    r.get(k).and_then(|v| v.as_integer())
}

/// The device state a scenario reads back.
#[derive(Clone, Default)]
pub(crate) struct Device {
    pub(crate) render: HashMap<u32, u32>,
    pub(crate) sampler: HashMap<(u32, u32), u32>,
    pub(crate) stage: HashMap<(u32, u32), u32>,
    pub(crate) transform: HashMap<u32, Vec<u32>>,
    pub(crate) lights: HashMap<u32, Vec<u32>>,
    pub(crate) light_enable: HashMap<u32, bool>,
    pub(crate) vertex_shader: Option<usize>,
    pub(crate) pixel_shader: Option<usize>,
    pub(crate) textures: HashMap<u32, Option<String>>,
    pub(crate) vs_f: HashMap<u32, [u32; 4]>,
    pub(crate) ps_f: HashMap<u32, [u32; 4]>,
    pub(crate) ps_i: HashMap<u32, [i32; 4]>,
    pub(crate) ps_b: HashMap<u32, u32>,
}

impl Device {
    fn apply_state(&mut self, st: &AppliedState, textures: &HashMap<String, String>, rt: &EffectRuntime) {
        let words = match &st.value {
            StateValue::Words { words, .. } => words.clone(),
            _ => Vec::new(),
        };
        let first = words.first().copied().unwrap_or(0);
        match st.class {
            StateClass::RenderState => {
                self.render.insert(st.code, first);
            }
            StateClass::TextureStage => {
                self.stage.insert((st.index, st.code), first);
            }
            StateClass::SamplerState => {
                self.sampler.insert((st.index, st.code), first);
            }
            StateClass::Sampler => {
                if let StateValue::Sampler { states } = &st.value {
                    for inner in states {
                        if inner.class == StateClass::Texture {
                            self.bind_texture(st.index, &inner.value, textures, rt);
                        } else if let Some(d) = inner.value.dword() {
                            self.sampler.insert((st.index, inner.code), d);
                        }
                    }
                }
            }
            StateClass::Texture => self.bind_texture(st.index, &st.value, textures, rt),
            StateClass::Transform => {
                let id = if st.code == 256 { 256 + st.index } else { st.code + st.index };
                self.transform.insert(id, words);
            }
            // Lights arrive whole, in `PassState::lights`.
            StateClass::LightEnable => {
                self.light_enable.insert(st.index, first != 0);
            }
            StateClass::VertexShader => {
                if let StateValue::Shader { object } = st.value {
                    self.vertex_shader = object;
                }
            }
            StateClass::PixelShader => {
                if let StateValue::Shader { object } = st.value {
                    self.pixel_shader = object;
                }
            }
            StateClass::ShaderConstant => {
                for (k, chunk) in words.chunks(4).enumerate() {
                    let reg = st.index + k as u32;
                    let mut v = self.vs_f.get(&reg).copied().unwrap_or([0; 4]);
                    v[..chunk.len()].copy_from_slice(chunk);
                    if st.code == 0 {
                        self.vs_f.insert(reg, v);
                    } else if st.code == 3 {
                        self.ps_f.insert(reg, v);
                    }
                }
            }
            _ => {}
        }
    }

    /// The lights a pass sends, each whole.
    fn apply_lights(&mut self, pass: &PassState) {
        for (index, light) in &pass.lights {
            self.lights.insert(*index, light.to_vec());
        }
    }

    fn bind_texture(&mut self, stage: u32, v: &StateValue, textures: &HashMap<String, String>, rt: &EffectRuntime) {
        if let StateValue::Texture { parameter } = v {
            let name = parameter.map(|h| rt.store.node(h).full_name.clone());
            self.textures.insert(stage, name.and_then(|n| textures.get(&n).cloned()));
        }
    }

    fn apply(&mut self, pass: &PassState, textures: &HashMap<String, String>, rt: &EffectRuntime) {
        for st in &pass.states {
            self.apply_state(st, textures, rt);
        }
        self.apply_lights(pass);
        for &(r, v) in &pass.vertex_constants.float {
            self.vs_f.insert(r, v);
        }
        for &(r, v) in &pass.pixel_constants.float {
            self.ps_f.insert(r, v);
        }
        for &(r, v) in &pass.pixel_constants.int {
            self.ps_i.insert(r, v);
        }
        for &(r, v) in &pass.pixel_constants.bool {
            self.ps_b.insert(r, v as u32);
        }
    }
}

fn hresult(r: &Result<(), String>) -> &'static str {
    if r.is_ok() {
        "D3D_OK"
    } else {
        "E_FAIL"
    }
}

pub(crate) struct Run<'e> {
    pub(crate) effect: &'e Effect,
    pub(crate) rt: EffectRuntime<'e>,
    pub(crate) device: Device,
    /// The device at Begin, and the states the technique sets (applied to a blank device).
    pub(crate) saved: Option<(Device, Device)>,
    pub(crate) save_state: bool,
    pub(crate) textures: HashMap<String, String>,
    pub(crate) filler_f: [u32; 4],
    /// The last GetPassDesc's shaders (NULL after a failed one).
    pub(crate) pass_desc: PassDesc,
    /// Created with D3DXFX_NOT_CLONEABLE: the effect keeps no shader function code, so
    /// GetPassDesc gives NULL functions (effect.c:6941).
    pub(crate) not_cloneable: bool,
    /// The calls made to the state manager, once SetStateManager has set one.
    pub(crate) manager: Option<Vec<DeviceCall>>,
    /// The light the last `SetLight` filler step wrote.
    pub(crate) light_filler: Vec<u32>,
}

/// The filler lights the scenarios write with SetLight, by the step's prose: D3DLIGHT9 words.
fn filler_light(prose: &str) -> Result<Vec<u32>, String> {
    let mut light = vec![0u32; LIGHT_WORDS];
    match prose {
        "filler: Type POINT, every other field 0" => light[0] = 1,
        "filler: Type DIRECTIONAL, Diffuse/Specular/Ambient (0.5, 0.5, 0.5, 0.5), every other field 0" => {
            light[0] = 3;
            light[1..13].fill(0.5f32.to_bits());
        }
        other => return Err(format!("unknown filler light {other:?}")),
    }
    Ok(light)
}

impl<'e> Run<'e> {
    fn step(&mut self, step: &Record) -> Result<(), String> {
        let op = s(step, "op").unwrap_or("");
        let want = s(step, "result");
        let got: Result<(), String> = match op {
            "create" => {
                let flags = step.get("flags").and_then(|f| f.as_array()).cloned().unwrap_or_default();
                self.save_state = !flags.iter().any(|f| f.as_str() == Some("D3DXFX_DONOTSAVESTATE"));
                self.not_cloneable = flags.iter().any(|f| f.as_str() == Some("D3DXFX_NOT_CLONEABLE"));
                // D3DXCreateEffectEx's skip list (docs/effects.md#skip-constants); a refused
                // list fails the step and leaves the previous effect in use. The scenario's
                // `technique` stays current.
                let technique = self.rt.technique();
                let created = match s(step, "skip_constants") {
                    Some(list) => EffectRuntime::with_skip_constants(self.effect, list).map_err(|e| e.to_string()),
                    None => Ok(EffectRuntime::new(self.effect)),
                };
                created.and_then(|mut rt| {
                    rt.set_technique(technique).map_err(|e| e.to_string())?;
                    self.rt = rt;
                    Ok(())
                })
            }
            "release" => Ok(()),
            "SetStateManager" => {
                self.manager = Some(Vec::new());
                Ok(())
            }
            "SetTechnique" => {
                let name = s(step, "technique").unwrap_or("");
                let t = self.effect.technique(name).ok_or(format!("no technique {name}"))?;
                self.rt.set_technique(t).map_err(|e| e.to_string())
            }
            "Begin" => {
                let flags = step.get("flags").and_then(|f| f.as_array()).cloned().unwrap_or_default();
                let save = self.save_state && !flags.iter().any(|f| f.as_str() == Some("D3DXFX_DONOTSAVESTATE"));
                let n = self.rt.begin().map_err(|e| e.to_string())?;
                if let Some(p) = int(step, "passes") {
                    if p as usize != n {
                        return Err(format!("Begin gives {n} passes, expected {p}"));
                    }
                }
                self.saved = save.then(|| (self.device.clone(), self.technique_states(n)));
                Ok(())
            }
            "BeginPass" => {
                let pass = int(step, "pass").unwrap_or(0) as usize;
                match self.rt.begin_pass(pass) {
                    Ok(state) => {
                        self.apply(&state);
                        match state.errors.first() {
                            Some(e) => Err(e.to_string()),
                            None => Ok(()),
                        }
                    }
                    Err(e) => Err(e.to_string()),
                }
            }
            "CommitChanges" => match self.rt.commit() {
                // Windows' CommitChanges succeeds even when a state fails to apply.
                Ok(state) => {
                    self.apply(&state);
                    Ok(())
                }
                Err(e) => Err(e.to_string()),
            },
            "EndPass" => self.rt.end_pass().map_err(|e| e.to_string()),
            "End" => {
                self.rt.end();
                if let Some(saved) = self.saved.take() {
                    self.restore(saved);
                }
                Ok(())
            }
            "set" => self.set(step),
            "device" => self.device_call(step),
            "GetPassDesc" => {
                let name = s(step, "technique").unwrap_or("");
                let t = self.effect.technique(name).ok_or(format!("no technique {name}"))?;
                let pass = int(step, "pass").unwrap_or(0) as usize;
                let desc = self.rt.pass_desc(t, pass);
                self.pass_desc = match (&desc, self.not_cloneable) {
                    (Ok(d), false) => d.clone(),
                    _ => PassDesc::default(),
                };
                desc.map(|_| ()).map_err(|e| e.to_string())
            }
            other => Err(format!("unknown step {other}")),
        };
        if let Some(want) = want {
            let g = match (&got, op) {
                (Err(e), "BeginPass" | "EndPass") if e.contains("out of order") => "D3DERR_INVALIDCALL",
                (Err(_), "create") => "D3DERR_INVALIDCALL",
                _ => hresult(&got),
            };
            if g != want {
                return Err(format!("{op}: {g} ({got:?}), expected {want}"));
            }
        }
        Ok(())
    }

    /// Applies a pass's states to the device, or hands them to the state manager; the
    /// scenarios' manager forwards lights to the device (effect.c:6343).
    fn apply(&mut self, state: &PassState) {
        let Some(calls) = &mut self.manager else {
            return self.device.apply(state, &self.textures, &self.rt);
        };
        calls.extend(state.device_calls());
        for st in state.states.iter().filter(|s| s.class == StateClass::LightEnable) {
            self.device.apply_state(st, &self.textures, &self.rt);
        }
        self.device.apply_lights(state);
    }

    /// The states the current technique's passes set, as a blank device they were applied to.
    fn technique_states(&self, passes: usize) -> Device {
        let mut scratch = self.rt.clone();
        let mut keys = Device::default();
        for p in 0..passes {
            if let Ok(state) = scratch.begin_pass(p) {
                keys.apply(&state, &self.textures, &scratch);
            }
            let _ = scratch.end_pass();
        }
        keys
    }

    /// End restores the states the technique sets to their values at Begin (states it does not
    /// set, and shader constants, stay as they are).
    fn restore(&mut self, (saved, keys): (Device, Device)) {
        fn put<K: std::hash::Hash + Eq + Copy, V: Clone>(
            d: &mut HashMap<K, V>,
            from: &HashMap<K, V>,
            keys: &HashMap<K, V>,
        ) {
            for k in keys.keys() {
                match from.get(k) {
                    Some(v) => d.insert(*k, v.clone()),
                    None => d.remove(k),
                };
            }
        }
        let d = &mut self.device;
        put(&mut d.render, &saved.render, &keys.render);
        put(&mut d.sampler, &saved.sampler, &keys.sampler);
        put(&mut d.stage, &saved.stage, &keys.stage);
        put(&mut d.transform, &saved.transform, &keys.transform);
        put(&mut d.lights, &saved.lights, &keys.lights);
        put(&mut d.light_enable, &saved.light_enable, &keys.light_enable);
        put(&mut d.textures, &saved.textures, &keys.textures);
    }

    fn set(&mut self, step: &Record) -> Result<(), String> {
        let param = s(step, "param").unwrap_or("");
        let h = self.rt.handle(param).map_err(|e| e.to_string())?;
        if step.get("same_value").is_some() {
            let v = self.rt.store.value(h).to_vec();
            return self.rt.set_value(h, &v).map_err(|e| e.to_string());
        }
        if s(step, "call") == Some("SetTexture") {
            self.textures.insert(param.to_string(), s(step, "texture").unwrap_or("").to_string());
            return Ok(());
        }
        let one_int =
            step.get("i32").and_then(|v| v.as_array()).filter(|a| a.len() == 1).and_then(|a| a[0].as_integer());
        match (s(step, "call"), step.get("f32").and_then(floats).as_deref(), one_int) {
            (Some("SetFloat"), Some(&[f]), _) => return self.rt.set_float(h, f).map_err(|e| e.to_string()),
            (Some("SetInt"), _, Some(i)) => return self.rt.set_int(h, i as i32).map_err(|e| e.to_string()),
            _ => {}
        }
        if let Some(v) = step.get("f32") {
            let f = floats(v).ok_or("bad f32")?;
            return self.rt.set_floats(h, &f).map_err(|e| e.to_string());
        }
        if let Some(v) = step.get("i32").and_then(|v| v.as_array()) {
            let i: Vec<i32> = v.iter().filter_map(|x| x.as_integer().map(|i| i as i32)).collect();
            return self.rt.set_ints(h, &i).map_err(|e| e.to_string());
        }
        Err("set without a value".into())
    }

    fn device_call(&mut self, step: &Record) -> Result<(), String> {
        let u = int(step, "u32").unwrap_or(0) as u32;
        let id = int(step, "id").unwrap_or(0) as u32;
        let first = int(step, "first").unwrap_or(0) as u32;
        let last = int(step, "last").unwrap_or(0) as u32;
        let f4 = || -> [u32; 4] {
            let v = step.get("f32").and_then(floats).unwrap_or_default();
            std::array::from_fn(|i| v.get(i).copied().unwrap_or(0.0).to_bits())
        };
        let list = |k: &str| -> Option<Vec<u32>> {
            let a = step.get(k)?.as_array()?;
            Some(a.iter().filter_map(|x| x.as_integer().map(|i| i as u32)).collect())
        };
        match s(step, "call").unwrap_or("") {
            // `ids` with one value for all: `f32` (its bits) or `u32`.
            "SetRenderState" if step.get("ids").is_some() => {
                let value = step.get("f32").and_then(|v| v.as_float()).map_or(u, |f| (f as f32).to_bits());
                for id in list("ids").unwrap_or_default() {
                    self.device.render.insert(id, value);
                }
            }
            "SetRenderState" => {
                self.device.render.insert(id, u);
            }
            // Every state of `ids` on every sampler of `samplers`.
            "SetSamplerState" if step.get("samplers").is_some() => {
                for sampler in list("samplers").unwrap_or_default() {
                    for id in list("ids").unwrap_or_default() {
                        self.device.sampler.insert((sampler, id), u);
                    }
                }
            }
            "SetSamplerState" => {
                self.device.sampler.insert((int(step, "sampler").unwrap_or(0) as u32, id), u);
            }
            "SetTransform" => {
                let v = step.get("f32").and_then(floats).unwrap_or_default();
                self.device.transform.insert(id, v.iter().map(|f| f.to_bits()).collect());
            }
            "SetVertexShader" => self.device.vertex_shader = None,
            "SetTexture" => {
                self.device.textures.insert(int(step, "stage").unwrap_or(0) as u32, None);
            }
            "SetLight" if step.get("first").is_some() => {
                self.light_filler = filler_light(s(step, "light").unwrap_or(""))?;
                for index in first..=last {
                    self.device.lights.insert(index, self.light_filler.clone());
                }
            }
            "SetLight" => {
                let index = int(step, "index").unwrap_or(0) as u32;
                let v = step.get("f32").and_then(floats).unwrap_or_default();
                let mut light = vec![0u32; LIGHT_WORDS];
                for (k, f) in v.iter().take(LIGHT_WORDS).enumerate() {
                    light[k] = f.to_bits();
                }
                self.device.lights.insert(index, light);
            }
            "fill_vs_const_f" => {
                self.filler_f = f4();
                (first..=last).for_each(|r| {
                    self.device.vs_f.insert(r, f4());
                })
            }
            "fill_ps_const_f" => (first..=last).for_each(|r| {
                self.device.ps_f.insert(r, f4());
            }),
            "fill_ps_const_i" => {
                let v: Vec<i32> = step
                    .get("i32")
                    .and_then(|v| v.as_array())
                    .map(|a| a.iter().filter_map(|x| x.as_integer().map(|i| i as i32)).collect())
                    .unwrap_or_default();
                (first..=last).for_each(|r| {
                    self.device.ps_i.insert(r, std::array::from_fn(|i| v.get(i).copied().unwrap_or(0)));
                })
            }
            "fill_ps_const_b" => {
                let v: Vec<u32> = step
                    .get("u32_list")
                    .and_then(|v| v.as_array())
                    .map(|a| a.iter().filter_map(|x| x.as_integer().map(|i| i as u32)).collect())
                    .unwrap_or_default();
                for r in first..=last {
                    self.device.ps_b.insert(r, v.get((r - first) as usize).copied().unwrap_or(0));
                }
            }
            other => return Err(format!("unknown device call {other}")),
        }
        Ok(())
    }
}

fn scenario(effect: &Effect, r: &Record) -> Result<(), String> {
    let mut run = Run {
        effect,
        rt: EffectRuntime::new(effect),
        device: Device::default(),
        saved: None,
        save_state: true,
        textures: HashMap::new(),
        filler_f: [(-9999f32).to_bits(); 4],
        pass_desc: PassDesc::default(),
        not_cloneable: false,
        manager: None,
        light_filler: Vec::new(),
    };
    if let Some(t) = s(r, "technique") {
        let t = effect.technique(t).ok_or(format!("no technique {t}"))?;
        run.rt.set_technique(t).map_err(|e| e.to_string())?;
    }
    let steps = r.get("step").and_then(|v| v.as_array()).cloned().unwrap_or_default();
    let mut failures = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        let Some(step) = step.as_table() else { continue };
        if let Err(e) = run.step(step) {
            failures.push(format!("step {i}: {e}"));
        }
        for e in step.get("expect").and_then(|v| v.as_array()).into_iter().flatten() {
            if let Some(e) = e.as_table() {
                if let Err(m) = run.expect(e) {
                    failures.push(format!("step {i} ({}): {m}", s(e, "source").unwrap_or("")));
                }
            }
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!("{} of its checks fail:\n      {}", failures.len(), failures.join("\n      ")))
    }
}

/// Sets from a `set` list: `{call, param, i32|f32}`.
fn apply_sets(rt: &mut EffectRuntime, r: &Record) -> Result<(), String> {
    for set in r.get("set").and_then(|v| v.as_array()).into_iter().flatten() {
        let Some(set) = set.as_table() else { continue };
        let h = rt.handle(s(set, "param").unwrap_or("")).map_err(|e| e.to_string())?;
        if let Some(v) = set.get("f32").and_then(floats) {
            rt.set_floats(h, &v).map_err(|e| e.to_string())?;
        }
        if let Some(v) = set.get("i32").and_then(|v| v.as_array()) {
            let i: Vec<i32> = v.iter().filter_map(|x| x.as_integer().map(|i| i as i32)).collect();
            rt.set_ints(h, &i).map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// The `validate` or `find_next_valid` records of one effect, in order, on one effect whose
/// parameter values carry over from record to record.
pub fn check_sequence(effect: &Effect, kind: &str, records: &[&Record]) -> Vec<Result<(), String>> {
    let mut rt = EffectRuntime::new(effect);
    let mut previous: Option<usize> = None;
    let mut out = Vec::new();
    for r in records {
        let result = apply_sets(&mut rt, r).and_then(|()| {
            let (got, found) = if kind == "validate" {
                let t = s(r, "technique").unwrap_or("");
                let got = match effect.technique(t) {
                    None => "D3DERR_INVALIDCALL",
                    Some(t) => {
                        if rt.validate(t).is_ok() {
                            "D3D_OK"
                        } else {
                            "E_FAIL"
                        }
                    }
                };
                (got, None)
            } else {
                let after = s(r, "after").unwrap_or("");
                let start = if after.starts_with('(') {
                    previous.map(|p| p + 1)
                } else if after.is_empty() {
                    Some(0)
                } else {
                    effect.technique(after).map(|t| t + 1)
                };
                match start {
                    None if !after.starts_with('(') => ("D3DERR_INVALIDCALL", None),
                    start => {
                        let found = rt.find_next_valid_technique(start.and_then(|s| s.checked_sub(1)));
                        previous = found;
                        (if found.is_some() { "D3D_OK" } else { "S_FALSE" }, Some(found))
                    }
                }
            };
            let want = s(r, "result").unwrap_or("D3D_OK");
            if got != want {
                return Err(format!("{got}, expected {want}"));
            }
            if let (Some(found), Some(want)) = (found, s(r, "found")) {
                let name = found.map_or("", |t| effect.techniques[t].name.as_str());
                if name != want {
                    return Err(format!("found {name:?}, expected {want:?}"));
                }
            }
            Ok(())
        });
        out.push(result);
    }
    out
}

fn pass_desc(effect: &Effect, r: &Record) -> Result<(), String> {
    let t = effect.technique(s(r, "technique").unwrap_or("")).ok_or("no technique")?;
    let pass = int(r, "pass").unwrap_or(0) as usize;
    let mut rt = EffectRuntime::new(effect);
    rt.set_technique(t).map_err(|e| e.to_string())?;
    rt.begin().map_err(|e| e.to_string())?;
    let state = rt.begin_pass(pass).map_err(|e| e.to_string())?;
    let got = if state.errors.is_empty() { "D3D_OK" } else { "E_FAIL" };
    let want = s(r, "result").unwrap_or("D3D_OK");
    if got != want {
        return Err(format!("{got}, expected {want}"));
    }
    if r.get("vertex_shader_null").is_some() && state.vertex_shader.flatten().is_some() {
        return Err("a vertex shader is bound".into());
    }
    Ok(())
}

pub fn check(effect: &Effect, _bytes: &[u8], kind: &str, r: &Record) -> Result<(), String> {
    match kind {
        "scenario" => scenario(effect, r),
        "pass_desc" => pass_desc(effect, r),
        _ => Err(format!("{kind} records are checked in sequence")),
    }
}
