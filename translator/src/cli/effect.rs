//! `d3d9-shader effect FILE [--json] [--to wgsl -o DIR]`: an effect's structure, or every shader
//! of it translated plus a `passes.json` of the passes' states and parameter bindings.
//!
//! The JSON of `--json` is the library's [`Effect`] serialised: `header`, `parameters` (name,
//! semantic, class, type, rows, columns, elements, flags, annotations, element_list, members,
//! value words, sampler_states, value_offset), `techniques` (name, annotations, passes with
//! states: operation, index, value, source {kind = constant | parameter | expression |
//! array_selector}), and `objects` (offset, kind = empty | string | shader). `docs/effects.md`
//! describes the fields.

use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::PathBuf;

use clap::Args;
use d3d9_shader::effect::{Effect, ObjectKind, Parameter, StateSource};
use d3d9_shader::ShaderKey;
use serde_json::json;

use super::status::{examples, write_stdout, EXIT_OK, EXIT_REJECTED};

/// `d3d9-shader effect`.
#[derive(Args)]
#[command(
    long_about = "Reads a Direct3D 9 effect (fx_2_0: a raw .fxo/.fxb/.efb, or hex words in a .hex file) \
                  and prints its parameters, techniques, passes, states and objects; --to writes \
                  every shader translated, plus passes.json.",
    after_help = examples!(
        "d3d9-shader effect BasicEffect.fxb"
        "d3d9-shader effect BasicEffect.fxb --json"
        "d3d9-shader effect BasicEffect.fxb --to wgsl -o out/"
        "d3d9-shader effect skin.fxo --skip-constants \"World; Bones\" --to wgsl -o out/"
    )
)]
pub struct EffectArgs {
    /// The effect: a binary, or a .hex file of little-endian words; - for stdin.
    input: String,
    /// The structure as JSON.
    #[arg(long, conflicts_with = "to")]
    json: bool,
    /// Translate every shader to this format (each is also written as .spv) into --output.
    #[arg(long, value_parser = ["wgsl", "spv"], requires = "output")]
    to: Option<String>,
    /// Output folder for --to.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// D3DXCreateEffectEx's skip list ("a;b"): constants the application sets itself. A list
    /// Windows refuses is rejected; the listing says what each technique then uses, passes.json
    /// marks the skipped constant bindings (docs/effects.md#skip-constants).
    #[arg(long, value_name = "LIST")]
    skip_constants: Option<String>,
}

/// Reads an effect file: hex words when it is text of hex digits, else raw bytes.
pub fn load_effect(path: &str) -> Result<(Effect, Vec<u8>), String> {
    let raw = super::input::read_input(path)?;
    let name = super::input::display_name(path);
    let bytes = match std::str::from_utf8(&raw) {
        Ok(text) if path.ends_with(".hex") || looks_like_hex(text) => {
            let words = d3d9_shader::input::parse_hex(text).map_err(|e| format!("{name}: {e}"))?;
            words.iter().flat_map(|w| w.to_le_bytes()).collect()
        }
        _ => raw,
    };
    let effect = Effect::parse(&bytes).map_err(|e| format!("{name}: {e}"))?;
    Ok((effect, bytes))
}

fn looks_like_hex(text: &str) -> bool {
    let t = text.trim_start();
    !t.is_empty() && t.chars().take(64).all(|c| c.is_ascii_hexdigit() || c.is_whitespace() || c == 'x' || c == ',')
}

pub fn main(args: &EffectArgs) -> i32 {
    let (effect, _) = match load_effect(&args.input) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("d3d9-shader: {e}");
            return EXIT_REJECTED;
        }
    };
    let skipped = match args.skip_constants.as_deref().map(|list| effect.skip_constants(list)).transpose() {
        Ok(skipped) => skipped,
        Err(e) => {
            eprintln!("d3d9-shader: {}: {e}", super::input::display_name(&args.input));
            return EXIT_REJECTED;
        }
    };
    if let (Some(format), Some(dir)) = (&args.to, &args.output) {
        return match write_all(&effect, format, dir, skipped.as_ref()) {
            Ok(()) => EXIT_OK,
            Err(e) => {
                eprintln!("d3d9-shader: {e}");
                EXIT_REJECTED
            }
        };
    }
    if args.json {
        return match serde_json::to_string_pretty(&effect) {
            Ok(s) => write_stdout(format!("{s}\n").as_bytes()),
            Err(e) => {
                eprintln!("d3d9-shader: {e}");
                EXIT_REJECTED
            }
        };
    }
    let mut text = summary(&effect);
    if let Some(skipped) = &skipped {
        text.push_str(&skip_summary(&effect, skipped));
    }
    write_stdout(text.as_bytes())
}

/// What an effect created with a skip list leaves to the application, and what each technique
/// still uses (IsParameterUsed).
fn skip_summary(effect: &Effect, skipped: &BTreeSet<String>) -> String {
    let list = |names: &BTreeSet<String>| names.iter().cloned().collect::<Vec<_>>().join(", ");
    let mut out = format!("skip constants: {}\n", list(skipped));
    for (i, t) in effect.techniques.iter().enumerate() {
        let _ = writeln!(out, "technique {} uses: {}", t.name, list(&effect.used_parameters_skipping(i, skipped)));
    }
    out
}

fn describe(p: &Parameter) -> String {
    let mut s = format!("{} {}", p.class.name(), p.ty.name());
    if p.class.is_numeric() {
        let _ = write!(s, " {}x{}", p.rows, p.columns);
    }
    if p.elements > 0 {
        let _ = write!(s, " [{}]", p.elements);
    }
    s
}

fn source_text(s: &StateSource) -> String {
    match s {
        StateSource::Constant => "constant".into(),
        StateSource::Parameter { name } => format!("= {name}"),
        StateSource::Expression { preshader } => format!("preshader ({} instructions)", preshader.instructions.len()),
        StateSource::ArraySelector { name, .. } => format!("= {name}[preshader]"),
    }
}

/// The plain-text listing.
pub fn summary(effect: &Effect) -> String {
    let mut out = String::new();
    let h = &effect.header;
    let _ = writeln!(
        out,
        "fx_2_0: {} parameters, {} techniques, {} objects ({} inline), {} resources",
        effect.parameters.len(),
        effect.techniques.len(),
        h.object_count,
        h.inline_objects,
        h.resources
    );
    for p in &effect.parameters {
        let semantic = if p.semantic.is_empty() { String::new() } else { format!(" : {}", p.semantic) };
        let _ = writeln!(out, "parameter {}{semantic}: {} flags {:#x}", p.name, describe(p), p.flags);
        for a in &p.annotations {
            let _ = writeln!(out, "  @{}: {} {:08x?}", a.name, describe(a), a.value);
        }
        if p.class.is_numeric() && !p.value.is_empty() {
            let _ = writeln!(out, "  default {:08x?}", p.value);
        }
    }
    for t in &effect.techniques {
        let _ = writeln!(out, "technique {} ({} passes)", t.name, t.passes.len());
        for (i, pass) in t.passes.iter().enumerate() {
            let _ = writeln!(out, "  pass {i} {}", pass.name);
            for s in &pass.states {
                let _ =
                    writeln!(out, "    {}[{}] {} {:08x?}", s.name(), s.index, source_text(&s.source), s.value.value);
            }
        }
    }
    for (id, o) in effect.objects.iter().enumerate() {
        match &o.kind {
            ObjectKind::String { text } => {
                let _ = writeln!(out, "object {id}: string {text:?}");
            }
            ObjectKind::Shader(s) => {
                let status = s.error.as_deref().unwrap_or("ok");
                let _ = writeln!(out, "object {id}: {} ({} tokens) {status}", s.version, s.tokens.len());
            }
            ObjectKind::Empty => {}
        }
    }
    out
}

/// Writes every shader (`shader{ID}.{version}.wgsl` and `.spv`) and `passes.json`.
/// `skipped`: the skip list's names, whose constant bindings are marked `"skipped": true`.
fn write_all(
    effect: &Effect,
    format: &str,
    dir: &std::path::Path,
    skipped: Option<&BTreeSet<String>>,
) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))
    };
    let mut files = serde_json::Map::new();
    for (id, s) in effect.shaders() {
        let Some(shader) = &s.shader else {
            files.insert(id.to_string(), json!({ "version": s.version, "error": s.error }));
            continue;
        };
        let stem = format!("shader{id}.{}", s.version);
        let translation = shader.translate(&ShaderKey::default()).map_err(|e| format!("{stem}: {e}"))?;
        let wgsl = translation.to_wgsl().map_err(|e| format!("{stem}: {e}"))?;
        let spirv: Vec<u32> = translation.to_spirv().map_err(|e| format!("{stem}: {e}"))?;
        let spirv: Vec<u8> = spirv.iter().flat_map(|w| w.to_le_bytes()).collect();
        write(&format!("{stem}.wgsl"), wgsl.as_bytes())?;
        write(&format!("{stem}.spv"), &spirv)?;
        let constants: Vec<_> = s
            .constants
            .iter()
            .flat_map(|t| &t.constants)
            .map(|c| {
                let mut binding = json!({ "name": c.name, "register_set": c.register_set.prefix(),
                        "register": c.register_index, "count": c.register_count });
                if skipped.is_some_and(|s| s.contains(&c.name)) {
                    binding["skipped"] = json!(true);
                }
                binding
            })
            .collect();
        let main = if format == "spv" { format!("{stem}.spv") } else { format!("{stem}.wgsl") };
        files.insert(
            id.to_string(),
            json!({ "version": s.version, "file": main, "spirv": format!("{stem}.spv"),
                    "constants": constants, "has_preshader": s.preshader.is_some() }),
        );
    }
    let techniques: Vec<_> = effect
        .techniques
        .iter()
        .map(|t| {
            let passes: Vec<_> = t
                .passes
                .iter()
                .map(|p| {
                    let states: Vec<_> = p
                        .states
                        .iter()
                        .map(|s| {
                            let info = s.info();
                            json!({ "name": s.name(), "class": info.map(|i| i.class),
                                    "code": info.map(|i| i.code), "index": s.index,
                                    "type": s.value.ty, "value": s.value.value, "source": s.source })
                        })
                        .collect();
                    json!({ "name": p.name, "states": states })
                })
                .collect();
            json!({ "name": t.name, "passes": passes })
        })
        .collect();
    let doc = json!({ "schema": "d3d9-shader-passes/1", "shaders": files, "techniques": techniques });
    let text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
    write("passes.json", format!("{text}\n").as_bytes())
}
