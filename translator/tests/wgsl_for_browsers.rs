//! The three rules of docs/wgsl.md, checked on the WGSL text of programs that hit each one: no
//! float literal that a browser's compiler reads differently, no constant expression with a
//! non-finite value, and the derivative-uniformity directive exactly where D3D9 code takes
//! derivatives in control flow. (Tint itself checks every corpus in the tests crate; these tests
//! need no Node.js.)

use d3d9_shader::key::FloatRules;
use d3d9_shader::{ParseOptions, Shader, ShaderKey};

fn wgsl(asm: &str, key: &ShaderKey) -> String {
    let shader = Shader::from_asm(asm, &ParseOptions::lenient()).expect("assembles");
    let text = shader.translate(key).expect("translates").to_wgsl().expect("writes WGSL");
    // naga's own WGSL front end (the harness's path to the GPU) reads the text back, directive
    // included.
    let module = naga::front::wgsl::parse_str(&text).unwrap_or_else(|e| panic!("{}\n{text}", e.emit_to_string(&text)));
    naga::valid::Validator::new(naga::valid::ValidationFlags::all(), d3d9_shader::emit::capabilities())
        .validate(&module)
        .unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    text
}

fn key(rules: FloatRules) -> ShaderKey {
    ShaderKey { float_rules: rules, ..ShaderKey::default() }
}

/// Every `f32` literal of the text (`<digits>[.<digits>][e±<digits>]f`, not inside a name).
fn float_literals(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let starts =
            bytes[i].is_ascii_digit() && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_'));
        if !starts {
            i += 1;
            continue;
        }
        let begin = i;
        while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.' || bytes[i] == b'e') {
            i += 1;
        }
        if bytes.get(i) == Some(&b'f') {
            out.push(&text[begin..i]);
        }
        i += 1;
    }
    out
}

/// The arguments of every `bitcast<…>(…)` in the text.
fn bitcast_arguments(text: &str) -> Vec<&str> {
    text.match_indices("bitcast<")
        .map(|(at, _)| {
            let rest = &text[at..];
            let open = rest.find('(').expect("bitcast has an argument");
            &rest[open + 1..]
        })
        .collect()
}

fn assert_literals_exact(text: &str) {
    for lit in float_literals(text) {
        let v: f64 = lit.parse().unwrap_or_else(|_| panic!("`{lit}f` is not a decimal"));
        // 20 characters: WebKit refused integer-like literals of more than 19 digits; and the
        // decimal must not exceed FLT_MAX (Tint refuses naga's 340282350000000000000000000000000000000f).
        assert!(lit.len() <= 20, "long literal `{lit}f`\n{text}");
        assert!(v <= f32::MAX as f64, "`{lit}f` exceeds FLT_MAX\n{text}");
    }
}

fn assert_no_constant_bitcast(text: &str) {
    for arg in bitcast_arguments(text) {
        // A literal (`2139095040u`) or a constructor of literals (`vec4<u32>(…)`) would be a
        // constant expression that WGSL evaluates at creation; a variable's name is a value.
        let first = arg.chars().next().expect("argument");
        assert!(
            first.is_ascii_alphabetic() || first == '_',
            "bitcast of a constant: `{}`\n{text}",
            &arg[..20.min(arg.len())]
        );
        assert!(!arg.starts_with("vec"), "bitcast of a constant vector\n{text}");
    }
}

#[test]
fn log_of_zero_is_minus_flt_max_loaded_from_its_bits() {
    // Strict rules: log(0) = −FLT_MAX, whose bits are 0xFF7FFFFF = 4286578687.
    let text = wgsl("vs_2_0\ndcl_position v0\nlog r0.x, v0.x\nmov oPos, r0.x", &key(FloatRules::Strict));
    assert!(text.contains("4286578687u"), "−FLT_MAX as its bit pattern\n{text}");
    assert_literals_exact(&text);
    assert_no_constant_bitcast(&text);
}

#[test]
fn fast_rules_clamp_with_flt_max_from_its_bits() {
    // Fast rules clamp rcp/rsq/log to ±FLT_MAX: 0x7F7FFFFF = 2139095039, 0xFF7FFFFF.
    let asm = "vs_2_0\ndcl_position v0\nrcp r0.x, v0.x\nrsq r0.y, v0.y\nlog r0.z, v0.z\nmov oPos, r0";
    let text = wgsl(asm, &key(FloatRules::Fast));
    assert!(text.contains("2139095039u") && text.contains("4286578687u"), "±FLT_MAX as bit patterns\n{text}");
    assert_literals_exact(&text);
    assert_no_constant_bitcast(&text);
}

#[test]
fn infinities_are_never_constant_expressions() {
    // Strict rules: rcp(0) = rsq(0) = +inf (0x7F800000 = 2139095040); pow of a zero base with a
    // negative exponent is +inf too; `def` with inf and NaN bits reaches the shader unchanged.
    let asm = "ps_2_0\ndcl t0\ndef c1, 1e39, -1e39, 0, 1\nrcp r0.x, t0.x\nrsq r0.y, t0.y\npow r0.z, t0.z, c1.y\n\
               mad r0, r0, c1, c1\nmov oC0, r0";
    for rules in [FloatRules::Strict, FloatRules::Fast, FloatRules::Ieee] {
        let text = wgsl(asm, &key(rules));
        assert_literals_exact(&text);
        assert_no_constant_bitcast(&text);
    }
    let strict = wgsl(asm, &key(FloatRules::Strict));
    assert!(strict.contains("2139095040u"), "+inf as its bit pattern\n{strict}");
}

#[test]
fn derivatives_in_control_flow_carry_the_directive() {
    const DIRECTIVE: &str = "diagnostic(off, derivative_uniformity);\n";
    let inside_if = "ps_3_0\ndcl_texcoord0 v0\ndcl_2d s0\ndef c0, 0.5, 0, 0, 0\nmov oC0, c0.y\n\
                     if_gt v0.x, c0.x\ntexld r0, v0, s0\nmov oC0, r0\nendif";
    let gradient_in_loop = "ps_3_0\ndcl_texcoord0 v0\ndefi i0, 2, 0, 0, 0\nmov r1, v0\nrep i0\n\
                            dsx r0, r1\nadd r1, r1, r0\nendrep\nmov oC0, r1";
    let called_in_if = "ps_3_0\ndcl_texcoord0 v0\ndcl_2d s0\ndefb b0, true\nmov oC0, v0\nif b0\ncall l0\nendif\nret\n\
                        label l0\ntexld r0, v0, s0\nmov oC0, r0\nret";
    for asm in [inside_if, gradient_in_loop, called_in_if] {
        let text = wgsl(asm, &ShaderKey::default());
        assert!(text.starts_with(DIRECTIVE), "directive expected\n{text}");
    }
    // Derivatives in uniform flow only (top level, or a call at top level), a sample with an
    // explicit level inside a branch, and a vertex shader: WGSL's default rule stays.
    let top_level = "ps_3_0\ndcl_texcoord0 v0\ndcl_2d s0\ntexld r0, v0, s0\nmov oC0, r0";
    let called_at_top =
        "ps_3_0\ndcl_texcoord0 v0\ndcl_2d s0\ncall l0\nret\nlabel l0\ntexld r0, v0, s0\nmov oC0, r0\nret";
    let explicit_lod = "ps_3_0\ndcl_texcoord0 v0\ndcl_2d s0\ndef c0, 0.5, 0, 0, 0\nmov oC0, c0.y\n\
                        if_gt v0.x, c0.x\ntexldl r0, v0, s0\nmov oC0, r0\nendif";
    for asm in [top_level, called_at_top, explicit_lod] {
        let text = wgsl(asm, &ShaderKey::default());
        assert!(!text.contains("diagnostic("), "no directive expected\n{text}");
    }
}
