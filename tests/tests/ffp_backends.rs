//! Fixed-function halves (`d3d9_shader::ffp`), keyed and uniform-driven, give modules every
//! checker accepts: WGSL through Tint (Chromium's compiler), SPIR-V through
//! `spirv-val --target-env vulkan1.0`, GLSL through `glslangValidator`. The keys cover every
//! texture op as colour and alpha op on each texture dimension, every argument source with both
//! modifiers, every fog mode with every alpha test, every coordinate generation mode, the three
//! light types, vertex blending plain and indexed, and pre-transformed vertices; the uniform-driven
//! halves every shape of interface. A missing tool skips its check loudly, and fails under
//! REQUIRE_TOOLS=1.

use arrayvec::ArrayVec;
use d3d9_shader::bytecode::TextureDimension;
use d3d9_shader::ffp::key_pixel::*;
use d3d9_shader::ffp::key_vertex::*;
use d3d9_shader::ffp::known::StateValue;
use d3d9_shader::ffp::{self, FfpShader, PixelInterface, VertexInterface};
use d3d9_shader::key::{CompareFunc, PointExpansion};
use d3d9_tests::tint::Tint;
use d3d9_tests::{run_tool, tool_for_test};

fn stage(op: TextureOp, args: [Arg; 3], texture: Option<TextureDimension>) -> StageState {
    StageState {
        color_op: op,
        color_args: args,
        alpha_op: op,
        alpha_args: args.map(|a| Arg { alpha_replicate: !a.alpha_replicate, ..a }),
        result_temp: false,
        texture,
        divide_by: Some(3),
    }
}

fn pixel_keys() -> Vec<(String, PixelKey)> {
    let key = |stages: &[StageState], fog, alpha| PixelKey::new(stages, true, fog, alpha, false, Varyings::default());
    let mut out = Vec::new();
    let plain = [ArgSource::Texture, ArgSource::Diffuse, ArgSource::Current].map(Arg::plain);
    for ty in [TextureDimension::Tex2D, TextureDimension::Cube, TextureDimension::Volume] {
        for &op in TextureOp::ALL {
            // A bump stage perturbs the next one, which reads TEMP written by neither.
            let next = stage(
                TextureOp::Modulate,
                [ArgSource::Temp, ArgSource::Texture, ArgSource::Current].map(Arg::plain),
                Some(ty),
            );
            out.push((format!("{op:?} {ty:?}"), key(&[stage(op, plain, Some(ty)), next], PixelFog::Off, None)));
        }
    }
    for &source in ArgSource::ALL {
        for (complement, alpha_replicate) in [(false, false), (true, false), (false, true), (true, true)] {
            let a = Arg { source, complement, alpha_replicate };
            let s = stage(TextureOp::Lerp, [a, a, Arg::plain(ArgSource::Diffuse)], Some(TextureDimension::Tex2D));
            out.push((format!("{a:?}"), key(&[s], PixelFog::Off, None)));
        }
    }
    for &fog in PixelFog::ALL {
        for &alpha in <Option<CompareFunc>>::ALL {
            let s = stage(TextureOp::Modulate, plain, None);
            let mut k = key(&[s], fog, alpha);
            k.table_depth_from_fog = alpha.is_some();
            out.push((format!("{fog:?} {alpha:?}"), k));
        }
    }
    out
}

fn vertex_keys() -> Vec<(String, VertexKey)> {
    let inputs = VertexInputs {
        pretransformed: false,
        normal: true,
        diffuse: true,
        specular: true,
        blend_weights: 3,
        blend_indices: true,
        texcoord_sizes: [2, 3, 1, 4, 0, 0, 0, 0],
        point_size: false,
        position1: false,
        normal1: false,
    };
    let mut out = Vec::new();
    for (i, &fog) in VertexFog::ALL.iter().enumerate() {
        let texcoords = std::array::from_fn(|s| {
            let gen = TexGen::ALL[(s + i) % TexGen::ALL.len()];
            (s < 6).then_some(TexCoordKey { set: (s % 4) as u8, gen, count: (s % 5) as u8 })
        });
        let lights: ArrayVec<LightType, 8> = LightType::ALL.iter().copied().cycle().skip(i).take(i % 4 + 1).collect();
        let key = VertexKey {
            inputs,
            lighting: (i != 3).then(|| LightingKey {
                lights,
                specular: i % 2 == 0,
                sources: [ColorSource::Diffuse, ColorSource::Specular, ColorSource::Material, ColorSource::Material],
            }),
            blend_weights: (i % 4) as u8,
            indexed_blend: i % 3 == 1,
            texcoords,
            fog,
            local_viewer: i % 3 == 0,
            normalize_normals: i % 2 == 1,
            ..VertexKey::default()
        };
        out.push((format!("{fog:?}"), key.clone()));
        let pre = VertexKey { inputs: VertexInputs { pretransformed: true, ..inputs }, unclipped_z: true, ..key };
        out.push((format!("XYZRHW {fog:?}"), pre.clone()));
        let tweened = VertexInputs { position1: true, normal1: i % 2 == 0, pretransformed: false, ..inputs };
        out.push((format!("tween {fog:?}"), VertexKey { inputs: tweened, tween: true, unclipped_z: false, ..pre }));
    }
    out
}

fn vertex_interfaces() -> Vec<VertexInterface> {
    let full = vertex_keys()[0].1.inputs;
    let mut out = Vec::new();
    let tweened = VertexInputs { blend_weights: 0, position1: true, normal1: true, ..full };
    for inputs in [full, tweened, VertexInputs::default(), VertexInputs { pretransformed: true, ..full }] {
        for points in [None, Some(PointExpansion::List)] {
            let inputs = VertexInputs { point_size: points.is_some(), ..inputs };
            out.push(VertexInterface { inputs, flat: points.is_some(), varyings: Varyings::default(), points });
        }
    }
    out
}

fn pixel_interfaces() -> Vec<PixelInterface> {
    let tys = [TextureDimension::Tex2D, TextureDimension::Cube, TextureDimension::Volume];
    [[None; 8], [Some(TextureDimension::Tex2D); 8], std::array::from_fn(|i| (i % 4 != 3).then_some(tys[i % 3]))]
        .into_iter()
        .map(|textures| PixelInterface { textures, flat: false, varyings: Varyings::default() })
        .collect()
}

#[test]
fn generated_halves_pass_tint_spirv_val_and_glslang() {
    let Some(mut tint) = Tint::for_test("generated_halves_pass_tint_spirv_val_and_glslang") else { return };
    let (val, glslang) = (
        tool_for_test("ffp_backends", "spirv-val", "spirv-tools"),
        tool_for_test("ffp_backends", "glslangValidator", "glslang-tools"),
    );
    let tmp = std::env::temp_dir().join(format!("d3d9-ffp-backends-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut check = |what: String, shader: Result<FfpShader, ffp::FfpError>, ext: &str| {
        let shader = match shader {
            Ok(s) => s,
            Err(e) => return failures.push(format!("{what}: {e}")),
        };
        // The project's SPIR-V writer covers every fixed-function module (naga's is the fallback).
        if let Err(e) = d3d9_shader::emit::spirv::write(&shader.module, shader.analysis.facts(), (1, 0)) {
            failures.push(format!("{what}: the project's SPIR-V writer refused the module: {e:?}"));
        }
        let wgsl = shader.to_wgsl().unwrap();
        // The project's writer writes every half: naga's (the fallback) is never used.
        match d3d9_shader::emit::wgsl_own(&shader.module, shader.analysis.facts()) {
            Ok(own) if own == wgsl => {}
            Ok(_) => failures.push(format!("{what}: the WGSL is not the project's writer's")),
            Err(e) => failures.push(format!("{what}: {e}")),
        }
        for m in tint.check_module(&wgsl).expect("the Tint checker").iter().filter(|m| m.is_error()) {
            failures.push(format!("{what}: tint: {}", m.render(&wgsl)));
        }
        if let Some(val) = val {
            let spirv: Vec<u8> = shader.to_spirv().unwrap().iter().flat_map(|w| w.to_le_bytes()).collect();
            let args = ["--target-env", "vulkan1.0"];
            failures.extend(run_tool(val, &args, &tmp.join("f.spv"), &spirv).map(|e| format!("{what}: {e}")));
        }
        if let Some(g) = glslang {
            let glsl = d3d9_shader::emit::glsl(&shader.module, shader.info().unwrap()).unwrap();
            failures.extend(
                run_tool(g, &[], &tmp.join(format!("f.{ext}")), glsl.as_bytes()).map(|e| format!("{what}: {e}")),
            );
        }
        checked += 1;
    };
    for (name, key) in pixel_keys() {
        check(format!("keyed pixel {name}"), ffp::generate_pixel(&key), "frag");
    }
    for (name, key) in vertex_keys() {
        check(format!("keyed vertex {name}"), ffp::generate_vertex(&key), "vert");
    }
    for interface in vertex_interfaces() {
        check(format!("uniform vertex {interface:?}"), ffp::generate_vertex_uniform(&interface), "vert");
    }
    for interface in pixel_interfaces() {
        check(format!("uniform pixel {:?}", interface.textures), ffp::generate_pixel_uniform(&interface), "frag");
    }
    let _ = std::fs::remove_dir_all(&tmp);
    println!("ffp_backends: {checked} halves checked, {} failures", failures.len());
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_key_fits_the_interface_of_its_bound_textures_and_writes_a_full_state_block() {
    for (name, key) in pixel_keys() {
        let interface = PixelInterface { textures: key.sampled_textures(), flat: false, varyings: Varyings::default() };
        assert!(key.fits(&interface), "{name}");
        assert_eq!(key.state_bytes().len(), 528, "{name}");
    }
    for (name, key) in vertex_keys() {
        assert_eq!(key.state_bytes().len(), 224, "{name}");
        assert_eq!(key.interface(), key.clone().normalised().interface(), "{name}");
    }
}
