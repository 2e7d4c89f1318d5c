//! Name look-ups (`[[lookup]]`), IsParameterUsed (`[[used]]`) and the skip list of
//! D3DXCreateEffectEx, checked against an effect.

use d3d9_shader::effect::runtime::EffectRuntime;
use d3d9_shader::effect::{Effect, Handle, Store};

type Record = toml::Table;

/// A handle as the D3DX API gives them out.
#[derive(Clone, Debug, PartialEq)]
enum H {
    Param(Handle),
    Technique(usize),
    Pass(usize, usize),
    /// A node of a technique's (pass `None`) or a pass's annotation store.
    Annotation(usize, Option<usize>, Handle),
}

struct Ctx<'e> {
    effect: &'e Effect,
    store: Store,
}

impl Ctx<'_> {
    fn annotations(&self, t: usize, p: Option<usize>) -> Store {
        let tech = &self.effect.techniques[t];
        match p {
            None => Store::new(&tech.annotations),
            Some(p) => Store::new(&tech.passes[p].annotations),
        }
    }

    /// A string given where a handle is expected: a parameter's full name, else a technique's.
    fn by_string(&self, s: &str) -> Option<H> {
        if let Some(h) = self.store.lookup(None, s) {
            return Some(H::Param(h));
        }
        self.effect.technique(s).map(H::Technique)
    }

    fn parent(&self, v: Option<&toml::Value>) -> Result<Option<H>, ()> {
        match v {
            None => Ok(None),
            Some(toml::Value::String(s)) => self.by_string(s).map(Some).ok_or(()),
            Some(toml::Value::Table(t)) => self.call(t).map(Some).ok_or(()),
            Some(_) => Err(()),
        }
    }

    fn annotation_by_name(&self, parent: &H, name: &str) -> Option<H> {
        let end = name.find(['.', '[', '@']).unwrap_or(name.len());
        let (first, rest) = name.split_at(end);
        match parent {
            H::Param(h) => {
                let a = self.store.annotation(*h, first)?;
                self.below(&self.store, a, rest).map(H::Param)
            }
            H::Technique(t) | H::Pass(t, _) => {
                let p = if let H::Pass(_, p) = parent { Some(*p) } else { None };
                let s = self.annotations(*t, p);
                let a = s.top_by_name(first)?;
                self.below(&s, a, rest).map(|h| H::Annotation(*t, p, h))
            }
            H::Annotation(..) => None,
        }
    }

    fn below(&self, s: &Store, h: Handle, rest: &str) -> Option<Handle> {
        if rest.is_empty() {
            return Some(h);
        }
        let full = format!("{}{rest}", s.node(h).full_name);
        s.lookup(None, &full)
    }

    fn call(&self, r: &toml::Table) -> Option<H> {
        let parent = self.parent(r.get("parent")).ok()?;
        let name = r.get("name").and_then(|v| v.as_str());
        let index = r.get("index").and_then(|v| v.as_integer()).map(|i| i as usize);
        match r.get("call")?.as_str()? {
            "GetParameterByName" => match (parent, name) {
                (p, None) => p,
                (None, Some(n)) => self.store.lookup(None, n).map(H::Param),
                (Some(H::Param(p)), Some(n)) => self.store.lookup(Some(p), n).map(H::Param),
                _ => None,
            },
            "GetParameterElement" => match parent? {
                H::Param(p) => self.store.element(p, index?).map(H::Param),
                H::Annotation(t, pass, a) => {
                    self.annotations(t, pass).element(a, index?).map(|h| H::Annotation(t, pass, h))
                }
                _ => None,
            },
            "GetAnnotationByName" => self.annotation_by_name(&parent?, name?),
            "GetAnnotation" => match parent? {
                H::Param(p) => self.store.node(p).annotations.get(index?).copied().map(H::Param),
                H::Technique(t) => {
                    let s = self.annotations(t, None);
                    s.top_level.get(index?).map(|&h| H::Annotation(t, None, h))
                }
                H::Pass(t, p) => {
                    let s = self.annotations(t, Some(p));
                    s.top_level.get(index?).map(|&h| H::Annotation(t, Some(p), h))
                }
                H::Annotation(..) => None,
            },
            "GetTechniqueByName" => self.effect.technique(name?).map(H::Technique),
            "GetCurrentTechnique" => (!self.effect.techniques.is_empty()).then_some(H::Technique(0)),
            "GetPass" => match parent? {
                H::Technique(t) => (index? < self.effect.techniques[t].passes.len()).then_some(H::Pass(t, index?)),
                _ => None,
            },
            "GetPassByName" => match parent? {
                H::Technique(t) => self.effect.techniques[t]
                    .passes
                    .iter()
                    .position(|p| p.name == name.unwrap_or(""))
                    .map(|p| H::Pass(t, p)),
                _ => None,
            },
            _ => None,
        }
    }
}

pub fn check_lookup(effect: &Effect, r: &Record) -> Result<(), String> {
    let ctx = Ctx { effect, store: Store::new(&effect.parameters) };
    let call = r.get("call").and_then(|v| v.as_str()).unwrap_or("");
    if call == "SetFloat" {
        let name = r.get("name").and_then(|v| v.as_str()).unwrap_or("");
        let mut rt = EffectRuntime::new(effect);
        let ok = rt.handle(name).ok().filter(|&h| rt.store.node(h).class.is_numeric()).is_some_and(|h| {
            let one = rt.store.node(h).len == 1;
            one && rt.set_floats(h, &[0.0]).is_ok()
        });
        let got = if ok { "D3D_OK" } else { "D3DERR_INVALIDCALL" };
        let want = r.get("result").and_then(|v| v.as_str()).unwrap_or("D3D_OK");
        return if got == want { Ok(()) } else { Err(format!("SetFloat({name:?}) gives {got}, expected {want}")) };
    }
    let found = ctx.call(r);
    let want = r.get("found").and_then(|v| v.as_bool()).unwrap_or(true);
    if found.is_some() != want {
        return Err(format!("found = {}, expected {want} (got {found:?})", found.is_some()));
    }
    if let (Some(h), Some(same)) = (&found, r.get("same_as").and_then(|v| v.as_str())) {
        let other = ctx.by_string(same);
        let other = other.or_else(|| {
            // `t@a`-style names of technique annotations.
            let (t, a) = same.split_once('@')?;
            ctx.annotation_by_name(&ctx.by_string(t)?, a)
        });
        if other.as_ref() != Some(h) {
            return Err(format!("handle {h:?} is not the one of {same:?} ({other:?})"));
        }
    }
    Ok(())
}

pub fn check_used(effect: &Effect, r: &Record, setup: &[crate::effects_setup::Step]) -> Result<(), String> {
    let t = r.get("technique").and_then(|v| v.as_str()).unwrap_or("");
    let t = effect.technique(t).ok_or(format!("no technique {t:?}"))?;
    let name = r.get("name").and_then(|v| v.as_str()).unwrap_or("");
    let store = Store::new(&effect.parameters);
    let h = store.lookup(None, name).ok_or(format!("no parameter {name:?}"))?;
    // The setup's skip list, or the record's own `skip_constants` (this project's records).
    let list = crate::effects_setup::skip_list(setup).or_else(|| r.get("skip_constants").and_then(|v| v.as_str()));
    let skipped = match list {
        Some(list) => effect.skip_constants(list).map_err(|e| format!("skip list {list:?} is refused: {e}"))?,
        None => Default::default(),
    };
    let used = effect.used_parameters_skipping(t, &skipped);
    // Only top-level parameters report TRUE; elements and members below report FALSE.
    let got = store.node(h).top == h && used.contains(&store.node(h).name);
    let want = r.get("used").and_then(|v| v.as_bool()).unwrap_or(false);
    if got != want {
        return Err(format!("IsParameterUsed({name:?}) = {got}, expected {want}"));
    }
    Ok(())
}

/// D3DXCreateEffectEx's result for a skip list (docs/effects.md#skip-constants).
pub fn skip_result(effect: &Effect, list: &str) -> &'static str {
    match effect.skip_constants(list) {
        Ok(_) => "D3D_OK",
        Err(_) => "D3DERR_INVALIDCALL",
    }
}
