//! The writer's own rules, read back from the words: the header, one declaration per
//! non-aggregate type, the interface list per SPIR-V version, what a `texkill` and a loop become,
//! and the fallback for what it does not cover. (Every translation of the corpora passing
//! `spirv-val` and drawing like the CPU reference is proved in tests/tests: spirv_target.rs,
//! translate_corpus.rs, and `D3D9_GPU_SOURCE=spirv cargo xtask conformance`.)

use spirv::Op;

use crate::{translate, ShaderKey};

fn words_of(asm: &str, key: &ShaderKey, version: (u8, u8)) -> Vec<u32> {
    let program = crate::asm::assemble(asm).unwrap_or_else(|e| panic!("{e}\n{asm}"));
    let t = translate(&program, key).expect("translates");
    super::write(&t.module, t.facts(), version).expect("the writer covers the module")
}

/// Every instruction: (opcode, operands).
fn instructions(words: &[u32]) -> Vec<(u32, &[u32])> {
    let mut out = Vec::new();
    let mut i = 5;
    while i < words.len() {
        let count = (words[i] >> 16) as usize;
        assert!(count > 0 && i + count <= words.len(), "word count {count} at word {i}");
        out.push((words[i] & 0xFFFF, &words[i + 1..i + count]));
        i += count;
    }
    out
}

const PS: &str = "ps_3_0
dcl_texcoord0 v0
dcl_2d s0
def c0, 0, 0.5, 1, 2
defi i0, 3, 0, 1, 0
mov r0, c0.x
rep i0
  add r0, r0, c0.y
endrep
texkill v0
texld r1, v0, s0
mul oC0, r0, r1
";

#[test]
fn the_header_names_the_version_and_bounds_every_id() {
    for version in [(1, 0), (1, 3), (1, 5)] {
        let words = words_of(PS, &ShaderKey::default(), version);
        assert_eq!(words[0], spirv::MAGIC_NUMBER);
        assert_eq!(words[1], (u32::from(version.0) << 16) | (u32::from(version.1) << 8));
        let bound = words[3];
        for (op, operands) in instructions(&words) {
            if op == Op::Label as u32 || op == Op::TypeFloat as u32 || op == Op::TypeVoid as u32 {
                assert!(operands[0] < bound, "id {} at or past the bound {bound}", operands[0]);
            }
        }
    }
}

#[test]
fn non_aggregate_types_are_declared_once() {
    let words = words_of(PS, &ShaderKey::default(), (1, 0));
    let mut seen = std::collections::HashSet::new();
    for (op, operands) in instructions(&words) {
        let unique =
            [Op::TypeVector, Op::TypePointer, Op::TypeFloat, Op::TypeInt, Op::TypeBool, Op::TypeImage, Op::TypeSampler];
        if unique.iter().any(|&u| u as u32 == op) {
            assert!(seen.insert((op, operands[1..].to_vec())), "type {op} {:?} declared twice", &operands[1..]);
        }
    }
}

#[test]
fn from_1_4_the_interface_lists_the_resources_too() {
    let interface_len = |version| {
        let words = words_of(PS, &ShaderKey::default(), version);
        let ops = instructions(&words);
        let (_, entry) = ops.into_iter().find(|(op, _)| *op == Op::EntryPoint as u32).expect("an entry point");
        entry.len()
    };
    // The texture, the sampler and the private `def` banks join the inputs and outputs.
    assert!(interface_len((1, 4)) > interface_len((1, 0)));
}

#[test]
fn texkill_is_a_kill_and_rep_a_structured_loop() {
    let words = words_of(PS, &ShaderKey::default(), (1, 0));
    let ops: Vec<u32> = instructions(&words).into_iter().map(|(op, _)| op).collect();
    assert!(ops.contains(&(Op::LoopMerge as u32)), "rep is an OpLoopMerge loop");
    assert!(ops.contains(&(Op::SelectionMerge as u32)), "texkill's test is a structured selection");
    assert!(ops.contains(&(Op::Kill as u32)));
    assert!(ops.contains(&(Op::ImageSampleImplicitLod as u32)));
    // Fragment shaders run with the origin at the upper left (Vulkan's only choice).
    let modes: Vec<&[u32]> =
        instructions(&words).into_iter().filter(|(op, _)| *op == Op::ExecutionMode as u32).map(|(_, o)| o).collect();
    assert!(modes.iter().any(|o| o[1] == spirv::ExecutionMode::OriginUpperLeft as u32));
}

#[test]
fn a_module_with_overrides_is_left_to_naga() {
    let program = crate::asm::assemble(PS).unwrap();
    let mut t = translate(&program, &ShaderKey::default()).unwrap();
    t.module.overrides.append(
        naga::Override {
            name: Some("x".into()),
            id: None,
            ty: t.module.types.iter().next().map(|(h, _)| h).unwrap(),
            init: None,
        },
        naga::Span::UNDEFINED,
    );
    assert_eq!(super::write(&t.module, t.facts(), (1, 0)), Err(super::Unsupported("override")));
}

/// A module from WGSL (the fixed-function generator's route), validated.
fn words_of_wgsl(source: &str) -> Vec<u32> {
    let module = naga::front::wgsl::parse_str(source).expect("WGSL");
    let analysis = crate::emit::Analysis::validated(&module).expect("valid");
    super::write(&module, analysis.facts(), (1, 0)).expect("the writer covers the module")
}

#[test]
fn unsigned_division_takes_a_zero_divisor_as_one() {
    let words = words_of_wgsl(
        "@fragment fn main(@location(0) @interpolate(flat) v: vec2<u32>) -> @location(0) vec4<u32> {
            return vec4<u32>(v.x / v.y, v.x % v.y, 0u, 0u);
        }",
    );
    let ops = instructions(&words);
    for div in [Op::UDiv, Op::UMod] {
        let at = ops.iter().position(|(op, _)| *op == div as u32).expect("the division");
        // The divisor is `select(b, 1u, b == 0u)`: WGSL's rule, which naga's writer keeps too.
        let (_, operands) = ops[at];
        let (select_at, (_, select)) = ops
            .iter()
            .enumerate()
            .find(|(_, (op, o))| *op == Op::Select as u32 && o[1] == operands[3])
            .expect("the guard");
        assert!(select_at < at);
        let (_, compare) = ops.iter().find(|(op, o)| *op == Op::IEqual as u32 && o[1] == select[2]).expect("b == 0");
        assert_eq!(compare.len(), 4);
    }
}

#[test]
fn matrix_products_and_layouts_are_spirv_matrices() {
    let words = words_of_wgsl(
        "struct M { m: array<mat4x4<f32>, 2> }
        @group(0) @binding(0) var<uniform> u: M;
        @vertex fn main(@location(0) p: vec4<f32>) -> @builtin(position) vec4<f32> {
            return u.m[1] * (p * u.m[0]);
        }",
    );
    let ops = instructions(&words);
    let has = |op: Op| ops.iter().any(|(o, _)| *o == op as u32);
    assert!(has(Op::TypeMatrix) && has(Op::MatrixTimesVector) && has(Op::VectorTimesMatrix));
    // The array of matrices is column-major with 16-byte columns.
    let layout: Vec<u32> = ops
        .iter()
        .filter(|(op, o)| *op == Op::MemberDecorate as u32 && o[2] != spirv::Decoration::Offset as u32)
        .map(|(_, o)| o[2])
        .collect();
    assert!(layout.contains(&(spirv::Decoration::ColMajor as u32)));
    assert!(ops.iter().any(|(op, o)| *op == Op::MemberDecorate as u32
        && o[2] == spirv::Decoration::MatrixStride as u32
        && o[3] == 16));
}
