//! Tint (Chromium's WGSL compiler) accepts the WGSL of every shader: `../shared/corpus`,
//! `../shared/bench-corpus`, `../shared/real-corpus` (shaders from shipped software),
//! `../shared/real-corpus-xray` (a shipped game's Direct3D 9 renderer) and the
//! project's `shaders/` (the invalid examples excepted, as the other corpus tests skip them),
//! under the default key, under the other float rules, and under render-state variants that
//! together set every key field that changes the WGSL of a stage (`tests/tint.rs` explains how
//! Tint runs). The WGSL is the project's writer's alone (`emit::wgsl_own`: a module it could not
//! write fails rather than going to naga's writer). 0 errors allowed; warnings are listed by kind.
//!
//! Key fields and the variants that set them (`ShaderKey::set` syntax, as the CLI's `--key`):
//! `float_rules` fast and ieee (every shader); pixel shaders: `alpha_func` (never, greaterequal,
//! less, equal), `fog` (vertex, exp, exp2, linear), `fog_source=w`, `flat_shading`, `projected`
//! (count 4 and count 3), `shadow_samplers` (2D and cube), `unbound_samplers`, `fetch4_samplers`, `sampler<N>`
//! (cube, volume); vertex shaders: `clip_planes` (all, and 0 and 7), `swvp`, `flat_shading`,
//! `shadow_samplers`, `unbound_samplers`. `point_size` and `point_sprite` are left out: WGSL has no
//! point-size or point-coordinate built-in, so they are SPIR-V-only keys. `linkage` is checked
//! by the linked pairs (`tint_pairs.rs`).

use std::path::{Path, PathBuf};

use d3d9_shader::analysis::{analyse, Signature};
use d3d9_shader::asm::assemble;
use d3d9_shader::bytecode::{decode, Program, TextureType};
use d3d9_shader::{translate_with, ShaderKey};
use d3d9_tests::tint_check::Checker;
use d3d9_tests::{display_path, files_with_extension, hex_files, is_invalid, parse_hex, shared_for_test};

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ lives in the workspace")
}

/// Every shader file: the shared corpora (when present) and the project's own shaders.
fn shader_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    if let Some(shared) = shared_for_test("tint_shaders") {
        for dir in ["corpus", "bench-corpus", "real-corpus", "real-corpus-xray"] {
            let d = shared.join(dir);
            assert!(d.is_dir(), "{} is missing", d.display());
            files.extend(hex_files(&d));
        }
    }
    for dir in ["asm", "valid"] {
        files.extend(files_with_extension(&repo().join("shaders").join(dir), "asm"));
    }
    files.into_iter().filter(|p| !is_invalid(p)).collect()
}

fn load(path: &Path) -> Result<Program, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    if path.extension().is_some_and(|x| x == "asm") {
        assemble(&text).map_err(|e| format!("assemble: {e}"))
    } else {
        decode(&parse_hex(&text)?).map_err(|e| format!("decode: {e}"))
    }
}

/// The mask of samplers whose (declared, or for Shader Model 1 default) type is in `types`.
fn sampler_mask(sig: &Signature, types: &[TextureType]) -> u16 {
    sig.samplers
        .iter()
        .filter(|s| s.index < 16 && types.contains(&s.texture_type.unwrap_or(TextureType::Tex2D)))
        .fold(0, |m, s| m | 1 << s.index)
}

/// The key variants of a shader, each as `FIELD=VALUE` assignments.
fn variants(program: &Program, sig: &Signature) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = vec![vec![], vec!["float_rules=fast".into()], vec!["float_rules=ieee".into()]];
    let shadow_2d = format!("shadow_samplers={:#x}", sampler_mask(sig, &[TextureType::Tex2D]));
    let retyped =
        |ty: &str| -> Vec<String> { sig.samplers.iter().map(|s| format!("sampler{}={ty}", s.index)).collect() };
    let own = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    if program.version.is_pixel() {
        out.push(own(&[
            "alpha_func=never",
            "fog=vertex",
            "flat_shading=1",
            "projected=0xff",
            "fetch4_samplers=0xffff",
        ]));
        let mut v = own(&["alpha_func=greaterequal", "fog=exp", "fog_source=w", "float_rules=fast"]);
        v.push(shadow_2d);
        v.extend((0..8).map(|n| format!("projected{n}=3")));
        out.push(v);
        out.push(own(&["alpha_func=less", "fog=exp2", "unbound_samplers=0xffff", "float_rules=ieee"]));
        // Cube shadow maps compare with the coordinate's w (shaders/cases/README.md).
        let mut v = own(&["alpha_func=equal", "fog=linear", "shadow_samplers=0xffff"]);
        v.extend(retyped("cube"));
        out.push(v);
        out.push(retyped("volume"));
    } else {
        let mut v = own(&["clip_planes=0xff", "swvp=1", "flat_shading=1"]);
        v.push(shadow_2d);
        out.push(v);
        out.push(own(&["clip_planes=0x81", "unbound_samplers=0xffff", "float_rules=fast"]));
    }
    out.dedup();
    out
}

fn key_of(assignments: &[String]) -> ShaderKey {
    let mut key = ShaderKey::default();
    for a in assignments {
        key.set(a).unwrap_or_else(|e| panic!("variant `{a}`: {e}"));
    }
    key
}

fn label(path: &Path, assignments: &[String]) -> String {
    let key = if assignments.is_empty() { "default key".to_string() } else { assignments.join(" ") };
    format!("{} [{key}]", display_path(path))
}

#[test]
fn tint_accepts_the_wgsl_of_every_shader_under_every_key_variant() {
    let Some(mut checker) = Checker::for_test("tint_accepts_the_wgsl_of_every_shader_under_every_key_variant") else {
        return;
    };
    let start = std::time::Instant::now();
    let files = shader_files();
    for path in &files {
        let program = match load(path) {
            Ok(p) => p,
            Err(e) => {
                checker.fail(display_path(path), e);
                continue;
            }
        };
        let sig = analyse(&program);
        for assignments in variants(&program, &sig) {
            let label = label(path, &assignments);
            let wgsl = translate_with(&program, &sig, &key_of(&assignments))
                .map_err(|e| format!("translate: {e}"))
                // The project's writer alone (no fallback to naga's): it must write every variant.
                .and_then(|t| d3d9_shader::emit::wgsl_own(&t.module, t.facts()).map_err(|e| format!("WGSL: {e}")));
            match wgsl {
                Ok(code) => {
                    let stage = if program.version.is_pixel() { "pixel" } else { "vertex" };
                    checker.module(label, stage, code).expect("the Tint checker")
                }
                Err(e) => checker.fail(label, e),
            }
        }
    }
    let failures = checker.finish("shaders × key variants").expect("the Tint checker");
    eprintln!("tint_shaders: {} files in {:.1} s", files.len(), start.elapsed().as_secs_f64());
    assert!(files.len() > 100, "only {} shader files found", files.len());
    assert!(failures.is_empty(), "Tint refused {} translations (first above)", failures.len());
}
