//! The front door: reflection derived by hand from small programs, linking, validation modes,
//! errors with locations, and translation from many threads.

use super::*;
use crate::bytecode::{TextureType, Usage};
use crate::validate::Rule;
use crate::Location;

const VS: &str = "vs_2_0
dcl_position v0
dcl_texcoord v1
m4x4 oPos, v0, c0
mov oT0, v1
mov oD0.x, c8.y";

const PS: &str = "ps_3_0
dcl_texcoord v0.xy
dcl_color1 v1
dcl_2d s0
dcl_cube s2
def c4, 1, 0.5, 0, -1
texld r0, v0, s0
texld r1, v0, s2
mul r0, r0, c[aL + 7]
add oC0, r0, v1";

fn lenient(text: &str) -> Shader {
    Shader::from_asm(text, &ParseOptions::default()).unwrap()
}

#[test]
fn reflection_of_a_vertex_shader() {
    let vs = lenient(VS);
    let r = vs.reflection();
    assert_eq!((r.version.as_str(), r.stage), ("vs_2_0", ShaderKind::Vertex));
    // m4x4 reads c0..c3; mov reads c8: two ranges.
    assert_eq!(r.float_constants.ranges, [0..=3, 8..=8]);
    assert!(r.float_constants.reads(2) && !r.float_constants.reads(4));
    assert!(!r.float_constants.relative);
    let inputs: Vec<_> = r.inputs.iter().map(|i| (i.register.as_str(), i.usage, i.usage_index, i.mask)).collect();
    assert_eq!(inputs, [("v0", Some(Usage::Position), 0, 0xF), ("v1", Some(Usage::TexCoord), 0, 0xF)]);
    // The JSON keeps the `dcl_` names.
    let json = serde_json::to_value(r).unwrap();
    assert_eq!((&json["inputs"][0]["usage"], &json["inputs"][1]["usage"]), (&"position".into(), &"texcoord".into()));
    // oD0 written in x only.
    let d0 = r.outputs.iter().find(|o| o.register == "oD0").unwrap();
    assert_eq!(d0.used_mask, 0b0001);
}

#[test]
fn reflection_of_a_pixel_shader() {
    let r = lenient(PS).reflection().clone();
    assert_eq!(r.stage, ShaderKind::Pixel);
    let samplers: Vec<_> = r.samplers.iter().map(|s| (s.index, s.declared)).collect();
    assert_eq!(samplers, [(0, Some(TextureType::Tex2D)), (2, Some(TextureType::Cube))]);
    // The JSON keeps the `dcl_` names.
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!((&json["samplers"][0]["declared"], &json["samplers"][1]["declared"]), (&"2d".into(), &"cube".into()));
    assert!(r.float_constants.relative);
    assert_eq!(r.float_constants.relative_bases, [7]);
    // def c4, 1, 0.5, 0, -1 as IEEE-754 bits.
    assert_eq!(r.float_constants.defined[&4], [0x3F80_0000, 0x3F00_0000, 0, 0xBF80_0000]);
    assert_eq!(r.temps, 2);
}

#[test]
fn parse_blob_tokens_and_asm_agree() {
    let from_asm = lenient(VS);
    let tokens = from_asm.tokens();
    let bytes: Vec<u8> = tokens.iter().flat_map(|t| t.to_le_bytes()).collect();
    let from_blob = Shader::parse(&bytes, &ParseOptions::default()).unwrap();
    let from_tokens = Shader::from_tokens(&tokens, &ParseOptions::default()).unwrap();
    assert_eq!(from_blob.reflection(), from_asm.reflection());
    assert_eq!(from_tokens.program(), from_asm.program());
}

#[test]
fn link_passes_what_both_sides_use_and_defaults_the_rest() {
    let vs = lenient(
        "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_texcoord o1\ndcl_fog o2\nmov o0, v0\nmov o1, v0\nmov o2, v0",
    );
    let ps = lenient(PS);
    let linkage = link(&vs, &ps).unwrap();
    // The pixel shader reads TEXCOORD0 (written) and COLOR1 (not written); FOG is dropped.
    assert_eq!(
        linkage.slots,
        [
            (Usage::TexCoord as u8, 0, crate::lower::LinkSlot::Location(0)),
            (Usage::Color as u8, 1, crate::lower::LinkSlot::Missing)
        ]
    );
}

#[test]
fn link_pairs_sm2_vertex_with_sm3_pixel_shader() {
    let linkage = link(&lenient(VS), &lenient(PS)).unwrap();
    // vs_2_0's oT0 is TEXCOORD0; its oD0 is COLOR0, which ps_3_0 does not read; COLOR1 missing.
    assert_eq!(linkage.slots.len(), 2);
    assert!(linkage.slots.contains(&(Usage::TexCoord as u8, 0, crate::lower::LinkSlot::Location(0))));
}

#[test]
fn link_refuses_swapped_stages() {
    let (vs, ps) = (lenient(VS), lenient(PS));
    match link(&ps, &vs) {
        Err(Error::Stage { expected: ShaderKind::Vertex, found: ShaderKind::Pixel }) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn strict_refuses_what_lenient_warns_about() {
    // Declaring s0 twice breaks a declaration rule, which lenient validation lets through.
    let text = "ps_2_0\ndcl_2d s0\ndcl_2d s0\nmov oC0, c0";
    let shader = Shader::from_asm(text, &ParseOptions::lenient()).unwrap();
    assert!(shader.warnings().iter().any(|w| w.rule == Rule::Declaration));
    match Shader::from_asm(text, &ParseOptions::strict()) {
        Err(e @ Error::Invalid { .. }) => {
            let Error::Invalid { errors } = &e else { unreachable!() };
            assert_eq!(errors[0].rule, Rule::Declaration);
            // Version token 0, the first dcl at tokens 1–3 (opcode and two operands), the second at 4.
            assert_eq!(e.location(), Some(Location::Token(4)));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn warnings_of_the_checks_parsing_leaves_out_are_found_when_asked() {
    // Lenient parsing runs only the checks that can refuse a program; the warnings of the
    // others (t0 read without dcl in ps_2_0, r1 read before any write) come with warnings(),
    // the same as the whole validation's, and strict parsing refuses on them.
    let text = "ps_2_0\nmov r0, t0\nadd r0, r0, r1\nmov oC0, r0";
    let shader = Shader::from_asm(text, &ParseOptions::lenient()).unwrap();
    let rules: Vec<Rule> = shader.warnings().iter().map(|w| w.rule).collect();
    assert_eq!(rules, [Rule::Undeclared, Rule::UninitializedRead]);
    let whole = crate::validate::validate(shader.program(), &ParseOptions::lenient().validation);
    assert_eq!(shader.warnings(), whole.warnings.as_slice());
    match Shader::from_asm(text, &ParseOptions::strict()) {
        Err(Error::Invalid { errors }) => {
            assert_eq!(errors.iter().map(|e| e.rule).collect::<Vec<_>>(), rules);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn errors_carry_their_location() {
    let asm = Shader::from_asm("ps_2_0\nmov oC0, q0", &ParseOptions::default()).unwrap_err();
    assert!(matches!(asm.location(), Some(Location::Text { line: 2, column: 10 })), "{asm:?}");
    // Version token, then an instruction token announcing 3 operands and the end of the stream.
    let truncated = Shader::from_tokens(&[0xFFFF_0200, 0x0300_0002], &ParseOptions::default()).unwrap_err();
    assert!(matches!(truncated, Error::Decode(_)), "{truncated:?}");
    assert!(matches!(truncated.location(), Some(Location::Token(_))));
    let unaligned = Shader::parse(&[0, 2, 0xFF, 0xFF, 1], &ParseOptions::default()).unwrap_err();
    assert!(matches!(unaligned, Error::Decode(_) | Error::Input(_)), "{unaligned:?}");
}

#[test]
fn shaders_are_send_and_sync() {
    fn both<T: Send + Sync>() {}
    both::<Shader>();
    both::<crate::Translation>();
}

/// The same parses and translations from one thread and from eight at once, each thread translating every
/// shader under several keys in its own order: identical output proves no shared state leaks.
#[test]
fn translation_from_many_threads_matches_one_thread() {
    let shaders = [lenient(VS), lenient(PS), lenient("ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0")];
    let keys: Vec<ShaderKey> = ["float_rules=strict", "float_rules=ieee", "alpha_func=greater", "fog=linear"]
        .iter()
        .map(|kv| {
            let mut k = ShaderKey::default();
            k.set(kv).unwrap();
            k
        })
        .collect();
    let jobs: Vec<(usize, usize)> = (0..shaders.len()).flat_map(|s| (0..keys.len()).map(move |k| (s, k))).collect();
    let one = |s: usize, k: usize| -> String { shaders[s].translate(&keys[k]).unwrap().to_wgsl().unwrap() };
    let expected: Vec<String> = jobs.iter().map(|&(s, k)| one(s, k)).collect();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..8)
            .map(|t| {
                let (jobs, expected, one, shaders) = (&jobs, &expected, &one, &shaders);
                scope.spawn(move || {
                    // Parsing from several threads gives the same shader as parsing from one.
                    assert_eq!(lenient(PS).reflection(), shaders[1].reflection());
                    for round in 0..4 {
                        for i in 0..jobs.len() {
                            let j = (i * 7 + t + round) % jobs.len();
                            assert_eq!(one(jobs[j].0, jobs[j].1), expected[j], "thread {t}, job {j}");
                        }
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
    });
}

#[test]
fn key_from_device_state_and_translation_under_it() {
    let ps = lenient(PS);
    let mut state = crate::DeviceState { alpha_test_enable: true, alpha_func: 5, ..Default::default() };
    state.textures[0] = Some(crate::BoundTexture::Tex2D);
    let key = ps.key(&state);
    assert_eq!(key.alpha_func, crate::key::CompareFunc::Greater);
    // s2 (the cube sampler) has nothing bound: no binding is emitted for it.
    let t = ps.translate(&key).unwrap();
    let bound: Vec<u16> = t.layout.textures.iter().map(|b| b.sampler).collect();
    assert_eq!(bound, [0]);
}

#[test]
fn load_reads_every_form_of_one_shader() {
    // ps_2_0: mov oC0, c0 (version 0xFFFF0200, D3DSIO_MOV with one destination and one source).
    let tokens = [0xFFFF_0200u32, 0x0200_0001, 0x800F_0800, 0xA0E4_0000, 0x0000_FFFF];
    let blob: Vec<u8> = tokens.iter().flat_map(|t| t.to_le_bytes()).collect();
    let hex = tokens.iter().map(|t| format!("0x{t:08x}")).collect::<Vec<_>>().join(", ");
    let header = format!("const DWORD g_ps[] = {{ {hex} }};\n");
    let listing = "ps_2_0\nmov oC0, c0\n";
    for input in [&blob[..], hex.as_bytes(), header.as_bytes(), listing.as_bytes()] {
        let s = Shader::load(input, &ParseOptions::default()).unwrap();
        assert_eq!(s.tokens(), tokens);
    }
    let two = format!("{header}const DWORD g_ps2[] = {{ {hex} }};\n");
    let e = Shader::load(two.as_bytes(), &ParseOptions::default()).unwrap_err();
    assert!(matches!(e, Error::Input(crate::input::InputError::Several(2))), "{e}");
}

#[test]
fn a_dxbc_container_is_named_as_such() {
    // The D3D10/11 container: "DXBC", a 16-byte checksum, 1, the total size, the chunk count.
    let mut dxbc = b"DXBC".to_vec();
    dxbc.extend([0u8; 16]);
    dxbc.extend([1, 0, 0, 0, 32, 0, 0, 0, 0, 0, 0, 0]);
    for e in [
        Shader::parse(&dxbc, &ParseOptions::default()).unwrap_err(),
        Shader::load(&dxbc, &ParseOptions::default()).unwrap_err(),
    ] {
        assert!(matches!(e, Error::Input(crate::input::InputError::Dxbc)));
        let text = e.to_string();
        assert!(text.contains("DXBC") && text.contains("not Direct3D 9"), "{text}");
    }
}

#[test]
fn a_vertex_shaders_c256_says_software_vertex_processing_allows_it() {
    for version in ["vs_2_0", "vs_3_0"] {
        let text = format!("{version}\ndcl_position v0\nadd r0, v0, c256\nmov oPos, r0\n");
        let text = if version == "vs_3_0" {
            text.replace("oPos", "o0").replace("dcl_position v0", "dcl_position v0\ndcl_position o0")
        } else {
            text
        };
        let e = Shader::from_asm(&text, &ParseOptions::default()).unwrap_err().to_string();
        assert!(e.contains("c256") && e.contains("software vertex processing") && e.contains("swvp"), "{version}: {e}");
    }
}
