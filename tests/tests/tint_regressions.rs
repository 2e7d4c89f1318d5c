//! Tint-level regression tests for the three reasons Tint (Chromium's WGSL compiler) refused the
//! project's WGSL (docs/wgsl.md): a FLT_MAX literal above FLT_MAX, infinite constant
//! expressions, and derivatives in non-uniform control flow. Each own shader
//! (`shaders/asm/*/tint_*.asm`) hits one cause and must compile in Tint without errors under the
//! float rules that produce it; first, Tint must still refuse a hand-written module with each
//! cause, so that a checker that stopped reporting could not pass these tests.

use std::path::Path;

use d3d9_shader::asm::assemble;
use d3d9_shader::key::FloatRules;
use d3d9_shader::{translate, ShaderKey};
use d3d9_tests::tint::{Message, Tint};

fn wgsl(shader: &str, rules: FloatRules) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shaders/asm").join(shader);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let program = assemble(&text).unwrap_or_else(|e| panic!("{shader}: {e}"));
    let key = ShaderKey { float_rules: rules, ..ShaderKey::default() };
    translate(&program, &key).and_then(|t| Ok(t.to_wgsl()?)).unwrap_or_else(|e| panic!("{shader}: {e}"))
}

fn errors(messages: &[Message], code: &str) -> Vec<String> {
    messages.iter().filter(|m| m.is_error()).map(|m| m.render(code)).collect()
}

fn assert_accepted(tint: &mut Tint, shader: &str, rules: &[FloatRules]) {
    for &r in rules {
        let code = wgsl(shader, r);
        let messages = tint.check_module(&code).expect("the Tint checker");
        let errors = errors(&messages, &code);
        assert!(errors.is_empty(), "{shader} ({r:?}): Tint refuses it:\n{}\n{code}", errors.join("\n"));
    }
}

/// Tint's first error on `code`, which must contain `expected`.
fn assert_refused(tint: &mut Tint, code: &str, expected: &str) {
    let messages = tint.check_module(code).expect("the Tint checker");
    let first = messages.iter().find(|m| m.is_error()).unwrap_or_else(|| panic!("Tint accepts\n{code}"));
    assert!(first.message.contains(expected), "expected `{expected}`, got {}", first.render(code));
}

#[test]
fn tint_still_refuses_each_cause_in_a_hand_written_module() {
    let Some(mut tint) = Tint::for_test("tint_still_refuses_each_cause_in_a_hand_written_module") else { return };
    // naga's spelling of FLT_MAX (3.40282347e38): the shortest round-tripping decimal, 3.4028235e38.
    let flt_max =
        "@fragment fn main() -> @location(0) vec4f {\n  return vec4f(340282350000000000000000000000000000000f);\n}\n";
    assert_refused(&mut tint, flt_max, "cannot be represented as 'f32'");
    // +inf's bits as a constant expression.
    let inf = "@fragment fn main() -> @location(0) vec4f {\n  return vec4f(bitcast<f32>(2139095040u));\n}\n";
    assert_refused(&mut tint, inf, "value inf cannot be represented as 'f32'");
    // A sample under a branch on an interpolated value.
    let divergent = "@group(1) @binding(16) var t: texture_2d<f32>;\n@group(1) @binding(17) var s: sampler;\n\
                     @fragment fn main(@location(0) uv: vec4f) -> @location(0) vec4f {\n  var c = vec4f(0.0);\n  \
                     if (uv.x > 0.5) {\n    c = textureSample(t, s, uv.xy);\n  }\n  return c;\n}\n";
    assert_refused(&mut tint, divergent, "must only be called from uniform control flow");
}

#[test]
fn flt_max_reaches_tint_as_a_representable_value() {
    let Some(mut tint) = Tint::for_test("flt_max_reaches_tint_as_a_representable_value") else { return };
    assert_accepted(&mut tint, "vs_2_0/tint_flt_max.asm", &[FloatRules::Strict, FloatRules::Fast]);
}

#[test]
fn infinities_are_no_constant_expressions_for_tint() {
    let Some(mut tint) = Tint::for_test("infinities_are_no_constant_expressions_for_tint") else { return };
    let rules = [FloatRules::Strict, FloatRules::Fast, FloatRules::Ieee];
    assert_accepted(&mut tint, "ps_2_0/tint_inf_constant.asm", &rules);
}

#[test]
fn derivatives_in_control_flow_pass_tint_through_the_directive_alone() {
    let Some(mut tint) = Tint::for_test("derivatives_in_control_flow_pass_tint_through_the_directive_alone") else {
        return;
    };
    let shader = "ps_3_0/tint_derivatives_in_flow.asm";
    assert_accepted(&mut tint, shader, &[FloatRules::Strict]);
    // The directive is what makes Tint accept it: without it, the uniformity analysis refuses.
    let code = wgsl(shader, FloatRules::Strict);
    let directive = "diagnostic(off, derivative_uniformity);\n";
    assert!(code.contains(directive), "the module lacks the directive:\n{code}");
    assert_refused(&mut tint, &code.replacen(directive, "", 1), "must only be called from uniform control flow");
}

#[test]
fn known_zeros_are_no_constant_expressions_for_tint() {
    let Some(mut tint) = Tint::for_test("known_zeros_are_no_constant_expressions_for_tint") else { return };
    let rules = [FloatRules::Strict, FloatRules::Fast, FloatRules::Ieee];
    assert_accepted(&mut tint, "vs_2_0/tint_zero_values.asm", &rules);
}
