//! vkd3d-shader's translation of `cargo xtask bench --gpu`'s subjects, drawn beside ours: the
//! peers' `vkd3ddrv check` writes its SPIR-V (../shared/peers/README.md), which wgpu gets as it
//! is ([`gpu_harness::gpu::Source`]), with naga's reading of it describing the bindings. Its
//! interface is its own: inputs and outputs at the register's number as location, and in set 0 a
//! sampler `s#` and a texture `t#` per sampler register and one uniform buffer of the float
//! constants (`cb0_0`, `c0` up). So the other stage is a stand-in written here:
//! - a pixel shader is drawn behind a vertex stage that covers the target with the quad and
//!   feeds every input the quad's corner (0 to 1 across the target, z 0.5, w 1). Its inputs are
//!   not the sweep's case (ours gets the case's vertices through the fixed-function stage) but its
//!   work is the same: the subjects are the heaviest shaders, whose instructions run whatever the
//!   values (vkd3d-shader 1.17 translates no loop), on the same textures and constants;
//! - a vertex shader is fed the case's vertices at the locations ours reads them from, in front of
//!   a pixel stage that adds up every output it writes into the 1 × 1 target: an output no stage
//!   reads is code the driver may drop, and ours runs in front of a pixel shader reading them.
//!
//! vkd3d-shader implements no zero rule: its code is the IEEE rules' peer. A subject it refuses,
//! or whose translation reads what is not set up here (a vertex texture, a buffer other than the
//! float constants), is left out of the comparison with the reason.

use std::fmt::Write as _;
use std::path::Path;

use d3d9_shader::bytecode::{Program, ShaderKind, TextureDimension};
use gpu_harness::runner::{ShaderConstants, TextureSlot};
use gpu_harness::vertex::{input_map, Vertices};
use naga::{Binding, ImageDimension, Interpolation, Sampling, TypeInner};

use crate::bench_draw::{stage_constants, Bench, OwnedSource, Stages};

/// vkd3d-shader's SPIR-V of each subject, in order: the words, or why there are none.
pub fn translations(program: &Path, subjects: &[(&str, &Program)]) -> Vec<Result<Vec<u32>, String>> {
    let scratch = std::env::temp_dir().join(format!("xtask-bench-gpu-vkd3d-{}", std::process::id()));
    let (blobs, out) = (scratch.join("blobs"), scratch.join("out"));
    let mut names = Vec::new();
    for (name, p) in subjects {
        let bytes: Vec<u8> = d3d9_shader::bytecode::encode(p).iter().flat_map(|w| w.to_le_bytes()).collect();
        if let Err(e) = crate::bench_peers::write_creating(&blobs.join(format!("{name}.bin")), &bytes) {
            return subjects.iter().map(|_| Err(e.clone())).collect();
        }
        names.push(name.to_string());
    }
    let accepted = crate::bench_peers::accepted(program, &[], &names, &blobs, &out, &scratch);
    let words = names
        .iter()
        .map(|n| match &accepted {
            Ok(ok) if ok.contains(n) => std::fs::read(out.join(format!("{n}.spv")))
                .map_err(|e| e.to_string())
                .map(|b| b.chunks_exact(4).map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]])).collect()),
            Ok(_) => Err("vkd3d-shader refuses it".to_string()),
            Err(e) => Err(e.clone()),
        })
        .collect();
    let _ = std::fs::remove_dir_all(&scratch);
    words
}

/// The stages that draw `words`, vkd3d-shader's translation of `program`, in `b`'s case.
pub fn stages(words: Vec<u32>, program: &Program, b: &Bench) -> Result<Stages, String> {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let module = naga::front::spv::parse_u8_slice(&bytes, &Default::default())
        .map_err(|e| format!("naga cannot read vkd3d-shader's SPIR-V: {e}"))?;
    let entry = module.entry_points.first().map(|e| e.name.clone()).ok_or("no entry point")?;
    let stage = usize::from(program.version.kind == ShaderKind::Pixel);
    let (buffers, textures) = resources(&module, &stage_constants(b.draw())[stage], stage == 1)?;
    let theirs = Some(OwnedSource::SpirV(words));
    if stage == 1 {
        let text = vertex_stand_in(&module)?;
        let vs = parse_wgsl(&text)?;
        Ok(Stages {
            vs,
            vs_entry: "main".into(),
            ps: module,
            ps_entry: entry,
            sources: [Some(OwnedSource::Wgsl(text)), theirs],
            // The stand-in reads no vertex: four of them make the quad's strip.
            vertices: vec![[[0.0; 4]; 16]; 4],
            buffers,
            textures,
        })
    } else {
        let text = pixel_stand_in(&module)?;
        let ps = parse_wgsl(&text)?;
        let vertices = Vertices::from_draw(b.draw())?.registers(&input_map(program, b.case.api));
        Ok(Stages {
            vs: module,
            vs_entry: entry,
            ps,
            ps_entry: "main".into(),
            sources: [theirs, Some(OwnedSource::Wgsl(text))],
            vertices,
            buffers,
            textures,
        })
    }
}

fn parse_wgsl(text: &str) -> Result<naga::Module, String> {
    naga::front::wgsl::parse_str(text).map_err(|e| format!("the stand-in stage: {e}"))
}

/// The buffers and texture slots of a vkd3d-shader module's globals: the float constants from
/// `constants`, the textures of the sampler registers its names give.
type Resources = (Vec<((u32, u32), Vec<u8>)>, Vec<TextureSlot>);

fn resources(module: &naga::Module, constants: &ShaderConstants, pixel: bool) -> Result<Resources, String> {
    let mut buffers = Vec::new();
    let mut images = Vec::new();
    let mut samplers = Vec::new();
    for (_, var) in module.global_variables.iter() {
        let (Some(rb), Some(name)) = (&var.binding, &var.name) else { continue };
        let key = (rb.group, rb.binding);
        let register = |prefix: char| name.strip_prefix(prefix).and_then(|n| n.parse::<u32>().ok());
        match module.types[var.ty].inner {
            TypeInner::Image { dim, .. } => {
                let stage = register('t').ok_or_else(|| format!("a texture named {name}"))?;
                images.push((stage, key, dimension(dim)?));
            }
            TypeInner::Sampler { .. } => {
                samplers.push((register('s').ok_or_else(|| format!("a sampler named {name}"))?, key));
            }
            _ if name.starts_with("cb0") => {
                let bytes = constants.float.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
                buffers.push((key, bytes));
            }
            _ => return Err(format!("it reads {name}, which is not the float constants")),
        }
    }
    if !pixel && !images.is_empty() {
        return Err("it samples vertex textures".into());
    }
    let textures = images
        .into_iter()
        .map(|(stage, texture, kind)| {
            let sampler = samplers.iter().find(|s| s.0 == stage).ok_or(format!("t{stage} has no sampler"))?.1;
            Ok(TextureSlot { texture, sampler, stage, kind })
        })
        .collect::<Result<_, String>>()?;
    Ok((buffers, textures))
}

fn dimension(dim: ImageDimension) -> Result<TextureDimension, String> {
    match dim {
        ImageDimension::D2 => Ok(TextureDimension::Tex2D),
        ImageDimension::Cube => Ok(TextureDimension::Cube),
        ImageDimension::D3 => Ok(TextureDimension::Volume),
        ImageDimension::D1 => Err("a 1D texture".into()),
    }
}

/// A float input or output at a location: the location, the WGSL field, and the field's value as
/// a `vec4<f32>` given the field's access (`{}`).
struct Varying {
    location: u32,
    field: String,
    size: u8,
}

/// The float varyings among `items` (an entry point's arguments, or its result's struct members).
fn varyings<'a>(
    module: &naga::Module,
    items: impl Iterator<Item = (&'a Option<Binding>, naga::Handle<naga::Type>)>,
) -> Result<Vec<Varying>, String> {
    let mut out = Vec::new();
    for (binding, ty) in items {
        let Some(Binding::Location { location, interpolation, sampling, .. }) = binding else { continue };
        let (ty_text, size) = match module.types[ty].inner {
            TypeInner::Scalar(s) if s == naga::Scalar::F32 => ("f32".to_string(), 1),
            TypeInner::Vector { size, scalar } if scalar == naga::Scalar::F32 => {
                (format!("vec{}<f32>", size as u8), size as u8)
            }
            ref other => return Err(format!("a varying at location {location} of type {other:?}")),
        };
        let field = format!("@location({location}) {}v{location}: {ty_text}", interpolate(*interpolation, *sampling));
        out.push(Varying { location: *location, field, size });
    }
    Ok(out)
}

/// `value` (a float or vector of `size` components) widened to a `vec4<f32>` with `fill`'s last
/// components.
fn widened(value: &str, size: u8, fill: [&str; 3]) -> String {
    match size {
        1 => format!("vec4<f32>({value}, {}, {}, {})", fill[0], fill[1], fill[2]),
        2 => format!("vec4<f32>({value}, {}, {})", fill[1], fill[2]),
        3 => format!("vec4<f32>({value}, {})", fill[2]),
        _ => value.to_string(),
    }
}

/// WGSL of the vertex stage in front of a vkd3d-shader pixel shader (`module`): the quad of
/// vertices 0–3 as a strip over the whole target, and at each location the pixel shader reads,
/// with its interpolation, the corner (x, y, 0.5, 1).
fn vertex_stand_in(module: &naga::Module) -> Result<String, String> {
    let ep = module.entry_points.first().ok_or("no entry point")?;
    let inputs = varyings(module, ep.function.arguments.iter().map(|a| (&a.binding, a.ty)))?;
    let mut fields = String::new();
    let mut values = String::new();
    for v in &inputs {
        let _ = writeln!(fields, "    {},", v.field);
        let swizzle = ["x", "xy", "xyz", "xyzw"][usize::from(v.size.clamp(1, 4)) - 1];
        let _ = writeln!(values, "    out.v{} = corner.{swizzle};", v.location);
    }
    Ok(format!(
        "struct Out {{\n    @builtin(position) position: vec4<f32>,\n{fields}}}\n\n\
         @vertex\nfn main(@builtin(vertex_index) i: u32) -> Out {{\n    \
         let corner = vec4<f32>(f32(i & 1u), f32(i >> 1u), 0.5, 1.0);\n    var out: Out;\n    \
         out.position = vec4<f32>(corner.xy * 2.0 - 1.0, 0.5, 1.0);\n{values}    return out;\n}}\n"
    ))
}

/// WGSL of the pixel stage behind a vkd3d-shader vertex shader (`module`): the sum of every
/// output the vertex shader writes at a location, so that none is dead code.
fn pixel_stand_in(module: &naga::Module) -> Result<String, String> {
    let ep = module.entry_points.first().ok_or("no entry point")?;
    let result = ep.function.result.as_ref().ok_or("the vertex shader returns nothing")?;
    let outputs = match &module.types[result.ty].inner {
        TypeInner::Struct { members, .. } => varyings(module, members.iter().map(|m| (&m.binding, m.ty)))?,
        _ => Vec::new(),
    };
    let mut fields = String::new();
    let mut sum = String::from("vec4<f32>(0.25, 0.5, 0.75, 1.0)");
    for v in &outputs {
        let _ = writeln!(fields, "    {},", v.field);
        let _ = write!(sum, " + {}", widened(&format!("input.v{}", v.location), v.size, ["0.0", "0.0", "0.0"]));
    }
    if outputs.is_empty() {
        return Ok(format!("@fragment\nfn main() -> @location(0) vec4<f32> {{\n    return {sum};\n}}\n"));
    }
    Ok(format!(
        "struct In {{\n{fields}}}\n\n@fragment\nfn main(input: In) -> @location(0) vec4<f32> {{\n    return {sum};\n}}\n"
    ))
}

/// The `@interpolate` attribute of an input, empty for the default (perspective, centre).
fn interpolate(interpolation: Option<Interpolation>, sampling: Option<Sampling>) -> String {
    let kind = match interpolation {
        None => return String::new(),
        Some(Interpolation::Perspective) => "perspective",
        Some(Interpolation::Linear) => "linear",
        Some(Interpolation::Flat | Interpolation::PerVertex) => "flat",
    };
    let at = match sampling {
        None => return format!("@interpolate({kind}) "),
        Some(Sampling::Center) => "center",
        Some(Sampling::Centroid) => "centroid",
        Some(Sampling::Sample) => "sample",
        Some(Sampling::First) => "first",
        Some(Sampling::Either) => "either",
    };
    format!("@interpolate({kind}, {at}) ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pixel shader with vkd3d-shader's interface, written in WGSL for the test: inputs at
    /// locations 0 (vec4, default interpolation), 1 (vec2, centroid) and 3 (float, flat), and
    /// one sampler, one texture and the float constants.
    const PIXEL: &str = "
        @group(0) @binding(0) var s2: sampler;
        @group(0) @binding(1) var t2: texture_cube<f32>;
        struct Cb { c: array<vec4<f32>, 2> }
        @group(0) @binding(2) var<uniform> cb0_0: Cb;
        @fragment
        fn main(@location(0) v0: vec4<f32>, @location(1) @interpolate(perspective, centroid) v1: vec2<f32>,
                @location(3) @interpolate(flat) v3: f32) -> @location(0) vec4<f32> {
            return textureSample(t2, s2, v0.xyz) * cb0_0.c[1] + vec4<f32>(v1, v3, 0.0);
        }";

    fn inputs(module: &naga::Module) -> Vec<(Option<Binding>, TypeInner)> {
        let ep = &module.entry_points[0];
        ep.function.arguments.iter().map(|a| (a.binding.clone(), module.types[a.ty].inner.clone())).collect()
    }

    fn outputs(module: &naga::Module) -> Vec<(Option<Binding>, TypeInner)> {
        let ty = module.entry_points[0].function.result.as_ref().expect("a result").ty;
        let TypeInner::Struct { members, .. } = &module.types[ty].inner else { panic!("a struct result") };
        members.iter().map(|m| (m.binding.clone(), module.types[m.ty].inner.clone())).collect()
    }

    #[test]
    fn the_vertex_stand_in_writes_what_the_pixel_shader_reads_as_it_reads_it() {
        let ps = parse_wgsl(PIXEL).unwrap();
        let vs = parse_wgsl(&vertex_stand_in(&ps).unwrap()).unwrap();
        let mut written = outputs(&vs);
        written.retain(|(b, _)| matches!(b, Some(Binding::Location { .. })));
        assert_eq!(written, inputs(&ps), "same locations, types, interpolation and sampling");
    }

    #[test]
    fn the_pixel_stand_in_reads_every_output_of_the_vertex_shader() {
        // A vertex shader with outputs at 1 (vec4), 2 (vec3) and 4 (float): the stand-in reads
        // each, with the same interpolation, so none is code the driver may drop.
        let vs = parse_wgsl(
            "struct O { @builtin(position) p: vec4<f32>, @location(1) o1: vec4<f32>,
                        @location(2) @interpolate(linear) o2: vec3<f32>, @location(4) o4: f32 }
             @vertex fn main(@location(0) v0: vec4<f32>) -> O { return O(v0, v0, v0.xyz, v0.w); }",
        )
        .unwrap();
        let text = pixel_stand_in(&vs).unwrap();
        let ps = parse_wgsl(&text).unwrap();
        let ep = &ps.entry_points[0];
        let TypeInner::Struct { members, .. } = &ps.types[ep.function.arguments[0].ty].inner else { panic!() };
        let read: Vec<_> = members.iter().map(|m| (m.binding.clone(), ps.types[m.ty].inner.clone())).collect();
        let mut written = outputs(&vs);
        written.retain(|(b, _)| matches!(b, Some(Binding::Location { .. })));
        assert_eq!(read, written);
        for v in ["input.v1", "input.v2", "input.v4"] {
            assert!(text.contains(v), "{v} is summed: {text}");
        }
    }

    #[test]
    fn globals_map_to_the_sampler_register_and_the_float_constants() {
        let ps = parse_wgsl(PIXEL).unwrap();
        let constants = ShaderConstants { float: vec![[1.0, 2.0, 3.0, 4.0], [0.5; 4]], ..Default::default() };
        let (buffers, textures) = resources(&ps, &constants, true).unwrap();
        let slot = TextureSlot { texture: (0, 1), sampler: (0, 0), stage: 2, kind: TextureDimension::Cube };
        assert_eq!(textures, vec![slot]);
        let expected: Vec<u8> =
            [1.0f32, 2.0, 3.0, 4.0, 0.5, 0.5, 0.5, 0.5].iter().flat_map(|f| f.to_le_bytes()).collect();
        assert_eq!(buffers, vec![((0, 2), expected)]);
    }

    #[test]
    fn what_the_bench_does_not_set_up_is_refused_by_name() {
        let other = parse_wgsl(&PIXEL.replace("cb0_0", "cb1_1")).unwrap();
        let e = resources(&other, &ShaderConstants::default(), true).unwrap_err();
        assert!(e.contains("cb1_1"), "{e}");
        let ps = parse_wgsl(PIXEL).unwrap();
        assert_eq!(resources(&ps, &ShaderConstants::default(), false).unwrap_err(), "it samples vertex textures");
    }
}
