//! The C API from C: builds the C programs of tests/c and examples/ with the system's `cc`
//! under AddressSanitizer (LeakSanitizer included), linked with the static library cargo built
//! for this test, and runs them:
//!
//! - `errors.c`: every error path returns its documented code;
//! - `api.c`: reflection, linkage, keys, overrides and threads give what the D3D9 rules say;
//! - `corpus.c`: every shader of `shaders/` and `../shared/corpus` translated through C gives
//!   the same WGSL and SPIR-V bytes (or the same failure status) as through Rust;
//! - `mutate.c`: truncated and bit-flipped blobs return documented codes, never a panic;
//! - `effects.c`: every effect of `../shared/effects` lists the same techniques, passes and
//!   stored shaders (each translated, its WGSL hashed) through C as through Rust;
//! - `handles.c`: bad effect handles (a parameter handle, technique or pass index past the
//!   effect's, or another effect's handle) answer `BAD_HANDLE` naming them, never a panic;
//! - `constants.c`: keys with the boolean and integer constants baked and as overrides give
//!   Rust's WGSL and pipeline constants, and a key of the first layout is still read;
//! - `ffp.c`: fixed-function pairs of a few states, keyed and uniform-driven, give the same
//!   WGSL, SPIR-V and state blocks through C as through Rust;
//! - `examples/translate.c` on one shader, linked statically, and again from an installed
//!   prefix through pkg-config and the shared library, and through the CMake package with
//!   each library.
//!
//! Skips (with a message) when there is no `cc` (or `pkg-config`, `cmake` for the install
//! tests), unless `REQUIRE_TOOLS=1`; `../shared` is
//! skipped when absent unless `REQUIRE_SHARED=1`. `ASAN_OPTIONS` is passed through (set
//! `detect_leaks=0` only where ptrace restrictions stop LeakSanitizer).

use std::path::{Path, PathBuf};
use std::process::Command;

use d3d9_shader::{ParseOptions, Shader, ShaderKey};

fn capi_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn env_is(name: &str) -> bool {
    std::env::var_os(name).is_some_and(|v| v == "1")
}

/// The static library cargo built for this test (the same unit as the rlib it links): beside
/// the test binary in `target/PROFILE/deps` (cargo copies it up to `target/PROFILE` only for
/// `cargo build`, so the copy there may be older).
fn static_lib() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let lib = exe.parent().expect("target/PROFILE/deps").join("libd3d9_shader_capi.a");
    assert!(lib.is_file(), "{} is missing: cargo builds it with the test (crate-type staticlib)", lib.display());
    lib
}

fn have_cc() -> bool {
    let ok = Command::new("cc").arg("--version").output().is_ok_and(|o| o.status.success());
    assert!(ok || !env_is("REQUIRE_TOOLS"), "REQUIRE_TOOLS=1 but there is no `cc`");
    if !ok {
        eprintln!("c_api: SKIPPED: no `cc` on PATH");
    }
    ok
}

/// The system libraries a static link needs: the `Libs.private` of the pkg-config template, so
/// that the template says what this test proves.
fn private_libs() -> Vec<String> {
    let template = std::fs::read_to_string(capi_dir().join("d3d9_shader.pc.in")).expect("d3d9_shader.pc.in");
    let line = template.lines().find_map(|l| l.strip_prefix("Libs.private:")).expect("a Libs.private line");
    line.split_whitespace().map(String::from).collect()
}

/// Compiles `sources` into `out` with ASan, linked with the static library and what Rust's
/// standard library needs from the system.
fn compile(sources: &[&Path], out: &Path) {
    let mut cc = Command::new("cc");
    cc.args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-g", "-O1"])
        .args(["-fsanitize=address", "-fno-omit-frame-pointer"])
        .arg("-I")
        .arg(capi_dir().join("include"))
        .args(sources)
        .arg(static_lib())
        .args(private_libs())
        .arg("-o")
        .arg(out);
    let result = cc.output().expect("run cc");
    assert!(result.status.success(), "cc failed for {sources:?}:\n{}", String::from_utf8_lossy(&result.stderr));
}

/// Runs a compiled program; its output on failure.
fn run(program: &Path, args: &[&Path]) -> String {
    let result = Command::new(program).args(args).output().expect("run the C program");
    let text = format!("{}{}", String::from_utf8_lossy(&result.stdout), String::from_utf8_lossy(&result.stderr));
    assert!(result.status.success(), "{} failed:\n{text}", program.display());
    text
}

fn c_test(name: &str) -> PathBuf {
    capi_dir().join("tests/c").join(name)
}

#[test]
fn c_programs_pass_under_address_sanitizer() {
    if !have_cc() {
        return;
    }
    let tmp = tempfile::tempdir().expect("a temporary folder");
    for name in ["errors", "api"] {
        let exe = tmp.path().join(name);
        compile(&[&c_test(&format!("{name}.c"))], &exe);
        println!("{}", run(&exe, &[]).trim());
    }
}

/// `handles.c` on the library's sample effect: every run-time call that takes a parameter
/// handle, a technique or a pass answers `BAD_HANDLE` naming it for one past the effect's.
#[test]
fn c_bad_effect_handles_are_refused_by_name() {
    if !have_cc() {
        return;
    }
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let sample = tmp.path().join("sample.fx");
    std::fs::write(&sample, d3d9_shader::fuzz::sample_effect()).expect("write the sample effect");
    let exe = tmp.path().join("handles");
    compile(&[&c_test("handles.c")], &exe);
    println!("{}", run(&exe, &[&sample]).trim());
}

/// The shader of `constants.c`: reads `b1` (`if b1`) and `i2` (`rep i2`) from the application.
const CONSTANTS_VS: &str = "vs_3_0\ndcl_position v0\ndcl_position o0\nmov r0, v0\nif b1\nadd r0, r0, v0\nendif\n\
                            rep i2\nadd r0, r0, v0\nendrep\nmov o0, r0\n";

/// `constants.c`'s key in Rust: both constants delivered by `d`, `b0` and `b1` TRUE, `i2` =
/// (3, 0, 1, 0).
fn constants_key(d: d3d9_shader::Delivery) -> ShaderKey {
    let mut key = ShaderKey::default();
    (key.delivery.bool_constants, key.delivery.int_constants) = (d, d);
    key.set_constants(&[true, true], &[[0; 4], [0; 4], [3, 0, 1, 0]]);
    key
}

/// A C caller sets the constants' deliveries and values and gets Rust's WGSL for the same key;
/// a key of the first layout (no constants) is read with their defaults.
#[test]
fn c_keys_with_constants_are_rusts() {
    use d3d9_shader::key::state_block::Modes;
    use d3d9_shader::{Delivery, RenderState};
    if !have_cc() {
        return;
    }
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let asm = tmp.path().join("vs.asm");
    std::fs::write(&asm, CONSTANTS_VS).expect("write the shader");
    let exe = tmp.path().join("constants");
    compile(&[&c_test("constants.c")], &exe);
    println!("{}", run(&exe, &[&asm, tmp.path()]).trim());
    let shader = Shader::from_asm(CONSTANTS_VS, &ParseOptions::default()).expect("the shader assembles");
    let wgsl = |key: &ShaderKey| shader.translate(key).and_then(|t| Ok(t.to_wgsl()?)).expect("translate");
    let read = |name: &str| std::fs::read_to_string(tmp.path().join(name)).expect(name);
    let baked = read("baked.wgsl");
    assert_eq!(baked, wgsl(&constants_key(Delivery::Baked)));
    // The first layout's key is the default key: the constants read from their buffers.
    assert_eq!(read("v1.wgsl"), wgsl(&ShaderKey::default()));
    assert_ne!(baked, read("v1.wgsl"));
    // Override delivery: b0 and b1 TRUE is 3; i2's count 3, start 0, step 1, w 0.
    let key = constants_key(Delivery::Override);
    let t = shader.translate(&key).expect("translate with overrides");
    let listed = read("override.txt");
    let mut names = Vec::new();
    for line in listed.lines() {
        let (name, value) = line.split_once(' ').expect("NAME VALUE");
        let want = match name {
            "bool_constants" => 3.0,
            "int_constant2_count" => 3.0,
            "int_constant2_step" => 1.0,
            _ => 0.0,
        };
        assert_eq!(value.parse::<f64>().ok(), Some(want), "{line}");
        names.push(name.to_string());
    }
    let declared = t.overrides();
    assert_eq!(names, declared);
    assert!(names.iter().any(|n| n == "bool_constants") && names.iter().any(|n| n == "int_constant2_count"));
    let state = RenderState {
        modes: Modes::from_key(&key).expect("the render-state modes are baked"),
        ..RenderState::default()
    };
    let specialised = t.specialise_with_constants(&state, key.bool_constants, &key.int_constants).expect("specialise");
    assert_eq!(read("specialised.wgsl"), specialised.to_wgsl().expect("WGSL"));
}

/// The shared data folder (`D3D9_SHARED`, else `../shared` from the repository root).
fn shared_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("D3D9_SHARED") {
        Some(p) => PathBuf::from(p),
        None => capi_dir().parent()?.parent()?.join("shared"),
    };
    if dir.join("corpus").is_dir() {
        return Some(dir);
    }
    assert!(!env_is("REQUIRE_SHARED"), "REQUIRE_SHARED=1 but {} has no corpus", dir.display());
    eprintln!("c_api: {} is absent; the corpus comparison covers shaders/ only", dir.display());
    None
}

fn shader_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            shader_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "asm" || e == "hex") {
            out.push(p);
        }
    }
}

/// A translation's WGSL and SPIR-V bytes.
type Outputs = (Vec<u8>, Vec<u8>);

/// What parsing and translating `blob` under the default key gives through Rust: the status the
/// C API documents for it, and the WGSL and SPIR-V bytes on success.
fn through_rust(blob: &[u8]) -> (i32, Option<Outputs>) {
    use d3d9_shader::Error;
    let shader = match Shader::parse(blob, &ParseOptions::default()) {
        Ok(s) => s,
        Err(Error::Invalid { .. }) => return (5, None),
        Err(_) => return (4, None),
    };
    let outputs = shader.translate(&ShaderKey::default()).and_then(|t| {
        let wgsl = t.to_wgsl()?.into_bytes();
        Ok((wgsl, t.to_spirv_bytes()?))
    });
    match outputs {
        Ok(o) => (0, Some(o)),
        Err(_) => (6, None),
    }
}

/// Writes each shader's blob and Rust's outputs, and the list `corpus.c` reads.
fn write_corpus(tmp: &Path) -> (PathBuf, usize) {
    let root = capi_dir().parent().expect("the repository root");
    let mut files = Vec::new();
    shader_files(&root.join("shaders"), &mut files);
    if let Some(shared) = shared_dir() {
        shader_files(&shared.join("corpus"), &mut files);
    }
    let mut list = String::new();
    let mut n = 0;
    for path in &files {
        let bytes = std::fs::read(path).expect("read a shader");
        // Files that do not load (assembly the assembler refuses) have no blob to compare.
        let Ok(loaded) = d3d9_shader::input::load(&bytes, &path.to_string_lossy()) else { continue };
        for shader in loaded {
            let blob: Vec<u8> = shader.tokens.iter().flat_map(|t| t.to_le_bytes()).collect();
            let base = tmp.join(format!("{n}"));
            let blob_path = base.with_extension("bin");
            std::fs::write(&blob_path, &blob).expect("write a blob");
            let (status, outputs) = through_rust(&blob);
            let (wgsl, spv) = (base.with_extension("wgsl"), base.with_extension("spv"));
            let dash = Path::new("-");
            let (w, s) = match outputs {
                Some((w, s)) => {
                    std::fs::write(&wgsl, w).expect("write WGSL");
                    std::fs::write(&spv, s).expect("write SPIR-V");
                    (wgsl.as_path(), spv.as_path())
                }
                None => (dash, dash),
            };
            list.push_str(&format!("{status} {} {} {}\n", blob_path.display(), w.display(), s.display()));
            n += 1;
        }
    }
    let list_path = tmp.join("list.txt");
    std::fs::write(&list_path, list).expect("write the list");
    (list_path, n)
}

#[test]
fn c_translations_are_rusts_byte_for_byte() {
    if !have_cc() {
        return;
    }
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let (list, n) = write_corpus(tmp.path());
    assert!(n > 100, "only {n} shaders found under shaders/");
    let exe = tmp.path().join("corpus");
    compile(&[&c_test("corpus.c")], &exe);
    println!("{}", run(&exe, &[&list]).trim());
    // Damaged versions of the first blobs: truncations and bit flips return documented codes.
    let exe = tmp.path().join("mutate");
    compile(&[&c_test("mutate.c")], &exe);
    println!("{}", run(&exe, &[&list, Path::new(MUTATED_BLOBS)]).trim());
}

/// How many blobs of the list `mutate.c` damages (a few seconds under ASan).
const MUTATED_BLOBS: &str = "300";

#[test]
fn the_translate_example_writes_wgsl_and_spirv() {
    if !have_cc() {
        return;
    }
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let exe = tmp.path().join("translate");
    compile(&[&capi_dir().join("examples/translate.c")], &exe);
    let shader =
        Shader::from_asm("ps_2_0\ndcl_2d s0\ndcl t0\ntexld r0, t0, s0\nmov oC0, r0\n", &ParseOptions::default())
            .expect("the example's shader assembles");
    let blob: Vec<u8> = shader.tokens().iter().flat_map(|t| t.to_le_bytes()).collect();
    let (input, wgsl) = (tmp.path().join("ps.bin"), tmp.path().join("ps.wgsl"));
    std::fs::write(&input, &blob).expect("write the blob");
    let printed = run(&exe, &[&input, &wgsl]);
    let t = shader.translate(&ShaderKey::default()).expect("translate");
    assert_eq!(std::fs::read_to_string(&wgsl).expect("the WGSL"), t.to_wgsl().expect("WGSL"));
    let spv = std::fs::read(tmp.path().join("ps.spv")).expect("the SPIR-V beside it");
    assert_eq!(spv, t.to_spirv_bytes().expect("SPIR-V"));
    // The reflection it prints: the version and the sampler s0 of type 2D.
    assert!(printed.contains("ps_2_0") && printed.contains("s0"), "{printed}");
}

/// FNV-1a 64 (offset basis 0xcbf29ce484222325, prime 0x100000001b3), as `effects.c` hashes.
fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The listing `effects.c` prints for one effect, made through the Rust API.
fn effect_listing(blob: &[u8]) -> String {
    use d3d9_shader::effect::Effect;
    let Ok(effect) = Effect::parse(blob) else { return "effect refused 9\n".into() };
    let shaders: Vec<_> = effect.shaders().collect();
    let mut out = format!("effect {} {} {}\n", effect.techniques.len(), effect.parameters.len(), shaders.len());
    for t in &effect.techniques {
        out += &format!("technique {} {}\n", t.name, t.passes.len());
        for p in &t.passes {
            out += &format!("pass {}\n", p.name);
        }
    }
    for (id, s) in shaders {
        let blob: Vec<u8> = s.tokens.iter().flat_map(|t| t.to_le_bytes()).collect();
        let (status, hash) = match through_rust(&blob) {
            (0, Some((wgsl, _))) => (0, fnv1a64(&wgsl)),
            (status, _) => (status, 0),
        };
        out += &format!("shader {id} {} {status} {hash:016x}\n", s.version);
    }
    out + &pass_listing(&effect)
}

/// One applied state as `effects.c` prints it.
fn state_line(s: &d3d9_shader::effect::runtime::AppliedState, indent: &str) -> String {
    use d3d9_shader::effect::runtime::StateValue;
    let none = u32::MAX;
    let (kind, words, object, parameter, subs): (u32, &[u32], u32, u32, usize) = match &s.value {
        StateValue::Words { words, .. } => (0, words, none, none, 0),
        StateValue::Shader { object } => (1, &[], object.map_or(none, |o| o as u32), none, 0),
        StateValue::Texture { parameter } => (2, &[], none, parameter.map_or(none, |h| h.0), 0),
        StateValue::Sampler { states } => (3, &[], none, none, states.len()),
    };
    let mut line = format!("{indent}state {} {} {} {} {kind} {}", s.name, s.class as u32, s.code, s.index, words.len());
    for w in words {
        line += &format!(" {w:08x}");
    }
    line + &format!(" {object} {parameter} {subs}\n")
}

/// Technique 0 through the Rust run-time, as `effects.c` prints it (10 is the C API's
/// `D3D9S_STATUS_EFFECT_REFUSED`).
fn pass_listing(effect: &d3d9_shader::effect::Effect) -> String {
    use d3d9_shader::effect::runtime::StateValue;
    let mut rt = d3d9_shader::effect::EffectRuntime::new(effect);
    let mut out = String::new();
    let m = [2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 1.0, 2.0, 3.0, 1.0];
    for name in ["World", "WorldViewProj", "WorldViewProjection", "View", "Projection"] {
        if let Ok(h) = rt.handle(name) {
            out += &format!("set {name} {}\n", if rt.set_floats(h, &m).is_ok() { 0 } else { 10 });
        }
    }
    let passes = rt.begin().unwrap_or(0);
    let none = |s: Option<Option<usize>>| (u32::from(s.is_some()), s.flatten().map_or(u32::MAX, |o| o as u32));
    for p in 0..passes {
        let Ok(ps) = rt.begin_pass(p) else {
            out += &format!("begin_pass {p} refused 10\n");
            continue;
        };
        let ((svs, vs), (sps, pxs)) = (none(ps.vertex_shader), none(ps.pixel_shader));
        let count = |c: &d3d9_shader::effect::runtime::Constants| c.float.len() + c.int.len() + c.bool.len();
        out += &format!(
            "begin_pass {p}: {} {svs} {vs} {sps} {pxs} {} {} {} {} {}\n",
            ps.states.len(),
            ps.lights.len(),
            ps.errors.len(),
            count(&ps.vertex_constants),
            count(&ps.pixel_constants),
            u32::from(ps.material.is_some())
        );
        for s in &ps.states {
            out += &state_line(s, "");
            if let StateValue::Sampler { states } = &s.value {
                for sub in states {
                    out += &state_line(sub, "  ");
                }
            }
        }
        for (stage, c) in [(0, &ps.vertex_constants), (1, &ps.pixel_constants)] {
            let words = |v: [u32; 4]| format!("{:08x} {:08x} {:08x} {:08x}", v[0], v[1], v[2], v[3]);
            for (reg, v) in &c.float {
                out += &format!("c {stage} 0 {reg} {}\n", words(*v));
            }
            for (reg, v) in &c.int {
                out += &format!("c {stage} 1 {reg} {}\n", words(v.map(|x| x as u32)));
            }
            for (reg, b) in &c.bool {
                out += &format!("c {stage} 2 {reg} {}\n", words([u32::from(*b), 0, 0, 0]));
            }
        }
        for (n, w) in &ps.lights {
            out += &format!("light {n}{}\n", w.iter().map(|x| format!(" {x:08x}")).collect::<String>());
        }
        if let Some(m) = &ps.material {
            out += &format!("material{}\n", m.iter().map(|x| format!(" {x:08x}")).collect::<String>());
        }
        for e in &ps.errors {
            out += &format!("error {e}\n");
        }
        out += &format!("end_pass {}\n", if rt.end_pass().is_ok() { 0 } else { 10 });
    }
    out
}

#[test]
fn c_effects_list_what_rust_lists() {
    if !have_cc() {
        return;
    }
    let Some(shared) = shared_dir() else { return };
    let mut files = Vec::new();
    shader_files(&shared.join("effects"), &mut files);
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let (mut list, mut expected) = (String::new(), String::new());
    for (n, path) in files.iter().filter(|p| p.to_string_lossy().ends_with(".fx.hex")).enumerate() {
        let text = std::fs::read_to_string(path).expect("read an effect");
        let words = d3d9_shader::input::parse_hex(&text).expect("hex words");
        let blob: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let blob_path = tmp.path().join(format!("{n}.fx"));
        std::fs::write(&blob_path, &blob).expect("write an effect blob");
        list += &format!("{}\n", blob_path.display());
        expected += &effect_listing(&blob);
    }
    assert!(!list.is_empty(), "no effects under {}", shared.join("effects").display());
    let list_path = tmp.path().join("effects.txt");
    std::fs::write(&list_path, list).expect("write the list");
    let exe = tmp.path().join("effects");
    compile(&[&c_test("effects.c")], &exe);
    let result = Command::new(&exe).arg(&list_path).output().expect("run effects");
    assert!(result.status.success(), "effects failed:\n{}", String::from_utf8_lossy(&result.stderr));
    let got = String::from_utf8_lossy(&result.stdout);
    assert!(got == expected, "the C listing differs from Rust's:\n--- C\n{got}\n--- Rust\n{expected}");
    for what in ["\nset World 0\n", "\nbegin_pass 0: ", "\nc 0 ", "\n  state "] {
        assert!(expected.contains(what), "the effects never give `{}`", what.trim());
    }
    let translated = expected.lines().filter(|l| l.starts_with("shader ") && !l.ends_with(" 0000000000000000")).count();
    assert!(translated > 0, "no effect shader translated:\n{expected}");
    println!("effects: {} lines agree, {translated} shaders translated", got.lines().count());
}

/// Fixed-function states for `ffp.c`: textured with a spot light (the CLI's test state), table
/// fog with the alpha test, and pretransformed vertices with two stages.
const FFP_STATES: [&str; 3] = [
    "fvf = \"D3DFVF_XYZ | D3DFVF_NORMAL | D3DFVF_TEX1\"\n[render_states]\nLIGHTING = true\n[[light]]\ntype = \"SPOT\"\n\
     [[texture]]\nstage = 0\ntype = \"2d\"\n[[texture_stage]]\nstage = 0\nCOLOROP = \"MODULATE2X\"\n",
    "fvf = \"D3DFVF_XYZ | D3DFVF_DIFFUSE\"\n[render_states]\nLIGHTING = false\nFOGENABLE = true\n\
     FOGTABLEMODE = \"LINEAR\"\nALPHATESTENABLE = true\nALPHAFUNC = \"GREATER\"\n",
    "fvf = \"D3DFVF_XYZRHW | D3DFVF_DIFFUSE | D3DFVF_TEX2\"\n[render_states]\nLIGHTING = false\n\
     [[texture]]\nstage = 0\ntype = \"2d\"\n[[texture]]\nstage = 1\ntype = \"cube\"\n\
     [[texture_stage]]\nstage = 0\nCOLOROP = \"MODULATE\"\n[[texture_stage]]\nstage = 1\nCOLOROP = \"ADD\"\n",
];

/// The files `ffp.c` writes for `text`, made through the Rust API.
fn ffp_expected(text: &str) -> Vec<(String, Vec<u8>)> {
    use d3d9_shader::ffp::{self, state_toml::keys_from_toml, FfpShader, PixelInterface};
    let (vk, pk) = keys_from_toml(text).expect("the state reads");
    let pi = PixelInterface { textures: pk.sampled_textures(), flat: pk.flat, varyings: pk.varyings.clone() };
    let keyed = [ffp::generate_vertex(&vk).expect("vs"), ffp::generate_pixel(&pk).expect("ps")];
    let uniform =
        [ffp::generate_vertex_uniform(&vk.interface()).expect("vs"), ffp::generate_pixel_uniform(&pi).expect("ps")];
    let states = [vk.state_bytes(), pk.state_bytes()];
    let mut out = Vec::new();
    let mut add = |mode: &str, halves: &[FfpShader; 2], blocks: [Vec<u8>; 2]| {
        for ((stage, h), block) in ["vs", "ps"].iter().zip(halves).zip(blocks) {
            let spv: Vec<u8> = h.to_spirv().expect("SPIR-V").iter().flat_map(|w| w.to_le_bytes()).collect();
            out.push((format!("{mode}.{stage}.wgsl"), h.to_wgsl().expect("WGSL").into_bytes()));
            out.push((format!("{mode}.{stage}.spv"), spv));
            out.push((format!("{mode}.{stage}.state"), block));
        }
    };
    add("keyed", &keyed, [Vec::new(), Vec::new()]);
    add("uniform", &uniform, states);
    out
}

/// The constant buffers `ffp.c` writes, made through the Rust API from the same values.
fn ffp_constants_expected() -> [(&'static str, Vec<u8>); 2] {
    use d3d9_shader::ffp::{LightValues, PixelConstants, VertexConstants};
    let mut v = VertexConstants::default();
    v.world[0][12] = 2.0;
    v.lights.push(LightValues { diffuse: [1.0, 0.0, 0.0, 1.0], range: 10.0, ..LightValues::default() });
    let p = PixelConstants { texture_factor: [0.2, 0.4, 1.0, 0.8], alpha_ref: 0x80, ..PixelConstants::default() };
    [("vertex.constants", v.to_bytes()), ("pixel.constants", p.to_bytes())]
}

#[test]
fn c_fixed_function_pairs_are_rusts_byte_for_byte() {
    if !have_cc() {
        return;
    }
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let exe = tmp.path().join("ffp");
    compile(&[&c_test("ffp.c")], &exe);
    for (n, text) in FFP_STATES.iter().enumerate() {
        let dir = tmp.path().join(format!("state{n}"));
        std::fs::create_dir(&dir).expect("a folder per state");
        let state = dir.join("state.toml");
        std::fs::write(&state, text).expect("write the state");
        run(&exe, &[&state, &dir]);
        for (name, want) in ffp_expected(text) {
            let got = std::fs::read(dir.join(&name)).unwrap_or_else(|e| panic!("state {n}: {name}: {e}"));
            assert!(got == want, "state {n}: {name} differs from Rust's");
        }
        // The pixel state block: 8 stages of 64 bytes and 4 words (docs/layers.md#fixed-function).
        assert_eq!(std::fs::metadata(dir.join("uniform.ps.state")).map(|m| m.len()).ok(), Some(8 * 64 + 16));
        let ps = std::fs::read_to_string(dir.join("keyed.ps.wgsl")).expect("the keyed pixel half");
        assert!(ps.contains("@fragment"), "state {n}: {ps}");
        for (name, want) in ffp_constants_expected() {
            assert!(std::fs::read(dir.join(name)).ok() == Some(want), "{name} differs from Rust's");
        }
    }
}

/// Follows capi/README.md's install layout into `PREFIX` = `dir/prefix`: the header, both
/// libraries (the shared one under its SONAME with the development symlink), the pkg-config
/// file made from its template and the CMake package files.
fn install_prefix(dir: &Path) -> PathBuf {
    let prefix = dir.join("prefix");
    let (include, lib) = (prefix.join("include"), prefix.join("lib"));
    let cmake = lib.join("cmake/d3d9-shader");
    for d in [&lib.join("pkgconfig"), &include, &cmake] {
        std::fs::create_dir_all(d).expect("an install folder");
    }
    std::fs::copy(capi_dir().join("include/d3d9_shader.h"), include.join("d3d9_shader.h")).expect("the header");
    std::fs::copy(static_lib(), lib.join("libd3d9_shader_capi.a")).expect("the static library");
    std::fs::copy(static_lib().with_extension("so"), lib.join("libd3d9_shader_capi.so.0")).expect("the shared library");
    std::os::unix::fs::symlink("libd3d9_shader_capi.so.0", lib.join("libd3d9_shader_capi.so")).expect("the symlink");
    let filled = |template: &str| {
        let text = std::fs::read_to_string(capi_dir().join(template)).expect("a template");
        text.replace("@PREFIX@", &prefix.to_string_lossy()).replace("@VERSION@", env!("CARGO_PKG_VERSION"))
    };
    std::fs::write(lib.join("pkgconfig/d3d9_shader.pc"), filled("d3d9_shader.pc.in")).expect("the pkg-config file");
    std::fs::copy(capi_dir().join("cmake/d3d9-shader-config.cmake"), cmake.join("d3d9-shader-config.cmake"))
        .expect("the CMake config");
    let version = filled("cmake/d3d9-shader-config-version.cmake.in");
    std::fs::write(cmake.join("d3d9-shader-config-version.cmake"), version).expect("the CMake version file");
    prefix
}

/// A vertex shader's blob in `dir/vs.bin`, for `translate.c`.
fn vs_blob(dir: &Path) -> PathBuf {
    let shader = Shader::from_asm("vs_2_0\ndcl_position v0\nmov oPos, v0\n", &ParseOptions::default()).expect("vs");
    let blob: Vec<u8> = shader.tokens().iter().flat_map(|t| t.to_le_bytes()).collect();
    let input = dir.join("vs.bin");
    std::fs::write(&input, blob).expect("write the blob");
    input
}

/// Runs a `translate.c` build on the vertex shader: it prints the version and writes WGSL.
fn run_translate(exe: &Path, dir: &Path) {
    let wgsl = dir.join(format!("{}.wgsl", exe.file_name().and_then(|n| n.to_str()).unwrap_or("out")));
    let printed = run(exe, &[&vs_blob(dir), &wgsl]);
    assert!(printed.contains("vs_2_0"), "{printed}");
    assert!(std::fs::read_to_string(&wgsl).expect("the WGSL").contains("@vertex"));
}

/// Whether `tool --version` runs; under `REQUIRE_TOOLS=1` its absence fails the test.
fn have_tool(tool: &str) -> bool {
    let have = Command::new(tool).arg("--version").output().is_ok_and(|o| o.status.success());
    assert!(have || !env_is("REQUIRE_TOOLS"), "REQUIRE_TOOLS=1 but there is no `{tool}`");
    have
}

/// README's install layout, followed into a temporary prefix: `translate.c` built with
/// `pkg-config --cflags --libs` links the shared library and runs.
#[test]
fn the_install_layout_builds_the_example_with_pkg_config() {
    if !have_tool("pkg-config") || !have_cc() {
        eprintln!("c_api: SKIPPED the install layout: no pkg-config or cc");
        return;
    }
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let prefix = install_prefix(tmp.path());
    let lib = prefix.join("lib");
    let flags = Command::new("pkg-config")
        .args(["--cflags", "--libs", "d3d9_shader"])
        .env("PKG_CONFIG_PATH", lib.join("pkgconfig"))
        .output()
        .expect("run pkg-config");
    assert!(flags.status.success(), "pkg-config: {}", String::from_utf8_lossy(&flags.stderr));
    let exe = tmp.path().join("translate");
    let cc = Command::new("cc")
        .args(["-std=c11", "-Wall", "-Werror", "-fsanitize=address", "-fno-omit-frame-pointer"])
        .arg(capi_dir().join("examples/translate.c"))
        .args(String::from_utf8_lossy(&flags.stdout).split_whitespace())
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("run cc");
    assert!(cc.status.success(), "cc: {}", String::from_utf8_lossy(&cc.stderr));
    run_translate(&exe, tmp.path());
}

/// A CMake project that finds the installed package (`find_package(d3d9-shader 0.1 CONFIG)`)
/// and builds `translate.c` twice, against the shared and the static library.
const CMAKE_PROJECT: &str = "cmake_minimum_required(VERSION 3.13)\nproject(uses_d3d9_shader C)\n\
find_package(d3d9-shader 0.1 CONFIG REQUIRED)\n\
add_executable(translate_shared ${EXAMPLE})\n\
target_link_libraries(translate_shared PRIVATE d3d9_shader::d3d9_shader)\n\
add_executable(translate_static ${EXAMPLE})\n\
target_link_libraries(translate_static PRIVATE d3d9_shader::d3d9_shader_static)\n";

/// The CMake package config of the install layout: a project finds it by `CMAKE_PREFIX_PATH`,
/// links each library through its imported target, and both programs run; a version from
/// another minor series is refused (before 1.0 a minor version may break the API).
#[test]
fn the_install_layout_builds_the_example_with_cmake() {
    if !have_tool("cmake") || !have_cc() {
        eprintln!("c_api: SKIPPED the CMake package: no cmake or cc");
        return;
    }
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let prefix = install_prefix(tmp.path());
    let (source, build) = (tmp.path().join("project"), tmp.path().join("build"));
    std::fs::create_dir(&source).expect("the project folder");
    std::fs::write(source.join("CMakeLists.txt"), CMAKE_PROJECT).expect("write CMakeLists.txt");
    let cmake = |args: &[&std::ffi::OsStr]| {
        let o = Command::new("cmake").args(args).output().expect("run cmake");
        (o.status.success(), format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr)))
    };
    let configure = |project: &Path| {
        let example = format!("-DEXAMPLE={}", capi_dir().join("examples/translate.c").display());
        let prefix_path = format!("-DCMAKE_PREFIX_PATH={}", prefix.display());
        let args = ["-S".as_ref(), project.as_os_str(), "-B".as_ref(), build.as_os_str()];
        cmake(&[&args[..], &[example.as_ref(), prefix_path.as_ref()]].concat())
    };
    let (ok, log) = configure(&source);
    assert!(ok, "cmake configure:\n{log}");
    let (ok, log) = cmake(&["--build".as_ref(), build.as_os_str()]);
    assert!(ok, "cmake --build:\n{log}");
    for name in ["translate_shared", "translate_static"] {
        run_translate(&build.join(name), tmp.path());
    }
    let other = tmp.path().join("other");
    std::fs::create_dir(&other).expect("another project");
    std::fs::write(other.join("CMakeLists.txt"), CMAKE_PROJECT.replace("d3d9-shader 0.1", "d3d9-shader 0.2"))
        .expect("write CMakeLists.txt");
    std::fs::remove_dir_all(&build).expect("a fresh build folder");
    let (ok, log) = configure(&other);
    assert!(!ok && log.contains("d3d9-shader"), "0.2 was accepted:\n{log}");
}

/// The header compiles as strict C99 and as C++11 (cbindgen's `cpp_compat` wraps it in
/// `extern "C"`), with every warning an error.
#[test]
fn the_header_is_c99_and_cxx11() {
    if !have_cc() {
        return;
    }
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let body =
        "#include \"d3d9_shader.h\"\nint main(void) { D3d9sKey k; return d3d9s_key_default(&k) != D3D9S_STATUS_OK; }\n";
    for (compiler, std, file) in [("cc", "-std=c99", "h.c"), ("c++", "-std=c++11", "h.cpp")] {
        let have = Command::new(compiler).arg("--version").output().is_ok_and(|o| o.status.success());
        if !have {
            assert!(!env_is("REQUIRE_TOOLS"), "REQUIRE_TOOLS=1 but there is no `{compiler}`");
            eprintln!("c_api: SKIPPED the header under {compiler}: not installed");
            continue;
        }
        let source = tmp.path().join(file);
        std::fs::write(&source, body.replace("(void)", if file == "h.cpp" { "()" } else { "(void)" }))
            .expect("write the source");
        let out = Command::new(compiler)
            .args([std, "-Wall", "-Wextra", "-pedantic", "-Werror", "-fsyntax-only", "-I"])
            .arg(capi_dir().join("include"))
            .arg(&source)
            .output()
            .expect("run the compiler");
        assert!(out.status.success(), "{compiler} {std}: {}", String::from_utf8_lossy(&out.stderr));
    }
}
