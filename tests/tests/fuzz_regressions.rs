//! Bugs `cargo xtask fuzz` found, each kept as a regression test.
//!
//! The translator trusts the lenient validator: what it accepts must lower to IR that naga
//! validates. The fuzzer found programs lenient mode passed with warnings although no meaning
//! could be given to them (a register file used where it has none, a ps_1_x stage that does not
//! exist, one output semantic on two registers), and the lowering built ill-typed IR for them.
//! Lenient mode now refuses them. It also found a shift overflow in the Shader Model 1 lowering.

use d3d9_shader::asm::assemble;
use d3d9_shader::validate::{validate, ValidationOptions};
use d3d9_shader::{translate, ShaderKey};

/// (listing, what lenient validation must now refuse).
const REFUSED: &[(&str, &str)] = &[
    ("ps_1_1\ntexcoord p0\nmov_sat r0, t0\n", "p0 cannot be written"),
    ("vs_2_0\n(c0) mov r0, a0.w\n", "the predicate must be p0"),
    ("ps_1_3\nmov_x4_sat aL.w, -r2_bias.w\n", "aL cannot be written"),
    ("ps_1_0\ntex t1\ntexbeml t10, t1\nmov r0, t1\n", "t10 is out of range"),
    ("ps_1_1\ntexcoord t15\nmov r0, t[a0.x]\n", "t15 is out of range"),
    ("ps_3_0\ndcl_color1 v0.yzw\nmov p0, v0\n", "only setp writes p0"),
    (
        "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_color1 o1\ndcl_color1 o2\nmov o0, v0\nmov o1, v0\nmov o2, v0\n",
        "color1 is declared twice",
    ),
    ("ps_2_0\ndcl_position aL.xy\nmov oC0, c0\n", "cannot be declared"),
    ("ps_3_0\ndcl vPos.xy\ndcl vMisc513\nmov oC0, vPos.xyxy\n", "vMisc513 is out of range"),
    ("vs_1_1\ndcl_position v0\nmov oPos, v0\nmov oD0, c0\nslt oD256.y, c0.y, c1.x\n", "oD256 is out of range"),
];

#[test]
fn lenient_validation_refuses_registers_without_meaning() {
    for (text, why) in REFUSED {
        let program = assemble(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let result = validate(&program, &ValidationOptions::lenient());
        let messages: Vec<String> = result.errors.iter().map(|e| e.to_string()).collect();
        assert!(
            messages.iter().any(|m| m.contains(why)),
            "{text}: lenient mode must refuse ({why}); errors: {messages:?}"
        );
        // Whatever the translator is given, it answers without panicking.
        let _ = translate(&program, &ShaderKey::default());
    }
}

/// `texcoord t15` with every stage projected: the projection covers eight stages, and looking
/// up stage 15 overflowed (once a shift of an eight-bit mask: a panic in debug builds).
#[test]
fn projected_mask_with_a_stage_past_seven() {
    let program = assemble("ps_1_1\ntexcoord t15\nmov r0, t[a0.x]\n").unwrap();
    let key = ShaderKey { projected: [4; 8], ..ShaderKey::default() };
    let _ = translate(&program, &key);
}

/// A co-issue flag on the instruction after `endloop` (lenient mode lets the flag through outside
/// ps_1_x): the lowering paired it with the `endloop` and read the value from inside the loop's
/// scope, which naga refused (NotInScope). Found with fog, alpha test and clip planes in the key.
#[test]
fn coissue_after_flow_control_lowers_to_valid_ir() {
    use d3d9_shader::key::{CompareFunc, FogMode};
    let text = "ps_3_0\ndef c0, 0, 0, 0, 1\ndef c1, 0.03125, 0, 0, 0\ndefi i0, 4, 0, 2, 0\nmov r0, c0\nloop aL, i0\n  loop aL, i0\n    add r0, r0, c1\n  endloop\nendloop\n+mov oC0, r0\n";
    let program = assemble(text).unwrap();
    assert!(validate(&program, &ValidationOptions::lenient()).is_ok());
    for (alpha_func, fog) in [
        (CompareFunc::LessEqual, FogMode::Vertex),
        (CompareFunc::Never, FogMode::Exp2),
        (CompareFunc::Always, FogMode::None),
    ] {
        let key = ShaderKey { alpha_func, fog, ..ShaderKey::default() };
        if let Err(e) = translate(&program, &key) {
            assert!(!e.to_string().contains("naga validation"), "{alpha_func:?} {fog:?}: {e}");
        }
    }
}
