//! Fetch4 lowering (docs/d3d9-rules.md#fetch4): a gather half a texel on, swizzled zxyw, only on
//! 2D, non-shadow samplers of pixel shaders. The values are checked on the GPU by the
//! `ps_*_fetch4` cases in shaders/cases/.

use crate::{ParseOptions, Shader, ShaderKey};

fn wgsl(text: &str, key: &ShaderKey) -> String {
    let s = Shader::from_asm(text, &ParseOptions::default()).unwrap();
    s.translate(key).unwrap().to_wgsl().unwrap()
}

fn fetch4(mask: u16) -> ShaderKey {
    ShaderKey { fetch4_samplers: mask, ..ShaderKey::default() }
}

const PS: &str = "ps_2_0\ndcl v0\ndcl_2d s0\ndcl_cube s1\ntexldb r0, v0, s0\ntexld r1, v0, s1\nadd oC0, r0, r1\n";

#[test]
fn a_fetch4_sampler_gathers_at_level_zero_and_swizzles_into_d3d9_order() {
    let code = wgsl(PS, &fetch4(0b11));
    // One gather (s0) and one ordinary sample (s1, a cube, is not gathered).
    assert_eq!(code.matches("textureGather(0, t0_, s0_").count(), 1, "{code}");
    assert!(code.contains("textureSample(t1_, s1_"), "{code}");
    assert!(code.contains(".zxyw"), "{code}");
    // The gather moves by half a texel of level 0: 0.5 / textureDimensions.
    assert!(code.contains("textureDimensions(t0_)") && code.contains("vec2(0.5f)"), "{code}");
    // texldb's bias is not applied: no textureSampleBias is left for s0.
    assert!(!code.contains("textureSampleBias(t0_"), "{code}");
    assert!(!wgsl(PS, &ShaderKey::default()).contains("textureGather"));
}

#[test]
fn shadow_and_vertex_samplers_ignore_the_bit() {
    let key = ShaderKey { shadow_samplers: 1, ..fetch4(1) };
    let code = wgsl(PS, &key);
    assert!(!code.contains("textureGather") && code.contains("textureSampleCompare"), "{code}");
    let vs = "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_2d s0\ntexldl r0, v0, s0\nadd o0, v0, r0\n";
    assert!(!wgsl(vs, &fetch4(1)).contains("textureGather"));
}
