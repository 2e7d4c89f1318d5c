//! Random valid programs of every version (tests/generate) translate under several keys, pass naga's
//! validator, emit SPIR-V and WGSL, and the WGSL re-parses; the lowering never panics.

use d3d9_shader::key::{CompareFunc, FloatRules, FogMode};
use d3d9_shader::{translate, ShaderKey};
use d3d9_tests::generate::{generate, versions};

fn keys() -> Vec<ShaderKey> {
    vec![
        ShaderKey::default(),
        ShaderKey {
            float_rules: FloatRules::Fast,
            alpha_func: CompareFunc::GreaterEqual,
            fog: FogMode::Exp2,
            clip_planes: 0b101,
            shadow_samplers: 0b10,
            unbound_samplers: 0b100,
            flat_shading: true,
            ..ShaderKey::default()
        },
        // Point sprites and point size have no WGSL built-ins: SPIR-V only.
        ShaderKey { point_sprite: true, point_size: true, ..ShaderKey::default() },
        ShaderKey { float_rules: FloatRules::Ieee, fog: FogMode::Vertex, swvp: true, ..ShaderKey::default() },
    ]
}

#[test]
fn generated_programs_translate_and_validate() {
    let mut count = 0;
    for v in versions() {
        for seed in 0..60 {
            let g = generate(v, seed).expect("profile");
            for key in keys() {
                let t = translate(&g.program, &key).unwrap_or_else(|e| panic!("{v} seed {seed} {key:?}: {e}"));
                t.to_spirv().unwrap_or_else(|e| panic!("{v} seed {seed}: {e}"));
                // The project's SPIR-V writer covers every generated module (naga's is a fallback).
                if let Err(e) = d3d9_shader::emit::spirv::write(&t.module, t.facts(), (1, 0)) {
                    panic!("{v} seed {seed} {key:?}: the project's SPIR-V writer refused the module: {e:?}");
                }
                if seed % 6 == 0 && !key.point_sprite {
                    let wgsl = t.to_wgsl().unwrap_or_else(|e| panic!("{v} seed {seed}: {e}"));
                    naga::front::wgsl::parse_str(&wgsl)
                        .unwrap_or_else(|e| panic!("{v} seed {seed}: {}\n{wgsl}", e.emit_to_string(&wgsl)));
                }
                count += 1;
            }
        }
    }
    assert!(count > 500, "only {count} translations");
}
