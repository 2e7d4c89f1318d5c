//! The expectations of a scenario (`[[scenario.expect]]`): what the simulated device, the state
//! manager or the last GetPassDesc must hold after the steps (`effects_scenario.rs` runs them).

use d3d9_shader::effect::runtime::DeviceCall;
use d3d9_shader::effect::states::{light_member, LIGHT_WORDS};
use d3d9_shader::effect::ObjectKind;

use crate::effects_checks::{compare_bits, floats};
use crate::effects_scenario::{int, s, Run};

type Record = toml::Table;

impl Run<'_> {
    /// Checks one `[[scenario.expect]]` entry against the simulated device (or the state
    /// manager's calls, or the last GetPassDesc).
    pub(crate) fn expect(&self, e: &Record) -> Result<(), String> {
        let d = &self.device;
        match s(e, "what").unwrap_or("") {
            w @ ("vs_const_f" | "ps_const_f" | "ps_const_i" | "ps_const_b") => self.expect_constant(w, e),
            "render_state" => {
                let id = int(e, "id").unwrap_or(0) as u32;
                check_dword(d.render.get(&id).copied(), e, &format!("render state {id}"))
            }
            "sampler_state" => {
                let key = (int(e, "sampler").unwrap_or(0) as u32, int(e, "id").unwrap_or(0) as u32);
                check_dword(d.sampler.get(&key).copied(), e, &format!("sampler state {key:?}"))
            }
            "texture_stage_state" => {
                let key = (int(e, "stage").unwrap_or(0) as u32, int(e, "id").unwrap_or(0) as u32);
                check_dword(d.stage.get(&key).copied(), e, &format!("stage state {key:?}"))
            }
            "transform" => {
                let id = int(e, "id").unwrap_or(0) as u32;
                let got: Vec<f32> =
                    d.transform.get(&id).map(|v| v.iter().map(|w| f32::from_bits(*w)).collect()).unwrap_or_default();
                let want = e.get("f32").and_then(floats).unwrap_or_default();
                if got == want {
                    Ok(())
                } else {
                    Err(format!("transform {id}: {got:?}, expected {want:?}"))
                }
            }
            "light_enable" => {
                let index = int(e, "index").unwrap_or(0) as u32;
                let got = d.light_enable.get(&index).copied().unwrap_or(false);
                let want = e.get("enabled").and_then(|v| v.as_bool()).unwrap_or(false);
                if got == want {
                    Ok(())
                } else {
                    Err(format!("light {index} enabled = {got}"))
                }
            }
            "light" => self.expect_light(e),
            "texture" => {
                let stage = int(e, "stage").unwrap_or(0) as u32;
                let got = d.textures.get(&stage).cloned().flatten();
                let want = s(e, "texture").map(str::to_string);
                if got == want {
                    Ok(())
                } else {
                    Err(format!("texture {stage}: {got:?}, expected {want:?}"))
                }
            }
            "vertex_shader" => self.expect_shader(d.vertex_shader, e),
            "state_manager_calls" => self.expect_calls(e),
            "pass_desc_vertex_shader" => self.expect_shader(self.pass_desc.vertex_shader, e),
            "pass_desc_pixel_shader" => self.expect_shader(self.pass_desc.pixel_shader, e),
            other => Err(format!("expectation {other} is not checked")),
        }
    }

    /// A shader constant register (or a range of them, `fill` = each holds the filler).
    fn expect_constant(&self, what: &str, e: &Record) -> Result<(), String> {
        let d = &self.device;
        let reg = int(e, "register").map(|r| r as u32);
        let range = || (int(e, "first").unwrap_or(0) as u32)..=(int(e, "last").unwrap_or(0) as u32);
        let except: Vec<u32> = e
            .get("fill_except")
            .and_then(|v| v.as_array())
            .map(|a| a.iter().filter_map(|x| x.as_integer().map(|i| i as u32)).collect())
            .unwrap_or_default();
        match what {
            w @ ("vs_const_f" | "ps_const_f") => {
                let file = if w == "vs_const_f" { &d.vs_f } else { &d.ps_f };
                if e.get("fill").is_some() {
                    for r in range().filter(|r| !except.contains(r)) {
                        let v = file.get(&r).copied().unwrap_or([0; 4]);
                        if v != self.filler_f {
                            return Err(format!("{w} c{r} = {v:08x?}, expected the filler"));
                        }
                    }
                    return Ok(());
                }
                let v = file.get(&reg.unwrap_or(0)).copied().unwrap_or([0; 4]);
                let mut want = e.clone();
                if want.get("bits").is_none() {
                    let f = e.get("f32").and_then(floats).unwrap_or_default();
                    let bits: Vec<toml::Value> =
                        f.iter().map(|x| toml::Value::String(format!("{:08x}", x.to_bits()))).collect();
                    want.insert("bits".into(), toml::Value::Array(bits));
                }
                compare_bits(&v, &want).map_err(|m| format!("{w} c{}: {m}", reg.unwrap_or(0)))
            }
            "ps_const_i" => {
                if e.get("fill").is_some() {
                    return match range().find(|r| d.ps_i.get(r) != Some(&[-1; 4])) {
                        Some(r) => Err(format!("ps i{r} = {:?}, expected the filler", d.ps_i.get(&r))),
                        None => Ok(()),
                    };
                }
                let v = d.ps_i.get(&reg.unwrap_or(0)).copied().unwrap_or([0; 4]);
                let want: Vec<i32> = e
                    .get("i32")
                    .and_then(|v| v.as_array())
                    .map(|a| a.iter().filter_map(|x| x.as_integer().map(|i| i as i32)).collect())
                    .unwrap_or_default();
                if v[..] == want[..] {
                    Ok(())
                } else {
                    Err(format!("ps i{}: {v:?}, expected {want:?}", reg.unwrap_or(0)))
                }
            }
            "ps_const_b" if reg.is_none() => {
                // A range `first`..`last`, each register holding exactly `u32`.
                let want = int(e, "u32").unwrap_or(0) as u32;
                match range().find(|r| d.ps_b.get(r).copied().unwrap_or(0) != want) {
                    Some(r) => Err(format!("ps b{r} = {:?}, expected {want}", d.ps_b.get(&r))),
                    None => Ok(()),
                }
            }
            "ps_const_b" => {
                let v = d.ps_b.get(&reg.unwrap_or(0)).copied().unwrap_or(0);
                let ok = match (e.get("truthy").and_then(|v| v.as_bool()), int(e, "u32")) {
                    (Some(t), _) => (v != 0) == t,
                    (None, Some(u)) => v == u as u32,
                    _ => true,
                };
                if ok {
                    Ok(())
                } else {
                    Err(format!("ps b{} = {v}", reg.unwrap_or(0)))
                }
            }
            other => Err(format!("expectation {other} is not checked")),
        }
    }

    fn expect_light(&self, e: &Record) -> Result<(), String> {
        let index = int(e, "index").unwrap_or(0) as u32;
        if e.get("equals_filler").is_some() {
            let range = (int(e, "first").unwrap_or(0) as u32)..=(int(e, "last").unwrap_or(0) as u32);
            return match range.into_iter().find(|i| self.device.lights.get(i) != Some(&self.light_filler)) {
                Some(i) => Err(format!("light {i} = {:08x?}, expected the filler", self.device.lights.get(&i))),
                None => Ok(()),
            };
        }
        let light = self.device.lights.get(&index).cloned().unwrap_or_else(|| vec![0; LIGHT_WORDS]);
        let member = s(e, "member").unwrap_or("");
        let code = ["Type", "Diffuse", "Specular", "Ambient", "Position", "Direction"]
            .iter()
            .position(|m| *m == member)
            .ok_or(format!("light member {member}"))?;
        let (at, n) = light_member(code as u32).ok_or(format!("light member {member}"))?;
        compare_bits(&light[at..at + n], e).map_err(|m| format!("light {index} {member}: {m}"))
    }

    /// The state manager's calls as a multiset of (method, arg1, arg2).
    fn expect_calls(&self, e: &Record) -> Result<(), String> {
        let calls = self.manager.as_ref().ok_or("no state manager was set")?;
        let mut got: Vec<(usize, u32, u32, &str)> = calls
            .iter()
            .map(|c| {
                let (a, b) = c.args();
                (c.vtable_slot(), a, b, c.method())
            })
            .collect();
        got.sort();
        let mut want = Vec::new();
        for c in e.get("calls").and_then(|v| v.as_array()).into_iter().flatten().filter_map(|c| c.as_table()) {
            let method = s(c, "call").unwrap_or("");
            let slot = DeviceCall::slot_of(method).ok_or(format!("{method} is no state-manager method"))?;
            want.push((slot, int(c, "arg1").unwrap_or(0) as u32, int(c, "arg2").unwrap_or(0) as u32, method));
        }
        want.sort();
        if got == want {
            return Ok(());
        }
        let extra: Vec<_> = got.iter().filter(|g| !want.contains(g)).collect();
        let missing: Vec<_> = want.iter().filter(|w| !got.contains(w)).collect();
        Err(format!("{} calls, expected {}; extra {extra:?}, missing {missing:?}", got.len(), want.len()))
    }

    fn expect_shader(&self, bound: Option<usize>, e: &Record) -> Result<(), String> {
        if e.get("null").is_some() {
            return bound.map_or(Ok(()), |id| Err(format!("object {id} is bound, expected NULL")));
        }
        let id = bound.ok_or("no shader bound")?;
        if e.get("not_null").is_some() {
            return Ok(());
        }
        let o = &self.effect.objects[id];
        let (Some(offset), ObjectKind::Shader(sh)) = (o.offset, &o.kind) else { return Err(format!("object {id}")) };
        let want = (int(e, "blob_dword").unwrap_or(-1), int(e, "dwords").unwrap_or(-1));
        let got = ((offset / 4) as i64, sh.tokens.len() as i64);
        if got == want {
            Ok(())
        } else {
            Err(format!("bound shader at word {} ({} words), expected {want:?}", got.0, got.1))
        }
    }
}

fn check_dword(got: Option<u32>, e: &Record, what: &str) -> Result<(), String> {
    let got = got.ok_or(format!("{what} was never set"))?;
    let ok = if let Some(u) = int(e, "u32") {
        got == u as u32
    } else if let Some(f) = e.get("f32").and_then(floats) {
        got == f[0].to_bits()
    } else {
        e.get("nonzero").is_none() || got != 0
    };
    if ok {
        Ok(())
    } else {
        Err(format!("{what} = {got:#x} ({}), expected {e:?}", f32::from_bits(got)))
    }
}
