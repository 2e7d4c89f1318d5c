//! Override and uniform delivery ([`d3d9_shader::key::delivery`]) give WGSL that Tint compiles: the
//! alpha test, fog, clip planes, unbound samplers and ps_1_x projection tested at run time, and
//! the boolean and integer constants of static flow control baked, as overrides or uniforms.

use std::path::Path;

use d3d9_shader::asm::assemble;
use d3d9_shader::{translate, Deliveries, Delivery, ShaderKey};
use d3d9_tests::tint::Tint;

fn wgsl(shader: &str, key: &ShaderKey) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shaders/asm").join(shader);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let program = assemble(&text).unwrap_or_else(|e| panic!("{shader}: {e}"));
    translate(&program, key).and_then(|t| Ok(t.to_wgsl()?)).unwrap_or_else(|e| panic!("{shader}: {e}"))
}

#[test]
fn every_delivery_of_every_mode_compiles_in_tint() {
    let Some(mut tint) = Tint::for_test("every_delivery_of_every_mode_compiles_in_tint") else { return };
    // case_flow reads b0 and i0 from the application: the constants' deliveries too (baked
    // with values in the key).
    let shaders =
        ["ps_2_0/case_texld.asm", "ps_1_1/ps11_tex_projected.asm", "vs_1_1/transform.asm", "vs_2_0/case_flow.asm"];
    let mut failures = Vec::new();
    for shader in shaders {
        for d in [Delivery::Override, Delivery::Uniform, Delivery::Baked] {
            let mut key = ShaderKey { delivery: Deliveries::all(d), ..ShaderKey::default() };
            key.set_constants(&[true], &[[3, 0, 1, 0]]);
            let code = wgsl(shader, &key);
            let messages = tint.check_module(&code).expect("the Tint checker");
            for m in messages.iter().filter(|m| m.is_error()) {
                failures.push(format!("{shader} ({d}): {}\n{code}", m.render(&code)));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
