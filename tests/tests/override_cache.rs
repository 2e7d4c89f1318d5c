//! Issue 44's Done-when, on the CPU: for every draw of every case of the conformance run
//! (`cargo xtask conformance --deliver override`: the project's cases and the shared
//! conformance, fixed-function and vkd3d cases), the override path through the cache form gives
//! what the baked path bakes.
//!
//! Each stage is translated as the run translates it ([`pair_keys`], the keys
//! [`gpu_harness::translated::Delivering`] uses) twice: with every mode and constant baked, and
//! with every mode and constant delivered as an override. The override translation goes through
//! the cache form: an [`Artifact`], written as JSON and read back. The comparison:
//!
//! 1. **Values.** The baked translation's minimal key holds exactly what its code bakes (every
//!    field the shader does not read is reset to its default). For each mode whose baked value is
//!    not the default, the stored artifact must declare that mode's override (else the override
//!    path could not carry it) and [`Artifact::pipeline_constants`], given the draw's modes and
//!    constants as a layer gives them, must give the baked value; the same for each boolean
//!    constant baked on and each integer constant baked. A mode the baked code ignores is not
//!    compared: its value changes nothing in either path.
//! 2. **Code through the cache form.** The SPIR-V of the stored artifact under those constants
//!    ([`Artifact::to_spirv_with_constants`]) equals the SPIR-V of the fresh override translation
//!    specialised with them, and has no override left (naga writes no SPIR-V for one).
//!
//! The images of both paths are compared on the GPU by tests/tests/gpu_delivery.rs and the
//! conformance run itself; this test needs no GPU.

use std::path::{Path, PathBuf};

use d3d9_shader::bytecode::Program;
use d3d9_shader::key::Modes;
use d3d9_shader::{translate, Artifact, Delivery, ParseOptions, Shader, ShaderKey, Translation};
use d3d9_tests::{require_shared, shared_dir};
use gpu_harness::case::{case_files, Case};
use gpu_harness::runner::walk::WalkStage;
use gpu_harness::runner::{Runner, ShaderConstants, StageContext, Verdict};
use gpu_harness::translated::{pair_keys, StageInput};

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ lives in the workspace")
}

/// The folders `cargo xtask conformance` draws by default, and the roots its shaders resolve in.
fn case_dirs_and_roots() -> (Vec<PathBuf>, Vec<PathBuf>) {
    let mut dirs = vec![repo().join("shaders/cases")];
    let mut roots = Vec::new();
    if let Some(shared) = shared_dir() {
        for sub in ["conformance", "conformance-ffp", "conformance-vkd3d"] {
            let d = shared.join(sub);
            assert!(d.is_dir() || !require_shared(), "REQUIRE_SHARED=1 but {} is absent", d.display());
            dirs.extend(Some(d).filter(|d| d.is_dir()));
        }
        roots.extend(["corpus", "corpus-vkd3d"].map(|s| shared.join(s)).into_iter().filter(|d| d.is_dir()));
    } else {
        eprintln!("../shared is absent: the project's own cases only");
    }
    roots.push(repo().join("shaders"));
    (dirs, roots)
}

/// The two translations of a stage and what the draw set for it.
struct Stage<'a> {
    program: &'a Program,
    constants: &'a ShaderConstants,
    baked: (ShaderKey, Translation),
    overridden: (Translation, Modes),
}

/// Checks one stage (module documentation); a failure says what differs.
fn check_stage(s: &Stage<'_>) -> Result<(), String> {
    let (overridden, modes) = &s.overridden;
    let shader = Shader::from_program(s.program.clone(), &ParseOptions::default()).map_err(|e| e.to_string())?;
    let mut key = ShaderKey { delivery: d3d9_shader::Deliveries::all(Delivery::Override), ..ShaderKey::default() };
    key.linkage = s.baked.0.linkage.clone();
    let json = serde_json::to_string(&Artifact::new(&shader, &key, overridden).map_err(|e| e.to_string())?)
        .map_err(|e| e.to_string())?;
    let stored: Artifact = serde_json::from_str(&json).map_err(|e| e.to_string())?;
    let bools = s.constants.bool.iter().enumerate().fold(0u16, |m, (n, &b)| m | u16::from(b) << n);
    let ints = &s.constants.int;
    let constants = stored.pipeline_constants(modes, bools, ints);
    // 1. What the baked code bakes, from its minimal key.
    let sig = d3d9_shader::analysis::analyse(s.program);
    let minimal = s.baked.0.minimal(s.program.version, &sig);
    let baked = Modes::from_key(&minimal).map_err(|e| e.to_string())?;
    // The unbound-sampler mask is one value for all samplers: the baked key keeps the bits of
    // the samplers the shader uses, the override carries the draw's whole mask.
    let used = sig.samplers.iter().filter(|t| t.index < 16).fold(0u32, |m, t| m | 1 << t.index);
    for ((name, value), (_, default)) in baked.named().into_iter().zip(Modes::default().named()) {
        let got = constants.get(&name).map(|v| if name == "unbound_samplers" { (v as u32 & used).into() } else { v });
        if value != default && got != Some(f64::from(value)) {
            return Err(format!("mode {name}: baked {value}, override path {:?}", constants.get(&name)));
        }
    }
    if minimal.bool_constants != 0 {
        let on = constants.get("bool_constants").map(|v| v as u16);
        if on.is_none_or(|v| v & minimal.bool_constants != minimal.bool_constants) {
            return Err(format!("bool constants: baked {:#x}, override path {on:?}", minimal.bool_constants));
        }
    }
    for (n, v) in minimal.int_constants.iter().enumerate().filter(|(_, v)| **v != [0; 4]) {
        let names = ["count", "start", "step", "w"].map(|c| format!("int_constant{n}_{c}"));
        let got = names.map(|name| constants.get(&name));
        if got.iter().zip(v).any(|(g, &x)| g.is_some_and(|g| g != f64::from(x))) || got.iter().all(Option::is_none) {
            return Err(format!("i{n}: baked {v:?}, override path {got:?}"));
        }
    }
    // 2. The cache form's SPIR-V is the fresh translation's.
    let state = d3d9_shader::RenderState { modes: *modes, ..Default::default() };
    let fresh = overridden.specialise_with_constants(&state, bools, ints).and_then(|t| t.to_spirv());
    let from_cache = stored.to_spirv_with_constants(modes, bools, ints);
    match (fresh, from_cache) {
        (Ok(a), Ok(b)) if a == b => Ok(()),
        (Ok(_), Ok(_)) => Err("the stored artifact's SPIR-V differs from the translation's".into()),
        (a, b) => Err(format!("SPIR-V: fresh {:?}, stored {:?}", a.err(), b.err())),
    }
}

/// Both translations of a draw's stages, and the check of each.
fn check_draw(vs: WalkStage<'_>, ps: WalkStage<'_>, ctx: &StageContext<'_>) -> Result<(), String> {
    let (vi, pi): (Option<StageInput<'_>>, Option<StageInput<'_>>) =
        (vs.map(|(p, c)| (p, Some(c))), ps.map(|(p, c)| (p, Some(c))));
    let (bv, bp) = pair_keys(vi, pi, ctx, Some(Delivery::Baked));
    let (ov, op) = pair_keys(vi, pi, ctx, Some(Delivery::Override));
    for (stage, baked, overridden, name) in [(vs, bv, ov, "vertex"), (ps, bp, op, "pixel")] {
        let (Some((program, constants)), Some((bk, _)), Some((ok, modes))) = (stage, baked, overridden) else {
            continue;
        };
        let t = |k: &ShaderKey| translate(program, k).map_err(|e| format!("{name}: translating: {e}"));
        let s = Stage { program, constants, baked: (bk.clone(), t(&bk)?), overridden: (t(&ok)?, modes) };
        check_stage(&s).map_err(|e| format!("{name}: {e}"))?;
    }
    Ok(())
}

#[test]
fn the_override_path_through_the_cache_form_gives_the_baked_values_for_every_conformance_case() {
    let (dirs, roots) = case_dirs_and_roots();
    let runner = Runner::without_gpu(None, roots);
    let (mut checked, mut failures) = (0, Vec::new());
    for dir in &dirs {
        for f in case_files(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let case = Case::load(&f).unwrap_or_else(|e| panic!("{e}"));
            let mut visit = |vs: WalkStage<'_>, ps: WalkStage<'_>, ctx: StageContext<'_>| {
                checked += 1;
                check_draw(vs, ps, &ctx)
            };
            match runner.walk_shader_draws(&case, &mut visit) {
                Ok(()) | Err(Verdict::Skip(_)) => {}
                Err(v) => failures.push(format!("{}: {v:?}", f.display())),
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    // The project's own cases alone have dozens of shader draws; the shared ones, thousands.
    assert!(checked >= 20, "only {checked} draws checked");
    eprintln!("{checked} draws checked");
}
