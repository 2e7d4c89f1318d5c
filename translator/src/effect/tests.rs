//! The reader on the hand-built sample effect (`fuzz::sample_effect`, whose layout is written out
//! word by word there) and on damaged copies of it; then the run-time rules `docs/effects.md`
//! derives from Windows results ("Parameter usage", "State values"), on effects built in memory,
//! each test naming the expectation record that pins it.

use std::collections::BTreeSet;

use super::parameters::{State, StateSource};
use super::runtime::{EffectRuntime, PassState, RuntimeError, StateValue};
use super::skip::skip_list_names;
use super::values::{constant_registers, device_word};
use super::*;
use crate::fuzz::{mutate_effect, sample_effect, Rng};

#[test]
fn the_sample_effect_reads_as_built() {
    let e = Effect::parse(&sample_effect()).expect("the sample parses");
    assert_eq!(e.parameters.len(), 1);
    let p = &e.parameters[0];
    assert_eq!((p.name.as_str(), p.semantic.as_str()), ("g_Color", "COLOR"));
    assert_eq!((p.class, p.ty, p.rows, p.columns, p.elements), (ParameterClass::Vector, ParameterType::Float, 1, 4, 0));
    assert_eq!(p.value, [0x3f80_0000, 0x3f00_0000, 0, 0x3f80_0000]);
    // The value starts at base offset 52: byte 8 + 52.
    assert_eq!(p.value_offset, 60);
    assert_eq!(p.annotations[0].name, "a");
    assert_eq!(p.annotations[0].value, [7]);
    assert_eq!(e.techniques[0].name, "t");
    let state = &e.techniques[0].passes[0].states[0];
    assert_eq!((state.name(), state.index, state.value.value.as_slice()), ("ZENABLE", 0, &[1u32][..]));
}

#[test]
fn names_resolve_and_the_pass_gives_typed_states() {
    let e = Effect::parse(&sample_effect()).expect("the sample parses");
    let mut rt = EffectRuntime::new(&e);
    let a = rt.handle("g_Color@a").expect("the annotation by full name");
    assert_eq!(rt.store.value(a), [7]);
    assert!(rt.handle("g_Color.x").is_err(), "a vector has no members");
    assert_eq!(rt.by_semantic("color"), rt.handle("g_Color").ok(), "semantics compare without case");
    assert_eq!(rt.begin(), Ok(1));
    let pass = rt.begin_pass(0).expect("the pass");
    let z = &pass.states[0];
    assert_eq!((z.name, z.class, z.code), ("ZENABLE", StateClass::RenderState, 7), "D3DRS_ZENABLE is 7");
    assert_eq!(z.value, StateValue::Words { ty: ParameterType::Int, words: vec![1] });
    // Nothing the pass reads changed: a commit recomputes nothing.
    assert_eq!(rt.commit().expect("commit").states, []);
}

#[test]
fn every_truncation_is_an_error_naming_a_byte_offset() {
    let blob = sample_effect();
    for len in 0..blob.len() {
        let e = Effect::parse(&blob[..len]).expect_err("a cut blob is malformed");
        assert!(e.offset() <= blob.len(), "{len}: {e}");
        assert!(e.to_string().starts_with("byte "), "{len}: {e}");
    }
}

#[test]
fn a_wrapped_effect_reads_like_the_bare_one() {
    let mut wrapped = vec![0xCF, 0x0B, 0xF0, 0xBC, 12, 0, 0, 0, 0, 0, 0, 0];
    wrapped.extend(sample_effect());
    let e = Effect::parse(&wrapped).expect("the XNA wrapper is accepted");
    assert_eq!(e.header.start, 12);
    assert_eq!(e.parameters[0].value_offset, 72);
    let bad = Effect::parse(&[1, 2, 3, 4, 0, 0, 0, 0]).expect_err("a bad magic");
    assert_eq!(bad, EffectError::BadMagic { offset: 0, magic: 0x0403_0201 });
}

#[test]
fn damaged_samples_never_panic() {
    let blob = sample_effect();
    let mut rng = Rng::new(17);
    for _ in 0..20_000 {
        let bytes = mutate_effect(&blob, &mut rng);
        if let Ok(e) = Effect::parse(&bytes) {
            let mut rt = EffectRuntime::new(&e);
            if rt.begin().is_ok_and(|n| n > 0) {
                let _ = rt.begin_pass(0);
            }
        }
    }
}

fn param(name: &str, class: ParameterClass, ty: ParameterType, rows: u32, columns: u32, value: &[u32]) -> Parameter {
    Parameter {
        name: name.into(),
        semantic: String::new(),
        class,
        ty,
        rows,
        columns,
        elements: 0,
        flags: 0,
        annotations: Vec::new(),
        element_list: Vec::new(),
        members: Vec::new(),
        value: value.to_vec(),
        sampler_states: Vec::new(),
        value_offset: 0,
    }
}

fn object(name: &str, ty: ParameterType, id: u32) -> Parameter {
    param(name, ParameterClass::Object, ty, 0, 0, &[id])
}

fn sampler(name: &str, states: Vec<State>) -> Parameter {
    Parameter { sampler_states: states, ..param(name, ParameterClass::Object, ParameterType::Sampler, 0, 0, &[]) }
}

/// A state of operation `op` whose value comes from parameter `from`.
fn referencing(op: u32, index: u32, value: Parameter, from: &str) -> State {
    State { source: StateSource::Parameter { name: from.into() }, ..State::new(op, index, value, 0) }
}

fn effect(parameters: Vec<Parameter>, techniques: Vec<Vec<State>>, objects: Vec<Object>) -> Effect {
    let techniques = techniques
        .into_iter()
        .enumerate()
        .map(|(i, states)| Technique {
            name: format!("t{i}"),
            annotations: Vec::new(),
            passes: vec![Pass { name: "p".into(), annotations: Vec::new(), states }],
        })
        .collect();
    let header = Header { start: 0, structure_offset: 0, unknown: 0, object_count: 0, inline_objects: 0, resources: 0 };
    Effect { header, parameters, techniques, objects }
}

#[test]
fn a_name_with_any_text_after_an_element_is_not_found_and_does_not_panic() {
    // Fuzzing found `a[1]` followed by a multi-byte character: the name is caller text, so the
    // resolver must step over characters, not bytes.
    let element = |v| param("", ParameterClass::Scalar, ParameterType::Float, 1, 1, &[v]);
    let mut array = param("a", ParameterClass::Scalar, ParameterType::Float, 1, 1, &[]);
    array.elements = 2;
    array.element_list = vec![element(1), element(2)];
    let e = effect(vec![array], Vec::new(), Vec::new());
    let rt = EffectRuntime::new(&e);
    let one = rt.handle("a[1]").expect("an element by index");
    assert_eq!(rt.store.value(one), [2]);
    for name in ["a[1]\u{e9}", "a[1]\u{1f600}.x", "a\u{e9}[0]", "a[\u{e9}]"] {
        assert!(rt.handle(name).is_err(), "{name:?} names nothing");
    }
}

/// Operation numbers `docs/effects.md` lists as pinned by Windows results.
const TEXTURE: u32 = 0xa4;
const MAG_FILTER: u32 = 0xa9;
const SAMPLER: u32 = 0xb2;
const FOGDENSITY: u32 = 0x14;
const VS_CONSTANT4: u32 = 0x9b;

#[test]
fn the_pinned_operation_numbers_name_their_states() {
    let name = |op| State::new(op, 0, param("", ParameterClass::Scalar, ParameterType::Int, 1, 1, &[0]), 0).name();
    assert_eq!(
        [TEXTURE, MAG_FILTER, SAMPLER, FOGDENSITY, VS_CONSTANT4].map(name),
        ["Texture", "MagFilter", "Sampler", "FOGDENSITY", "VertexShaderConstant4"]
    );
}

#[test]
fn a_sampler_state_texture_makes_the_texture_used() {
    // wine_preshader used[10]: tex1 is used only through `sampler1 { Texture = tex1 }`, which
    // a shader's sampler register names; tex2 (used[11]) is named by nothing the technique reaches.
    let texture = object("", ParameterType::Texture2D, 0);
    let samp = sampler("samp", vec![referencing(TEXTURE, 256, texture.clone(), "tex1")]);
    let inline =
        Parameter { sampler_states: vec![referencing(TEXTURE, 256, texture.clone(), "tex2")], ..sampler("", vec![]) };
    let e = effect(
        vec![object("tex1", ParameterType::Texture2D, 0), object("tex2", ParameterType::Texture2D, 1), samp.clone()],
        vec![
            vec![referencing(SAMPLER, 0, sampler("", vec![]), "samp")],
            vec![State::new(SAMPLER, 0, inline, 0)],
            vec![],
        ],
        vec![Object::default(), Object::default()],
    );
    let names = |t| e.used_parameters(t).into_iter().collect::<Vec<_>>();
    assert_eq!(names(0), ["samp", "tex1"], "Sampler[0] = samp: the sampler and its texture");
    assert_eq!(names(1), ["tex2"], "an inline sampler_state block's Texture");
    assert!(names(2).is_empty());
    assert!(e.used_parameters(7).is_empty(), "no such technique");
}

#[test]
fn a_skip_list_reads_identifiers_and_accepts_names_no_shader_binds() {
    // test_effect_skip_constants (Wine's effect.c): " v1#,.+-= &\t\nv2*/!\"'v5 v6[1]" names v1,
    // v2, v5, v6, and v5, a parameter no shader binds, is accepted (D3D_OK).
    let names: Vec<String> = skip_list_names(" v1#,.+-= &\t\nv2*/!\"'v5 v6[1]").into_iter().collect();
    assert_eq!(names, ["v1", "v2", "v5", "v6"]);
    assert!(skip_list_names(" ; 12 ").is_empty(), "separators and a digit run name nothing");
    let e = effect(vec![param("f", ParameterClass::Scalar, ParameterType::Float, 1, 1, &[0])], vec![], vec![]);
    assert_eq!(e.skip_constants(" ; "), Ok(BTreeSet::new()), "an empty list");
    assert_eq!(e.skip_constants("f;nothing").map(|s| s.len()), Ok(2), "bound by no shader: accepted");
    assert!(EffectRuntime::with_skip_constants(&e, "f").is_ok());
    let pool = EffectPool::new();
    let rt = EffectRuntime::in_pool_with_skip_constants(&e, &pool, "f g").unwrap();
    assert_eq!(rt.skipped().len(), 2);
}

#[test]
fn a_one_dword_state_takes_its_d3d9_type() {
    // wine_preshader scenario[0]/[1]: `MagFilter = <float expression>` reaches the device as
    // the integer (MAGFILTER of sampler 0 = 3), while FOGDENSITY keeps a float's bits.
    let three = 3.0f32.to_bits();
    use super::states::StateClass::*;
    assert_eq!(device_word(three, ParameterType::Float, SamplerState, 5), 3, "D3DSAMP_MAGFILTER");
    assert_eq!(device_word(three, ParameterType::Float, RenderState, 38), three, "D3DRS_FOGDENSITY");
    assert_eq!(device_word(2, ParameterType::Int, RenderState, 36), 2.0f32.to_bits(), "D3DRS_FOGSTART of an int");
    assert_eq!(device_word(1, ParameterType::Bool, RenderState, 7), 1, "D3DRS_ZENABLE of a bool");
    let float3 = param("", ParameterClass::MatrixRows, ParameterType::Float, 1, 1, &[three]);
    let samp = Parameter { sampler_states: vec![State::new(MAG_FILTER, 256, float3, 0)], ..sampler("", vec![]) };
    let e = effect(vec![], vec![vec![State::new(SAMPLER, 2, samp, 0)]], vec![]);
    let mut rt = EffectRuntime::new(&e);
    rt.begin().expect("begin");
    let pass = rt.begin_pass(0).expect("the pass");
    let StateValue::Sampler { states } = &pass.states[0].value else { panic!("a sampler state: {:?}", pass.states) };
    assert_eq!(states[0].value, StateValue::Words { ty: ParameterType::Int, words: vec![3] });
}

#[test]
fn a_constant_state_writes_one_column_per_register() {
    // wine_states scenario[0] (effect.c:3115–3136): VertexShaderConstant4[4] = {4,4,4,4,
    // 5,5,5,5, 6}, stored as a 9 × 1 MATRIX_COLUMNS value, leaves c4 = 4,4,4,4, c5 = c6 = 0 and
    // c7 untouched; VertexShaderConstant1[3] = {2,2,2,2} (4 × 1) writes c3 = 2,2,2,2.
    let f = |v: f32| v.to_bits();
    let mut nine = vec![f(4.0); 4];
    nine.extend([f(5.0); 4]);
    nine.push(f(6.0));
    let value = param("", ParameterClass::MatrixColumns, ParameterType::Float, 9, 1, &nine);
    assert_eq!(constant_registers(&value), [[f(4.0); 4], [0; 4], [0; 4]]);
    let four = param("", ParameterClass::MatrixColumns, ParameterType::Float, 4, 1, &[f(2.0); 4]);
    assert_eq!(constant_registers(&four), [[f(2.0); 4]]);
    let one = param("", ParameterClass::MatrixColumns, ParameterType::Float, 1, 1, &[f(3.0)]);
    assert_eq!(constant_registers(&one), [[f(3.0), 0, 0, 0]]);
    let e = effect(vec![], vec![vec![State::new(VS_CONSTANT4, 4, value, 0)]], vec![]);
    let mut rt = EffectRuntime::new(&e);
    rt.begin().expect("begin");
    let pass = rt.begin_pass(0).expect("the pass");
    let StateValue::Words { words, .. } = &pass.states[0].value else { panic!("{:?}", pass.states) };
    assert_eq!(words.len(), 12, "three registers");
    assert_eq!(&words[4..], [0; 8]);
}

#[test]
fn set_string_survives_a_clone() {
    // wine_clone value[1]: SetString(s) then CloneEffect; the clone reads the new text.
    let text = Object { offset: None, data: Vec::new(), kind: ObjectKind::String { text: "old".into() } };
    let e = effect(
        vec![
            object("s", ParameterType::String, 0),
            param("f", ParameterClass::Scalar, ParameterType::Float, 1, 1, &[0]),
        ],
        vec![],
        vec![text],
    );
    let mut rt = EffectRuntime::new(&e);
    let s = rt.handle("s").expect("s");
    assert_eq!(rt.get_string(s).as_deref(), Ok("old"));
    rt.set_string(s, "tiny silver hammers").expect("SetString");
    let clone = rt.clone();
    assert_eq!(clone.get_string(s).as_deref(), Ok("tiny silver hammers"));
    let f = rt.handle("f").expect("f");
    assert_eq!(rt.get_string(f), Err(RuntimeError::NotAString("f".into())));
    assert!(rt.set_string(f, "x").is_err());
}

/// An effect whose one pass sets `VertexShader = vs_arr[sel]` (an array selector whose
/// preshader moves the float `sel` to its output), vs_arr holding two vs_2_0 shaders.
fn selector_effect() -> Effect {
    use super::preshader::{Instruction, Opcode, Operand, Register, Table};
    use crate::bytecode::ctab::{ConstantInfo, RegisterSet, TypeInfo};
    let sel = ConstantInfo {
        name: "sel".into(),
        register_set: RegisterSet::Float4,
        register_index: 0,
        register_count: 1,
        reserved: 0,
        type_info: TypeInfo { class: 0, ty: 3, rows: 1, columns: 1, elements: 1, members: Vec::new() },
        default_value: None,
    };
    let mov = Instruction {
        opcode: Opcode::Mov,
        scalar: false,
        components: 1,
        inputs: vec![Operand { register: Register { table: Table::Input, offset: 0 }, index: None }],
        output: Register { table: Table::Output, offset: 0 },
    };
    // Register counts per table: one input, one float output.
    let preshader = Preshader {
        version: 0x4658_0200,
        literals: Vec::new(),
        instructions: vec![mov],
        inputs: vec![sel],
        table_sizes: [0, 1, 0, 1, 0, 0, 0],
        offset: 0,
    };
    let element = |id| object("vs_arr", ParameterType::VertexShader, id);
    let vs_arr = Parameter { elements: 2, element_list: vec![element(0), element(1)], ..element(0) };
    let vs_arr = Parameter { value: vec![0, 1], ..vs_arr };
    let source = StateSource::ArraySelector { name: "vs_arr".into(), preshader: Box::new(preshader) };
    let state = State { source, ..State::new(0x92, 0, object("", ParameterType::VertexShader, 0), 0) };
    let one = 1.0f32.to_bits();
    let tokens: Vec<u8> = [0xFFFE_0200u32, 0x0000_FFFF].iter().flat_map(|w| w.to_le_bytes()).collect();
    let shader = || Object {
        offset: None,
        data: tokens.clone(),
        kind: ObjectKind::Shader(Box::new(EffectShader::new(&tokens, 0).expect("an empty vs_2_0"))),
    };
    effect(
        vec![vs_arr, param("sel", ParameterClass::Scalar, ParameterType::Float, 1, 1, &[one])],
        vec![vec![state]],
        vec![shader(), shader()],
    )
}

#[test]
fn get_pass_desc_reads_the_last_computed_selection() {
    // wine_preshader scenario[5] (effect.c:6885–6927): GetPassDesc fails while the index is
    // past the array, twice; the BeginPass after it keeps the element chosen before, and
    // GetPassDesc then agrees with it.
    let e = selector_effect();
    let mut rt = EffectRuntime::new(&e);
    let sel = rt.handle("sel").expect("sel");
    assert_eq!(rt.pass_desc(0, 0).map(|d| d.vertex_shader), Ok(Some(1)), "the default sel = 1");
    rt.set_floats(sel, &[0.0]).expect("SetFloat");
    assert_eq!(rt.pass_desc(0, 0).map(|d| d.vertex_shader), Ok(Some(0)));
    rt.set_floats(sel, &[3.0]).expect("SetFloat");
    assert!(matches!(rt.pass_desc(0, 0), Err(RuntimeError::SelectorOutOfRange { index: 3, .. })));
    assert!(rt.pass_desc(0, 0).is_err(), "repeating gives the same error");
    rt.begin().expect("begin");
    let pass = rt.begin_pass(0).expect("BeginPass");
    assert!(pass.errors.is_empty(), "{:?}", pass.errors);
    assert_eq!(pass.vertex_shader, Some(Some(0)), "the element chosen before");
    assert_eq!(rt.pass_desc(0, 0).map(|d| d.vertex_shader), Ok(Some(0)));
}

#[test]
fn commit_re_sets_a_selected_shader_only_when_the_selection_changes() {
    // wine_preshader scenario[2] (effect.c:5290–5309): after a failed selection (index 3),
    // selecting the previous element again does not re-set the shader; another element does.
    let e = selector_effect();
    let mut rt = EffectRuntime::new(&e);
    let sel = rt.handle("sel").expect("sel");
    rt.begin().expect("begin");
    assert_eq!(rt.begin_pass(0).expect("BeginPass").vertex_shader, Some(Some(1)));
    rt.set_floats(sel, &[3.0]).expect("SetFloat");
    let failed = rt.commit().expect("CommitChanges succeeds");
    assert!(matches!(failed.errors[..], [RuntimeError::SelectorOutOfRange { index: 3, .. }]));
    rt.set_floats(sel, &[1.0]).expect("SetFloat");
    assert_eq!(rt.commit().expect("commit").vertex_shader, None, "element 1 again: not re-set");
    rt.set_floats(sel, &[-1.0]).expect("SetFloat");
    assert_eq!(rt.commit().expect("commit").vertex_shader, Some(Some(0)), "-1 selects element 0");
}

/// D3DX keeps each light whole for the pass: zeroed at BeginPass, the light states written into
/// it, and every light a state changed sent whole, so a commit that changes one member re-sends
/// the others as the pass left them (wine_preshader `scenario[3]`, effect.c:5442); the calls
/// group as `scenario[4]` pins (effect.c:6363). A SetFloat that leaves a scalar's word as it
/// was changes nothing (effect.c:5499).
#[test]
fn lights_are_kept_whole_and_sent_once_per_pass_change() {
    const LIGHT_DIFFUSE: u32 = 0x85;
    const LIGHT_RANGE: u32 = 0x8a;
    const LIGHT_ENABLE: u32 = 0x91;
    let f = |v: f32| v.to_bits();
    let colour = |v: f32| param("", ParameterClass::MatrixRows, ParameterType::Float, 4, 1, &[f(v); 4]);
    let on = param("", ParameterClass::MatrixRows, ParameterType::Int, 1, 1, &[1]);
    let scalar = param("k", ParameterClass::Scalar, ParameterType::Float, 1, 1, &[f(2.0)]);
    let states = vec![
        State::new(LIGHT_DIFFUSE, 3, colour(0.5), 0),
        referencing(LIGHT_RANGE, 3, param("", ParameterClass::MatrixRows, ParameterType::Float, 1, 1, &[0]), "k"),
        State::new(LIGHT_ENABLE, 3, on, 0),
    ];
    let e = effect(vec![scalar], vec![states], vec![]);
    let mut rt = EffectRuntime::new(&e);
    rt.begin().expect("begin");
    let pass = rt.begin_pass(0).expect("the pass");
    // D3DLIGHT9: Type at word 0, Diffuse at 1..5, Range at 19, everything else 0.
    let mut light = [0u32; states::LIGHT_WORDS];
    light[1..5].fill(f(0.5));
    light[19] = f(2.0);
    assert_eq!(pass.lights, [(3, light)]);
    let calls: Vec<(&str, (u32, u32))> = pass.device_calls().iter().map(|c| (c.method(), c.args())).collect();
    assert_eq!(calls, [("LightEnable", (3, 0)), ("SetLight", (3, 0))]);
    let k = rt.handle("k").expect("k");
    rt.set_float(k, 2.0).expect("set");
    assert_eq!(rt.commit().expect("commit").lights, [], "the same word is no change");
    rt.set_float(k, 4.0).expect("set");
    let commit = rt.commit().expect("commit");
    light[19] = f(4.0);
    assert_eq!(commit.lights, [(3, light)], "Diffuse comes again with the changed Range");
    assert!(commit.states.iter().all(|s| s.name == "LightRange"), "only the Range state was evaluated");
}

/// Constants go up as one call per run of consecutive registers of each file, the vtable
/// places as ID3DXEffectStateManager declares its methods (wine_preshader `scenario[4]`:
/// F(0, 34) for registers 0–33).
#[test]
fn constants_go_up_one_call_per_register_run() {
    use super::runtime::{Constants, PassState};
    let pass = PassState {
        vertex_constants: Constants {
            float: [5, 0, 2, 1].iter().map(|&r| (r, [r; 4])).collect(),
            ..Default::default()
        },
        pixel_constants: Constants { bool: vec![(0, true), (1, false)], ..Default::default() },
        ..Default::default()
    };
    let calls = pass.device_calls();
    let summary: Vec<(&str, (u32, u32), usize)> =
        calls.iter().map(|c| (c.method(), c.args(), c.vtable_slot())).collect();
    assert_eq!(
        summary,
        [
            ("SetVertexShaderConstantF", (0, 3), 14),
            ("SetVertexShaderConstantF", (5, 1), 14),
            ("SetPixelShaderConstantB", (0, 2), 20),
        ]
    );
}

/// Effect pools as wine_shared_parameters pins them (effect.c:6560-6616): a `shared`
/// parameter declared the same way is one value across the pool's effects, read by the others
/// and a change for their commits; the first effect's value wins over a later one's default;
/// a different declaration of the same name is another parameter; once the last effect using
/// an entry is gone, the next brings its own default; a parameter without the flag is its own.
#[test]
fn a_pool_shares_parameters_declared_the_same_way() {
    use super::pool::{EffectPool, SHARED};
    let f = |v: f32| v.to_bits();
    let shared = |p: Parameter| Parameter { flags: SHARED, ..p };
    let scalar = |name: &str, v: f32| param(name, ParameterClass::Scalar, ParameterType::Float, 1, 1, &[f(v)]);
    let fog = |from: &str| referencing(FOGDENSITY, 0, scalar("", 0.0), from);
    let a = effect(vec![shared(scalar("s", 1.0)), scalar("own", 1.0)], vec![vec![fog("s")]], vec![]);
    let b = effect(vec![shared(scalar("s", 2.0)), scalar("own", 2.0)], vec![vec![fog("s")]], vec![]);
    let pool = EffectPool::new();
    let mut ra = EffectRuntime::in_pool(&a, &pool);
    let mut rb = EffectRuntime::in_pool(&b, &pool);
    let (sa, sb) = (ra.handle("s").expect("s"), rb.handle("s").expect("s"));
    assert_eq!(rb.value(sb), [f(1.0)], "the first effect's value wins over b's default 2");
    rb.begin().expect("begin");
    rb.begin_pass(0).expect("pass");
    ra.set_float(sa, 5.0).expect("set");
    assert_eq!(rb.commit().expect("commit").states.len(), 1, "a's set is a change for b's commit");
    assert_eq!(rb.value(sb), [f(5.0)]);
    let (oa, ob) = (ra.handle("own").expect("own"), rb.handle("own").expect("own"));
    ra.set_float(oa, 7.0).expect("set");
    assert_eq!(rb.value(ob), [f(2.0)], "a parameter without the flag is each effect's own");
    assert_eq!(pool.len(), 1);

    let pair = Parameter { elements: 2, value: vec![0, 0], ..shared(scalar("s", 0.0)) };
    let c = effect(vec![pair], vec![], vec![]);
    let mut rc = EffectRuntime::in_pool(&c, &pool);
    assert_eq!(pool.len(), 2, "float s[2] is another parameter than float s");
    let sc = rc.handle("s").expect("s");
    assert_eq!(rc.value(sc), [0, 0]);

    drop((ra, rb));
    let mut rb = EffectRuntime::in_pool(&b, &pool);
    let sb = rb.handle("s").expect("s");
    assert_eq!(rb.value(sb), [f(2.0)], "the entry went with its last effect: b's default again");
}

#[test]
fn set_raw_value_copies_bytes_and_find_next_valid_skips_invalid_techniques() {
    // SetRawValue is a memory copy: bytes 4..8 of a float4 are its y.
    let e = effect(vec![param("v", ParameterClass::Vector, ParameterType::Float, 1, 4, &[0; 4])], vec![], vec![]);
    let mut rt = EffectRuntime::new(&e);
    let v = rt.handle("v").unwrap();
    rt.set_raw_value(v, 4, &2.5f32.to_le_bytes()).unwrap();
    assert_eq!(rt.value(v), [0, 2.5f32.to_bits(), 0, 0]);
    assert!(matches!(rt.set_raw_value(v, 14, &[0; 4]), Err(RuntimeError::Size { given: 18, holds: 16, .. })));
    assert_eq!(rt.find_next_valid_technique(None), None, "no technique");
    // A state manager receives the calls device_calls lists, in order.
    let state = PassState { material: Some([7; super::states::MATERIAL_WORDS]), ..PassState::default() };
    let mut got = Vec::new();
    state.deliver(&mut |c: &super::runtime::DeviceCall| got.push(c.method()));
    assert_eq!(got, ["SetMaterial"]);
}

#[test]
fn a_parameter_block_records_sets_without_applying_them() {
    // wine_preshader test_effect_parameter_block: while recording, a read gives the value from
    // before; applying the block makes the sets.
    let e = effect(vec![param("f", ParameterClass::Scalar, ParameterType::Float, 1, 1, &[0])], vec![], vec![]);
    let mut rt = EffectRuntime::new(&e);
    let f = rt.handle("f").unwrap();
    assert!(rt.end_parameter_block().is_err(), "none begun");
    rt.begin_parameter_block().unwrap();
    assert!(rt.begin_parameter_block().is_err(), "one at a time");
    rt.set_float(f, 3.0).unwrap();
    assert_eq!(rt.value(f), [0], "recorded, not applied");
    let block = rt.end_parameter_block().unwrap();
    assert_eq!(block.sets().len(), 1);
    rt.apply_parameter_block(&block).unwrap();
    assert_eq!(rt.value(f), [3.0f32.to_bits()]);
}

#[test]
fn set_matrix_takes_the_top_left_cells_and_transpose_swaps_them() {
    // A float3x2 stores 3 rows of 2 words; SetMatrix gives it _11 _12 / _21 _22 / _31 _32.
    let m = param("m", ParameterClass::MatrixRows, ParameterType::Float, 3, 2, &[0; 6]);
    let e = effect(vec![m], vec![], vec![]);
    let mut rt = EffectRuntime::new(&e);
    let h = rt.handle("m").unwrap();
    let d3dx: [f32; 16] = std::array::from_fn(|i| (11 + 10 * (i / 4) + i % 4) as f32);
    rt.set_matrix(h, &d3dx).unwrap();
    let want: Vec<u32> = [11.0f32, 12.0, 21.0, 22.0, 31.0, 32.0].iter().map(|f| f.to_bits()).collect();
    assert_eq!(rt.value(h), want.as_slice());
    rt.set_matrix_transpose(h, &d3dx).unwrap();
    let want: Vec<u32> = [11.0f32, 21.0, 12.0, 22.0, 13.0, 23.0].iter().map(|f| f.to_bits()).collect();
    assert_eq!(rt.value(h), want.as_slice());
}

/// `0.0, 1.0, … 15.0` plus `base`: a D3DXMATRIX whose `_{r+1}{c+1}` is `base + 4r + c`.
fn counting_matrix(base: f32) -> [f32; 16] {
    std::array::from_fn(|i| base + i as f32)
}

fn bits(values: &[f32]) -> Vec<u32> {
    values.iter().map(|f| f.to_bits()).collect()
}

#[test]
fn set_matrix_transpose_array_transposes_each_element_up_to_the_array_length() {
    // float3x2 m[2]: 2 elements of 3 rows × 2 columns, 12 words. Element n cell (r, c) takes
    // _{c+1}{r+1} of matrix n, i.e. its word 4c + r: for the counting matrix 0..15 the cells
    // (0,0) (0,1) (1,0) (1,1) (2,0) (2,1) are words 0 4 1 5 2 6 (Wine's test_effect_parameter_value
    // SetMatrixTransposeArray expectation: input word l*4 + m goes to row m, column l).
    let array =
        Parameter { elements: 2, ..param("m", ParameterClass::MatrixRows, ParameterType::Float, 3, 2, &[0; 12]) };
    let single = param("s", ParameterClass::MatrixRows, ParameterType::Float, 3, 2, &[0; 6]);
    let vector = param("v", ParameterClass::Vector, ParameterType::Float, 1, 4, &[0; 4]);
    let e = effect(vec![array, single, vector], vec![], vec![]);
    let mut rt = EffectRuntime::new(&e);
    let (m, s, v) = (rt.handle("m").unwrap(), rt.handle("s").unwrap(), rt.handle("v").unwrap());
    let (a, b) = (counting_matrix(0.0), counting_matrix(100.0));
    rt.set_matrix_transpose_array(m, &[a, b]).unwrap();
    let want = bits(&[0.0, 4.0, 1.0, 5.0, 2.0, 6.0, 100.0, 104.0, 101.0, 105.0, 102.0, 106.0]);
    assert_eq!(rt.value(m), want.as_slice());
    // The pointer form: one matrix sets element 0 only.
    rt.set_matrix_transpose_array(m, &[&a]).unwrap();
    assert_eq!(rt.value(m)[6..], want[6..], "element 1 keeps b");
    // No matrices: nothing set, no error (the count-0 case of the same test).
    rt.set_matrix_transpose_array::<[f32; 16]>(m, &[]).unwrap();
    assert!(matches!(
        rt.set_matrix_transpose_array(m, &[a, a, a]),
        Err(RuntimeError::Count { count: 3, elements: 2, .. })
    ));
    assert!(matches!(rt.set_matrix_transpose_array(s, &[a]), Err(RuntimeError::Count { count: 1, elements: 0, .. })));
    assert!(matches!(
        rt.set_matrix_transpose_array::<[f32; 16]>(v, &[]),
        Err(RuntimeError::NotApplicable { call: "SetMatrixTransposeArray", .. })
    ));
    assert_eq!(rt.value(v), [0; 4]);
}

#[test]
fn get_matrix_transpose_reads_matrices_transposed_and_vectors_as_the_first_row() {
    // float3x2 s = {11 12, 21 22, 31 32}: the transpose has row c = column c of s, so
    // _11 _12 _13 = 11 21 31 and _21 _22 _23 = 12 22 32, the rest 0.
    let cells = bits(&[11.0, 12.0, 21.0, 22.0, 31.0, 32.0]);
    let single = param("s", ParameterClass::MatrixRows, ParameterType::Float, 3, 2, &cells);
    let vector = param("v", ParameterClass::Vector, ParameterType::Float, 1, 3, &bits(&[1.0, 2.0, 3.0]));
    let int = param("i", ParameterClass::Scalar, ParameterType::Int, 1, 1, &[7]);
    let array =
        Parameter { elements: 2, ..param("m", ParameterClass::MatrixRows, ParameterType::Float, 3, 2, &[0; 12]) };
    let e = effect(vec![single, vector, int, array], vec![], vec![]);
    let mut rt = EffectRuntime::new(&e);
    let [s, v, i, m] = ["s", "v", "i", "m"].map(|n| rt.handle(n).unwrap());
    let mut want = [0.0f32; 16];
    want[..3].copy_from_slice(&[11.0, 21.0, 31.0]);
    want[4..7].copy_from_slice(&[12.0, 22.0, 32.0]);
    assert_eq!(rt.get_matrix_transpose(s), Ok(want));
    // Windows does not transpose a vector (the test's GetMatrixTranspose expectation for
    // D3DXPC_VECTOR and D3DXPC_SCALAR): 1 2 3 fill _11 _12 _13.
    let mut want = [0.0f32; 16];
    want[..3].copy_from_slice(&[1.0, 2.0, 3.0]);
    assert_eq!(rt.get_matrix_transpose(v), Ok(want));
    let mut want = [0.0f32; 16];
    want[0] = 7.0;
    assert_eq!(rt.get_matrix_transpose(i), Ok(want), "an int converts to float");
    assert!(matches!(rt.get_matrix_transpose(m), Err(RuntimeError::NotApplicable { .. })), "an array");
    // Round trip: SetMatrixTransposeArray of the counting matrix then GetMatrixTransposeArray
    // gives back its top-left 3 × 2 of the transpose's shape, i.e. words 0 1 2 / 4 5 6 of it.
    rt.set_matrix_transpose_array(m, &[counting_matrix(0.0), counting_matrix(100.0)]).unwrap();
    let got = rt.get_matrix_transpose_array(m, 2).unwrap();
    let mut first = [0.0f32; 16];
    for k in [0, 1, 2, 4, 5, 6] {
        first[k] = k as f32;
    }
    assert_eq!(got[0], first);
    assert_eq!(got[1][4..7], [104.0, 105.0, 106.0]);
    assert_eq!(rt.get_matrix_transpose_array(v, 0), Ok(Vec::new()), "count 0 answers on any parameter");
    assert!(matches!(rt.get_matrix_transpose_array(m, 3), Err(RuntimeError::Count { count: 3, elements: 2, .. })));
    assert!(matches!(rt.get_matrix_transpose_array(s, 1), Err(RuntimeError::Count { elements: 0, .. })));
    assert!(matches!(rt.get_matrix_transpose_array(v, 1), Err(RuntimeError::NotApplicable { .. })));
    // SetArrayRange is accepted and changes nothing.
    rt.set_array_range(m, 0, 1).unwrap();
    assert_eq!(rt.get_matrix_transpose_array(m, 2).unwrap(), got);
}

#[test]
fn get_int_packs_a_float3_or_float4_as_a_d3dcolor() {
    // ARGB bytes, each trunc(clamp(x, 0, 1) × 255): (1, 0.5, 0, 2) gives r = 255, g = 127
    // (127.5 truncated), b = 0, a = 255; a float3 has alpha 0 and NaN gives 0; 0.25 × 255 =
    // 63.75 gives 63.
    let f4 = param("f4", ParameterClass::Vector, ParameterType::Float, 1, 4, &bits(&[1.0, 0.5, 0.0, 2.0]));
    let f3 = param("f3", ParameterClass::Vector, ParameterType::Float, 1, 3, &bits(&[-1.0, 0.25, f32::NAN]));
    let m41 = param("m41", ParameterClass::MatrixRows, ParameterType::Float, 4, 1, &bits(&[0.0, 0.0, 1.0, 1.0]));
    let f2 = param("f2", ParameterClass::Vector, ParameterType::Float, 1, 2, &[0; 2]);
    let m21 = param("m21", ParameterClass::MatrixRows, ParameterType::Float, 2, 1, &[0; 2]);
    let i = param("i", ParameterClass::Scalar, ParameterType::Int, 1, 1, &[(-5i32) as u32]);
    let b = param("b", ParameterClass::Scalar, ParameterType::Bool, 1, 1, &[3]);
    let i4 = param("i4", ParameterClass::Vector, ParameterType::Int, 1, 4, &[1; 4]);
    let e = effect(vec![f4, f3, m41, f2, m21, i, b, i4], vec![], vec![]);
    let mut rt = EffectRuntime::new(&e);
    let mut get = |n: &str| {
        let h = rt.handle(n).unwrap();
        rt.get_int(h)
    };
    assert_eq!(get("f4"), Ok(0xffff_7f00u32 as i32), "a = ff, r = ff, g = 7f, b = 00");
    assert_eq!(get("f3"), Ok(0x0000_3f00));
    assert_eq!(get("m41"), Ok(0xff00_00ffu32 as i32), "a 4×1 matrix packs as a float4");
    assert_eq!(get("i"), Ok(-5));
    assert_eq!(get("b"), Ok(1), "a bool reads as 0 or 1");
    for refused in ["f2", "m21", "i4"] {
        assert!(matches!(get(refused), Err(RuntimeError::NotApplicable { call: "GetInt", .. })), "{refused}");
    }
    // wine_parameter_value_special's f3 = (-3.1, 153.2, 283.3): clamped to 0, 1, 1.
    assert_eq!(super::runtime::d3dcolor(&[-3.1, 153.2, 283.3]), 0x0000_ffff);
}

#[test]
fn a_handle_or_index_past_the_effects_is_a_bad_handle_not_a_panic() {
    // The sample's handles are 0 (g_Color) and 1 (its annotation); one technique of one pass.
    let e = Effect::parse(&sample_effect()).expect("the sample parses");
    let mut rt = EffectRuntime::new(&e);
    for index in [2, u32::MAX] {
        let (h, m) = (Handle(index), [0.0f32; 16]);
        let bad = Some(RuntimeError::BadHandle { what: "parameter handle", index: index as usize, count: 2 });
        assert_eq!(rt.set_value(h, &[0]).err(), bad);
        assert_eq!(rt.set_raw_value(h, 0, &[0; 4]).err(), bad);
        assert_eq!(rt.set_matrix(h, &m).err(), bad);
        assert_eq!(rt.set_matrix_transpose(h, &m).err(), bad);
        assert_eq!(rt.set_matrix_transpose_array(h, &[m]).err(), bad);
        assert_eq!(rt.set_floats(h, &[1.0]).err(), bad);
        assert_eq!(rt.set_ints(h, &[1]).err(), bad);
        assert_eq!(rt.set_float(h, 1.0).err(), bad);
        assert_eq!(rt.set_int(h, 1).err(), bad);
        assert_eq!(rt.set_array_range(h, 0, 1).err(), bad);
        assert_eq!(rt.set_string(h, "x").err(), bad);
        assert_eq!(rt.get_string(h).err(), bad);
        assert_eq!(rt.get_int(h).err(), bad);
        assert_eq!(rt.get_matrix_transpose(h).err(), bad);
        assert_eq!(rt.get_matrix_transpose_array(h, 0).err(), bad, "no count makes a bad handle good");
    }
    let message = RuntimeError::BadHandle { what: "parameter handle", index: 2, count: 2 }.to_string();
    assert_eq!(message, "parameter handle 2 is out of range (valid: below 2)");
    let bad = |what, index| Some(RuntimeError::BadHandle { what, index, count: 1 });
    assert_eq!(rt.set_technique(1).err(), bad("technique", 1));
    assert_eq!(rt.validate(usize::MAX).err(), bad("technique", usize::MAX));
    assert_eq!(rt.pass_desc(1, 0).err(), bad("technique", 1));
    assert_eq!(rt.pass_desc(0, 1).err(), bad("pass", 1));
    assert_eq!(rt.begin(), Ok(1));
    assert_eq!(rt.begin_pass(1).err(), bad("pass", 1));
    // A parameter block recorded on a larger effect: its handle 2 names nothing here.
    let f = |n: &str| param(n, ParameterClass::Scalar, ParameterType::Float, 1, 1, &[0]);
    let larger = effect(vec![f("a"), f("b"), f("c")], vec![], vec![]);
    let mut other = EffectRuntime::new(&larger);
    other.begin_parameter_block().unwrap();
    other.set_float(Handle(2), 1.0).unwrap();
    let block = other.end_parameter_block().unwrap();
    let bad = Some(RuntimeError::BadHandle { what: "parameter handle", index: 2, count: 2 });
    assert_eq!(rt.apply_parameter_block(&block).err(), bad);
    // Still usable: the pass begins.
    assert!(rt.begin_pass(0).is_ok());
}
