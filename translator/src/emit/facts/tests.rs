//! The writers' facts equal naga's analysis (`ModuleInfo`: each expression's type and use
//! count) for every module of the repository's shaders and, where the shared data is present
//! (`D3D9_SHARED`, else `../shared`), of its corpora, under several keys; and for a module of
//! the statements and expressions the lowering seldom or never makes.

use std::path::{Path, PathBuf};

use super::WriterFacts;
use crate::{ParseOptions, Shader, ShaderKey};

/// `module`'s facts against naga's, validated with every check.
fn compare(module: &naga::Module, what: &str) {
    let info = crate::emit::validate_fully(module).unwrap_or_else(|e| panic!("{what}: naga refuses the module: {e}"));
    let facts = WriterFacts::new(module).unwrap_or_else(|e| panic!("{what}: {e}"));
    if let Some(d) = facts.differs_from(module, &info) {
        panic!("{what}: the writers' facts differ from naga's: {d}");
    }
}

/// The keys each shader is translated under: the three float rules, and fog, clip planes,
/// alpha test and point expansion, which add code, and override delivery, which adds
/// overrides.
fn keys() -> Vec<(String, ShaderKey)> {
    let sets: [&[&str]; 6] = [
        &["float_rules=strict"],
        &["float_rules=fast"],
        &["float_rules=ieee"],
        &["fog=exp2", "clip_planes=3", "alpha_func=less"],
        &["point_expansion=list", "point_size=true"],
        &["fog=linear", "alpha_func=greater"],
    ];
    let mut keys: Vec<(String, ShaderKey)> = sets
        .iter()
        .map(|set| {
            let mut key = ShaderKey::default();
            set.iter().for_each(|f| key.set(f).unwrap_or_else(|e| panic!("{f}: {e}")));
            (set.join(" "), key)
        })
        .collect();
    let mut overrides = ShaderKey::default();
    overrides.delivery.set("all=override").unwrap();
    keys.push(("all=override".into(), overrides));
    keys
}

/// The shader files under `dir`, recursively, in a stable order.
fn shader_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            shader_files(&p, out);
        } else if matches!(p.extension().and_then(|e| e.to_str()), Some("asm" | "hex" | "bin" | "vso" | "pso")) {
            out.push(p);
        }
    }
}

/// Translates every shader of `dirs` that parses under every key and compares each module;
/// the number of modules compared.
fn compare_folders(dirs: &[PathBuf]) -> usize {
    let mut files = Vec::new();
    dirs.iter().for_each(|d| shader_files(d, &mut files));
    let keys = keys();
    let mut compared = 0;
    for path in files {
        let Ok(bytes) = std::fs::read(&path) else { continue };
        let Ok(loaded) = crate::input::load(&bytes, &path.to_string_lossy()) else { continue };
        for l in loaded {
            let Ok(shader) = Shader::from_tokens(&l.tokens, &ParseOptions::lenient()) else { continue };
            for (name, key) in &keys {
                let Ok(t) = shader.translate(key) else { continue };
                compare(&t.module, &format!("{} ({name})", path.display()));
                compared += 1;
            }
        }
    }
    compared
}

#[test]
fn facts_equal_naga_over_the_repository_shaders() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shaders");
    let compared = compare_folders(&[root]);
    assert!(compared >= 200, "only {compared} modules compared");
}

#[test]
fn facts_equal_naga_over_the_shared_corpora() {
    let shared = std::env::var_os("D3D9_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"));
    if !shared.is_dir() {
        eprintln!("no shared data at {}: skipped", shared.display());
        return;
    }
    let dirs: Vec<PathBuf> = ["bench-corpus", "corpus", "real-corpus-xray"].iter().map(|d| shared.join(d)).collect();
    let compared = compare_folders(&dirs);
    assert!(compared >= 1000, "only {compared} modules compared");
}

/// Statements and expressions beyond the lowering's everyday set (calls, loops with a
/// `break if`, switches, local initialisers, selects, multi-argument math, image loads and
/// queries, derivatives, pointers into arrays): each use is counted where naga counts it.
#[test]
fn facts_equal_naga_over_a_module_of_rarer_constructs() {
    let source = "
        @group(0) @binding(0) var t: texture_2d<f32>;
        @group(0) @binding(1) var s: sampler;
        @group(0) @binding(2) var<uniform> c: array<vec4<f32>, 4>;
        const k = vec4<f32>(1.0, 2.0, 3.0, 4.0);
        var<private> p: vec4<f32> = vec4<f32>(0.5);
        fn helper(x: vec4<f32>, n: i32) -> vec4<f32> {
            var acc = x;
            var i = 0;
            loop {
                if i >= n { break; }
                acc = fma(acc, x, c[i & 3]);
                continuing { i += 1; break if i > 8; }
            }
            return acc;
        }
        @fragment fn main(@location(0) uv: vec2<f32>, @builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {
            var v = textureSample(t, s, uv) * k;
            let size = textureDimensions(t, 0);
            let texel = textureLoad(t, vec2<i32>(pos.xy) % vec2<i32>(size), 0);
            switch i32(v.x) {
                case 1, 2: { v = select(v, texel, v < texel); }
                default: { v = clamp(v, vec4<f32>(0.0), vec4<f32>(1.0)); }
            }
            let d = dpdx(v.x) + dpdy(v.y);
            v.w = smoothstep(0.0, 1.0, d) + dot(v.xyz, p.xyz);
            let r = helper(v, i32(uv.x * 4.0));
            return mix(r, v, vec4<f32>(c[1].x)) + textureSampleLevel(t, s, uv, 2.0);
        }";
    let module = naga::front::wgsl::parse_str(source).unwrap_or_else(|e| panic!("{}", e.emit_to_string(source)));
    compare(&module, "the module of rarer constructs");
}

/// A module naga would refuse for an expression used before it is defined is refused here
/// too, with an error rather than a panic.
#[test]
fn a_forward_reference_is_an_error() {
    let mut module =
        naga::front::wgsl::parse_str("@fragment fn main() -> @location(0) vec4<f32> { return vec4<f32>(1.0); }")
            .unwrap();
    let f = &mut module.entry_points[0].function;
    // A handle past the function's arena, taken from a longer one.
    let mut longer = naga::Arena::new();
    let zero = naga::Expression::Literal(naga::Literal::F32(0.0));
    let later =
        (0..f.expressions.len() + 5).map(|_| longer.append(zero.clone(), naga::Span::UNDEFINED)).last().unwrap();
    f.expressions
        .append(naga::Expression::Unary { op: naga::UnaryOperator::Negate, expr: later }, naga::Span::UNDEFINED);
    assert!(WriterFacts::new(&module).is_err());
}
