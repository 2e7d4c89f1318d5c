//! The native half of the API, tested without a browser: what the playground shows for valid,
//! invalid and broken inputs.

use crate::document::{translate_pair, Document, LoadOptions};
use d3d9_shader::Delivery;

fn load(text: &str) -> Document {
    Document::load(text.as_bytes(), &LoadOptions::default()).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn a_pixel_shader_has_a_listing_reflection_and_wgsl() {
    let doc = load("ps_2_0\ndcl t0.xy\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n");
    assert_eq!((doc.stage(), doc.version().as_str(), doc.format()), ("pixel", "ps_2_0", "asm"));
    // Line 1 is the version; instruction i is on line i + 2.
    let lines: Vec<&str> = doc.listing().lines().collect();
    assert_eq!(lines[0], "ps_2_0");
    assert_eq!(doc.instruction_line(2), Some(4));
    assert_eq!(lines[3], "texld r0, t0, s0");
    assert!(doc.is_valid() && doc.messages().is_empty());
    let reflection: serde_json::Value = serde_json::from_str(&doc.reflection_json().unwrap()).unwrap();
    assert_eq!(reflection["version"], "ps_2_0");
    let out = doc.translate([]).unwrap();
    assert!(out.wgsl().unwrap().contains("fn ps_main"));
    assert_eq!(out.spirv().unwrap()[0], 0x0723_0203, "the SPIR-V magic number");
    assert!(out.spirv_text().unwrap().contains("OpEntryPoint Fragment"));
    let bindings: serde_json::Value = serde_json::from_str(&out.bindings_json().unwrap()).unwrap();
    // Pixel shaders bind group 1; s0's texture at 16 + 2·0 (the README's binding layout).
    assert_eq!(bindings["layout"]["group"], 1);
    assert_eq!(bindings["layout"]["textures"][0]["texture_binding"], 16);
}

#[test]
fn key_fields_reach_the_translation_and_bad_ones_are_named() {
    let doc = load("ps_2_0\nmov oC0, c0\n");
    let plain = doc.translate([]).unwrap().wgsl().unwrap();
    let tested = doc.translate([("alpha_func", "less")]).unwrap().wgsl().unwrap();
    assert_ne!(plain, tested, "an alpha test adds a discard");
    let e = doc.translate([("alpha_func", "sometimes")]).err().unwrap();
    assert_eq!(e.kind, "key");
    assert!(e.message.contains("alpha_func"), "{}", e.message);
}

#[test]
fn the_constants_deliveries_and_values_reach_the_translation() {
    // `if b1` and `rep i2` read from the application: by default from their buffers; baked,
    // the key's values are in the code (docs: `key::delivery`).
    let doc = load(
        "vs_3_0\ndcl_position v0\ndcl_position o0\nmov r0, v0\nif b1\nadd r0, r0, v0\nendif\n\
         rep i2\nadd r0, r0, v0\nendrep\nmov o0, r0\n",
    );
    let wgsl = |fields: &[(&str, &str)]| doc.translate(fields.iter().copied()).unwrap().wgsl().unwrap();
    let baked = [("deliver.bool_constants", "baked"), ("deliver.int_constants", "baked")];
    let values = [("bool_constants", "2"), ("int2", "3,0,1,0")];
    let mut key = d3d9_shader::ShaderKey::default();
    (key.delivery.bool_constants, key.delivery.int_constants) = (Delivery::Baked, Delivery::Baked);
    key.set_constants(&[false, true], &[[0; 4], [0; 4], [3, 0, 1, 0]]);
    let shader = d3d9_shader::Shader::from_asm(doc.listing(), &Default::default()).unwrap();
    let rust = shader.translate(&key).unwrap().to_wgsl().unwrap();
    assert_eq!(wgsl(&[baked[0], baked[1], values[0], values[1]]), rust);
    assert_ne!(wgsl(&values), rust, "not baked: the values are not read");
    // `deliver: "baked"` bakes every field, the constants included.
    assert_eq!(wgsl(&[("deliver", "baked"), values[0], values[1]]), wgsl(&[baked[0], baked[1], values[0], values[1]]));
    let override_all = doc.translate([("deliver", "override")]).unwrap().wgsl().unwrap();
    assert!(override_all.contains("override bool_constants"), "{override_all}");
    let e = doc.translate([("deliver.bool_constants", "sometimes")]).err().unwrap();
    assert_eq!(e.kind, "key");
    assert!(doc.translate([("deliver.colour", "baked")]).is_err());
}

#[test]
fn an_invalid_program_keeps_its_listing_and_points_at_the_instruction() {
    // Writing oC1 without oC0 is refused (docs/d3d9-rules.md, colour outputs): the message points
    // at the instruction that writes oC1, the second one.
    let options = LoadOptions { strict: true, ..LoadOptions::default() };
    let doc =
        Document::load(b"ps_2_0\ndef c0, 1, 1, 1, 1\nmov oC1, c0\n", &options).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(!doc.is_valid());
    let error = doc.messages().iter().find(|m| m.severity == "error" && m.token.is_some()).expect("an error");
    assert!(error.message.contains("oC1"), "{}", error.message);
    assert!(error.token.is_some());
    assert_eq!(error.line.map(|l| doc.listing().lines().nth(l - 1).unwrap()), Some("mov oC1, c0"));
    // Translating says why with the first error (here "oC0 is never written", of no instruction).
    let e = doc.translate([]).err().unwrap();
    assert_eq!((e.kind, &e.message), ("invalid", &doc.messages()[0].message));
}

#[test]
fn broken_inputs_name_their_token_or_line() {
    // ps_2_0, then an instruction token of opcode 0x00FF, which no version defines: token 1.
    let blob: Vec<u8> =
        [0xFFFF_0200u32, 0x0100_00FF, 0x800F_0000, 0x0000_FFFF].iter().flat_map(|t| t.to_le_bytes()).collect();
    let e = Document::load(&blob, &LoadOptions::default()).err().unwrap();
    assert_eq!((e.kind, e.token), ("decode", Some(1)), "{}", e.message);
    // Assembly: the unknown mnemonic on line 2, column 1.
    let e = Document::load(b"ps_2_0\nfrobnicate r0, r1\n", &LoadOptions::default()).err().unwrap();
    assert_eq!((e.kind, e.line, e.column), ("asm", Some(2), Some(1)), "{}", e.message);
    let e = Document::load(b"", &LoadOptions::default()).err().unwrap();
    assert_eq!(e.kind, "input");
}

#[test]
fn a_pair_links_by_semantic() {
    let vs =
        load("vs_3_0\ndcl_position v0\ndcl_texcoord3 v1\ndcl_position o0\ndcl_texcoord3 o1\nmov o0, v0\nmov o1, v1\n");
    let ps = load("ps_3_0\ndcl_texcoord3 v0\nmov oC0, v0\n");
    let (vs_out, ps_out) = translate_pair(&vs, &ps, [], []).unwrap();
    let location = |json: String, side: &str| {
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let slots = v["interface"][side].as_array().unwrap().clone();
        slots.into_iter().find(|s| s["usage_index"] == 3).map(|s| s["location"].clone())
    };
    let written = location(vs_out.bindings_json().unwrap(), "outputs");
    assert!(written.is_some());
    assert_eq!(written, location(ps_out.bindings_json().unwrap(), "inputs"));
}
