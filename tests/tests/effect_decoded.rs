//! The effect reader against the independent reader's `*.decoded.toml` of `../shared/effects`
//! (unverified, see that folder's README): header counts, every parameter (name, semantic, type,
//! class, rows, columns, elements, flags, value position and default words), every technique,
//! pass and state (operation, index, storage type, constant value), and every object (kind,
//! shader version, string text). The two readers agree on all 34 effects; state names are not
//! compared (the independent reader words some of them differently, e.g. `ALPHAOP (texture
//! stage)` for the texture-stage ALPHAOP).

use d3d9_shader::effect::{Effect, ObjectKind, Parameter, Technique};
use d3d9_tests::{files_with_extension, parse_hex, shared_for_test};

fn words(v: Option<&toml::Value>) -> Option<Vec<u32>> {
    v?.as_array()?.iter().map(|w| u32::from_str_radix(w.as_str()?, 16).ok()).collect()
}

fn compare_parameter(p: &Parameter, d: &toml::Table, out: &mut Vec<String>) {
    let s = |k: &str| d.get(k).and_then(|v| v.as_str()).unwrap_or("").to_string();
    let i = |k: &str| d.get(k).and_then(|v| v.as_integer());
    let name = &p.name;
    let mut check = |what: &str, ours: String, theirs: String| {
        if ours != theirs {
            out.push(format!("parameter {name}: {what}: ours {ours}, theirs {theirs}"));
        }
    };
    check("name", p.name.clone(), s("name"));
    check("semantic", p.semantic.clone(), s("semantic"));
    check("type", p.ty.name().into(), s("type"));
    check("class", p.class.name().into(), s("class"));
    check("elements", p.elements.to_string(), i("elements").unwrap_or(0).to_string());
    check("flags", format!("{:#x}", p.flags), s("flags"));
    if let Some(rows) = i("rows") {
        check("rows", p.rows.to_string(), rows.to_string());
        check("columns", p.columns.to_string(), i("columns").unwrap_or(0).to_string());
    }
    if let Some(at) = i("value_dword") {
        check("value position", (p.value_offset / 4).to_string(), at.to_string());
    }
    if let Some(default) = words(d.get("default")) {
        check("default", format!("{:08x?}", p.value), format!("{default:08x?}"));
    }
    if let Some(objects) = words(d.get("objects"))
        .or_else(|| d.get("objects")?.as_array()?.iter().map(|v| v.as_integer().map(|i| i as u32)).collect())
    {
        check("objects", format!("{:?}", p.value), format!("{objects:?}"));
    }
}

fn compare(effect: &Effect, d: &toml::Table) -> Vec<String> {
    let mut out = Vec::new();
    compare_header(effect, d, &mut out);
    let params = d.get("parameter").and_then(|v| v.as_array()).cloned().unwrap_or_default();
    for (p, dp) in effect.parameters.iter().zip(&params) {
        if let Some(dp) = dp.as_table() {
            compare_parameter(p, dp, &mut out);
        }
    }
    let techs = d.get("technique").and_then(|v| v.as_array()).cloned().unwrap_or_default();
    for (t, dt) in effect.techniques.iter().zip(&techs) {
        if let Some(dt) = dt.as_table() {
            compare_technique(t, dt, &mut out);
        }
    }
    compare_objects(effect, d, &mut out);
    out
}

/// The header's counts and offsets, and the parameter and technique counts.
fn compare_header(effect: &Effect, d: &toml::Table, out: &mut Vec<String>) {
    let header = d.get("header").and_then(|h| h.as_table()).cloned().unwrap_or_default();
    let hi = |k: &str| header.get(k).and_then(|v| v.as_integer()).unwrap_or(-1);
    let h = &effect.header;
    for (what, ours, theirs) in [
        ("parameters", effect.parameters.len() as i64, hi("parameters")),
        ("techniques", effect.techniques.len() as i64, hi("techniques")),
        ("structure offset", h.structure_offset as i64, hi("structure_offset")),
        ("third dword", h.unknown as i64, hi("third_dword")),
        ("object count", h.object_count as i64, hi("object_count")),
        ("inline objects", h.inline_objects as i64, hi("inline_objects")),
        ("resources", h.resources as i64, hi("resources")),
    ] {
        if ours != theirs {
            out.push(format!("header {what}: ours {ours}, theirs {theirs}"));
        }
    }
}

/// A technique's name, and each pass's states: operation, index, type and value.
fn compare_technique(t: &Technique, dt: &toml::Table, out: &mut Vec<String>) {
    if dt.get("name").and_then(|v| v.as_str()) != Some(t.name.as_str()) {
        out.push(format!("technique {}: name differs", t.name));
    }
    let passes = dt.get("pass").and_then(|v| v.as_array()).cloned().unwrap_or_default();
    if passes.len() != t.passes.len() {
        out.push(format!("technique {}: {} passes, theirs {}", t.name, t.passes.len(), passes.len()));
    }
    for (p, dp) in t.passes.iter().zip(&passes) {
        let states = dp.get("states").and_then(|v| v.as_array()).cloned().unwrap_or_default();
        if states.len() != p.states.len() {
            out.push(format!("pass {}: {} states, theirs {}", p.name, p.states.len(), states.len()));
        }
        for (st, ds) in p.states.iter().zip(&states) {
            let op = ds.get("op").and_then(|v| v.as_str()).unwrap_or("");
            let index = ds.get("index").and_then(|v| v.as_integer()).unwrap_or(-1);
            let ty = ds.get("type").and_then(|v| v.as_str()).unwrap_or("");
            let ours = (format!("{:#04x}", st.operation), st.index as i64, st.value.ty.name());
            if ours != (op.to_string(), index, ty) {
                out.push(format!("pass {} state: ours {ours:?}, theirs ({op}, {index}, {ty})", p.name));
            }
            if let Some(v) = words(ds.get("value")) {
                if v != st.value.value {
                    out.push(format!(
                        "pass {} state {}: value {:08x?}, theirs {v:08x?}",
                        p.name,
                        st.name(),
                        st.value.value
                    ));
                }
            }
        }
    }
}

/// Each object the decoding lists: its kind, a shader's version, a string's text.
fn compare_objects(effect: &Effect, d: &toml::Table, out: &mut Vec<String>) {
    for o in d.get("object").and_then(|v| v.as_array()).into_iter().flatten() {
        let id = o.get("id").and_then(|v| v.as_integer()).unwrap_or(-1) as usize;
        let kind = o.get("kind").and_then(|v| v.as_str()).unwrap_or("");
        let ours = effect.objects.get(id).map(|o| &o.kind);
        let agree = match (ours, kind) {
            (Some(ObjectKind::Shader(s)), "shader") => {
                let v = o.get("version").and_then(|v| v.as_str()).unwrap_or("");
                s.version == v || (v.ends_with("_255") && s.version.ends_with("_sw"))
            }
            (Some(ObjectKind::String { text }), "string") => {
                Some(text.as_str()) == o.get("text").and_then(|v| v.as_str())
            }
            // An object without data: the other reader names it after its parameter's type.
            (Some(ObjectKind::Empty), _) => o.get("bytes").and_then(|v| v.as_integer()) == Some(0),
            _ => false,
        };
        if !agree {
            out.push(format!("object {id}: ours {ours:?}, theirs {kind}"));
        }
    }
}

#[test]
fn the_reader_agrees_with_the_independent_decodings() {
    let Some(shared) = shared_for_test("effect_decoded") else { return };
    let dir = shared.join("effects");
    let mut disagreements = Vec::new();
    let files = files_with_extension(&dir, "hex");
    assert_eq!(files.len(), 34);
    for path in files {
        let name = path.to_string_lossy().trim_end_matches(".fx.hex").to_string();
        let text = std::fs::read_to_string(&path).expect("read");
        let bytes: Vec<u8> = parse_hex(&text).expect("hex").iter().flat_map(|w| w.to_le_bytes()).collect();
        let effect = Effect::parse(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let decoded: toml::Table =
            std::fs::read_to_string(format!("{name}.decoded.toml")).expect("decoded").parse().expect("toml");
        for d in compare(&effect, &decoded) {
            disagreements.push(format!("{}: {d}", name.rsplit('/').next().unwrap_or("")));
        }
    }
    assert!(disagreements.is_empty(), "{} disagreements:\n{}", disagreements.len(), disagreements.join("\n"));
}
