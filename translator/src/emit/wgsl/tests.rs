//! The writer's tricky cases, on small modules built from WGSL (naga's front end) or by hand.

use naga::{Expression, Function, Handle, Literal, Module, Span, Statement, Type, TypeInner};

use super::text::push_f32;

/// Validates `module`, writes it with our writer (no fallback), checks naga reads the text back.
fn ours(module: &Module) -> String {
    let analysis = crate::emit::Analysis::validated(module).expect("valid module");
    let text = crate::emit::wgsl_own(module, analysis.facts()).expect("our writer writes it");
    let back = naga::front::wgsl::parse_str(&text).unwrap_or_else(|e| panic!("{}\n{text}", e.emit_to_string(&text)));
    crate::emit::validate(&back).unwrap_or_else(|e| panic!("{e}\n{text}"));
    text
}

/// A module from WGSL source, its `let` names dropped so that the writer decides alone which
/// values are named (as for the lowering's modules, which name almost none).
fn unnamed(src: &str) -> Module {
    let mut m = naga::front::wgsl::parse_str(src).unwrap_or_else(|e| panic!("{}", e.emit_to_string(src)));
    for ep in &mut m.entry_points {
        ep.function.named_expressions.clear();
    }
    for (_, f) in m.functions.iter_mut() {
        f.named_expressions.clear();
    }
    m
}

#[test]
fn a_load_stays_before_the_store_that_follows_it() {
    let text = ours(&unnamed(
        "@fragment fn main() -> @location(0) vec4<f32> { var x = 1.0; let a = x; x = 2.0; return vec4(a, x, 0.0, 1.0); }",
    ));
    let load = text.find("= x;").expect("the first load is a let");
    let store = text.find("x = 2f;").expect("the store");
    assert!(load < store, "{text}");
    // The load's single use, after the store, reads the let, not `x` again.
    assert!(text.contains("return vec4<f32>(_e"), "{text}");
}

#[test]
fn a_value_used_twice_is_a_let_and_one_used_once_is_written_in_its_user() {
    let text = ours(&unnamed(
        "fn f(a: f32) -> f32 { let b = a * 2.0; let c = b + b; return c + 1.0; }
         @fragment fn main() -> @location(0) vec4<f32> { return vec4(f(0.5)); }",
    ));
    assert!(text.contains("let _e2 = (a * 2f);"), "{text}");
    assert!(text.contains("return ((_e2 + _e2) + 1f);"), "{text}");
    // The call's result is named by its statement.
    assert!(text.contains("let _e1 = f(0.5f);"), "{text}");
}

#[test]
fn names_that_are_wgsl_words_or_end_in_digits_get_an_underscore_and_repeats_a_number() {
    let mut m = Module::default();
    let f32_ty = m.types.insert(Type { name: None, inner: TypeInner::Scalar(naga::Scalar::F32) }, Span::UNDEFINED);
    let vec4 = m.types.insert(
        Type { name: None, inner: TypeInner::Vector { size: naga::VectorSize::Quad, scalar: naga::Scalar::F32 } },
        Span::UNDEFINED,
    );
    for name in ["loop", "min", "r0", "r0", "select"] {
        m.global_variables.append(
            naga::GlobalVariable {
                name: Some(name.into()),
                space: naga::AddressSpace::Private,
                binding: None,
                ty: f32_ty,
                init: None,
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            Span::UNDEFINED,
        );
    }
    let mut f = Function::default();
    let zero = f.expressions.append(Expression::ZeroValue(vec4), Span::UNDEFINED);
    f.body.push(Statement::Return { value: Some(zero) }, Span::UNDEFINED);
    f.result = Some(naga::FunctionResult {
        ty: vec4,
        binding: Some(naga::Binding::Location {
            location: 0,
            interpolation: None,
            sampling: None,
            blend_src: None,
            per_primitive: false,
        }),
    });
    m.entry_points.push(entry("main", f));
    let text = ours(&m);
    for declared in ["var<private> loop_: f32;", "var<private> min_: f32;", "var<private> r0_: f32;"] {
        assert!(text.contains(declared), "{declared}:\n{text}");
    }
    assert!(text.contains("var<private> r0_1: f32;") && text.contains("var<private> select_: f32;"), "{text}");
}

fn entry(name: &str, function: Function) -> naga::EntryPoint {
    naga::EntryPoint {
        name: name.into(),
        stage: naga::ShaderStage::Fragment,
        early_depth_test: None,
        workgroup_size: [0; 3],
        workgroup_size_overrides: None,
        function,
        mesh_info: None,
        task_payload: None,
        incoming_ray_payload: None,
    }
}

#[test]
fn float_literals_are_the_shortest_round_trip_decimal_without_exponent() {
    let mut values = vec![0.0, -0.0, 0.5, 1.0, -1.0, 255.0, 1e-6, 0.1, 16_777_216.0, 16_777_217.0, 3.0e17, 123_456.79];
    // Bit patterns over the whole finite range.
    let mut x = 0x1234_5678u32;
    for _ in 0..2000 {
        x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        let v = f32::from_bits(x);
        if v.is_finite() {
            values.push(v);
        }
    }
    for v in values {
        let mut s = String::new();
        push_f32(&mut s, v);
        assert_eq!(s, format!("{v}f"), "{:#x}", v.to_bits());
    }
}

#[test]
fn integer_literals_keep_their_suffix_and_the_most_negative_i32_is_a_conversion() {
    let text = ours(&unnamed(
        "@fragment fn main() -> @location(0) vec4<f32> {
             var i = -2147483647i - 1i; var u = 4000000000u; let b = i < 0i && u > 1u;
             return vec4(f32(i), f32(u), select(0.0, 1.0, b), 1.0);
         }",
    ));
    assert!(text.contains("4000000000u"), "{text}");
    let mut m = unnamed("@fragment fn main() -> @location(0) vec4<f32> { return vec4(f32(1i)); }");
    let ep = &mut m.entry_points[0].function;
    let min = ep.expressions.append(Expression::Literal(Literal::I32(i32::MIN)), Span::UNDEFINED);
    let local = ep.local_variables.append(
        naga::LocalVariable { name: Some("m".into()), ty: i32_type(&mut m.types), init: Some(min) },
        Span::UNDEFINED,
    );
    let _ = local;
    assert!(ours(&m).contains("var m: i32 = i32(-2147483648);"));
}

fn i32_type(types: &mut naga::UniqueArena<Type>) -> Handle<Type> {
    types.insert(Type { name: None, inner: TypeInner::Scalar(naga::Scalar::I32) }, Span::UNDEFINED)
}

#[test]
fn a_module_diagnostic_filter_is_the_first_line() {
    let text = ours(&unnamed(
        "diagnostic(off, derivative_uniformity);
         @group(0) @binding(0) var t: texture_2d<f32>;
         @group(0) @binding(1) var s: sampler;
         @fragment fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
             var c = vec4(0.0);
             if uv.x > 0.5 { c = textureSample(t, s, uv); }
             return c;
         }",
    ));
    assert!(text.starts_with("diagnostic(off, derivative_uniformity);\n"), "{text}");
    assert!(text.contains("let _e") && text.contains("= textureSample(t, s, uv);"), "{text}");
}

#[test]
fn the_same_module_reads_the_same_as_with_naga_names_aside() {
    // Names here need no change, so the two texts are equal.
    let m = unnamed(
        "struct Out { @builtin(position) @invariant pos: vec4<f32>, @location(1) @interpolate(flat) k: u32 }
         @group(0) @binding(0) var<uniform> c: array<vec4<f32>, 4>;
         override mode: u32 = 2u;
         @vertex fn main(@location(0) v: vec4<f32>) -> Out {
             var k = 0u;
             loop { if k >= mode { break; } k += 1u; continuing { break if k > 7u; } }
             switch k { case 1u, 2u: { k = 3u; } default: { } }
             return Out(v * c[k & 3u].x, bitcast<u32>(v.x) + k);
         }",
    );
    let info = crate::emit::validate(&m).unwrap();
    assert_eq!(ours(&m), crate::emit::naga_wgsl(&m, &info).unwrap());
}

#[test]
fn specialised_overrides_keep_their_names_beside_the_constants_naga_leaves() {
    // naga's pipeline-constant pass leaves a constant named like each override; a pipeline
    // still sets the override by that name, so the override keeps it and the constant yields.
    let m = unnamed(
        "override mode: u32 = 2u;
         @fragment fn main() -> @location(0) vec4<f32> { return vec4<f32>(f32(mode)); }",
    );
    let info = crate::emit::validate(&m).unwrap();
    let values = naga::back::PipelineConstants::default();
    let (specialised, _) = naga::back::pipeline_constants::process_overrides(&m, &info, None, &values).unwrap();
    let specialised = specialised.into_owned();
    assert!(specialised.constants.iter().any(|(_, c)| c.name.as_deref() == Some("mode")));
    let analysis = crate::emit::Analysis::validated(&specialised).unwrap();
    let text = crate::emit::wgsl_own(&specialised, analysis.facts()).expect("the project's writer writes it");
    assert!(text.contains("override mode: u32"), "{text}");
}
