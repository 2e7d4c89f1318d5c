//! The Direct3D 9 fixed-function pipeline as naga modules: a vertex half (transform and vertex
//! blending, lighting, texture coordinate generation and transforms, vertex fog) and a pixel half
//! (the texture stage cascade, specular add, fog, alpha test), each generated from a typed,
//! normalised key ([`VertexKey`], [`PixelKey`]) and emitted through the same path as translated
//! shaders ([`crate::emit`]: WGSL, SPIR-V, and MSL, GLSL, HLSL behind their features). The rules
//! it implements are docs/d3d9-rules.md#ffp.
//!
//! Each concept writes its part of the entry point as WGSL statements (`vertex_transform`,
//! `lighting`, `texcoord`, `fog`, `texture_stages`); naga's WGSL front end builds the module, which
//! is validated like every translated module. The numeric state lives in uniform buffers whose
//! layout [`constants`] documents and whose bytes [`VertexConstants`] and [`PixelConstants`] write,
//! so one module serves every value of the state its key leaves open.
//!
//! Interface: vertex inputs are at the D3D8 register numbers as locations (position 0, blend
//! weights 1, blend indices 2, normal 3, PSIZE 4, COLOR0 5, COLOR1 6, TEXCOORDn 7 + n, the
//! tweening POSITION1 15), one `vec4<f32>` each; NORMAL1 (D3D8's register 16, past the 16 vertex
//! attributes WebGPU guarantees) takes location 1, the blend weights', which tweening excludes;
//! the varyings are where the key's [`Varyings`] put them (a translated partner's layout, or
//! [`Varyings::default`]), COLOR centroid-sampled (flat under SHADEMODE FLAT) as translated shaders
//! declare it, so either half links with a translated shader of the other kind.
//!
//! ```
//! use d3d9_shader::ffp::{self, PixelKey, VertexKey};
//!
//! let vs = ffp::generate_vertex(&VertexKey::default())?;
//! let ps = ffp::generate_pixel(&PixelKey::default())?;
//! assert!(vs.to_wgsl()?.contains("@vertex"));
//! assert_eq!(ps.to_spirv()?[0], 0x0723_0203);
//! # Ok::<(), d3d9_shader::ffp::FfpError>(())
//! ```

pub mod constants;
mod fog;
pub mod key_pixel;
pub mod key_vertex;
pub mod known;
mod lighting;
pub mod points;
mod shared;
pub mod state;
pub mod state_toml;
mod texcoord;
mod texture_stages;
mod vertex_transform;

use crate::bytecode::TextureDimension;
use naga::valid::ModuleInfo;
use thiserror::Error;

use crate::bytecode::Usage;
use crate::emit::{self, EmitError};

pub use constants::{LightValues, PixelConstants, VertexConstants};
pub use key_pixel::PixelKey;
pub use key_vertex::{Varyings, VertexKey};
pub use known::FfpMode;
pub use state::{PixelInterface, VertexInterface};

use crate::key::CompareFunc;
use known::Gen;

/// Why a half could not be generated.
#[derive(Debug, Error)]
pub enum FfpError {
    /// naga refused the generated source (a generator bug); the message names the line.
    #[error("generated WGSL does not parse: {0}")]
    Parse(String),
    /// Validation or a backend failed.
    #[error(transparent)]
    Emit(#[from] EmitError),
}

/// A generated half.
#[derive(Debug)]
pub struct FfpShader {
    /// The validated module.
    pub module: naga::Module,
    /// Its analysis, naga's `ModuleInfo` included: a generated module is validated (naga
    /// parsed it from WGSL text, which costs far more, and one is made per fixed-function
    /// state, not per draw).
    pub analysis: emit::Analysis,
    /// The entry point (`main`).
    pub entry: &'static str,
    /// The WGSL source the module was built from.
    pub source: String,
}

impl FfpShader {
    fn build(source: String) -> Result<FfpShader, FfpError> {
        let module = naga::front::wgsl::parse_str(&source).map_err(|e| FfpError::Parse(e.emit_to_string(&source)))?;
        let analysis = emit::Analysis::validated(&module)?;
        Ok(FfpShader { module, analysis, entry: "main", source })
    }

    /// WGSL text (naga's writer).
    pub fn to_wgsl(&self) -> Result<String, FfpError> {
        Ok(emit::wgsl(&self.module, &self.analysis)?)
    }

    /// SPIR-V words.
    pub fn to_spirv(&self) -> Result<Vec<u32>, FfpError> {
        Ok(emit::spirv(&self.module, &self.analysis)?)
    }

    /// naga's validation info of the module (validated when it was generated).
    pub fn info(&self) -> Result<&ModuleInfo, FfpError> {
        Ok(self.analysis.info(&self.module)?)
    }
}

fn interpolation(usage: Usage, flat: bool) -> &'static str {
    match (usage, flat) {
        (Usage::Color, true) => " @interpolate(flat)",
        (Usage::Color, false) => " @interpolate(perspective, centroid)",
        _ => "",
    }
}

/// The vertex half of `key`, specialised to it.
pub fn generate_vertex(key: &VertexKey) -> Result<FfpShader, FfpError> {
    FfpShader::build(vertex_source(Gen { uniform: false }, &key.clone().normalised()))
}

/// The uniform-driven vertex half of `interface`: it draws every key whose
/// [`VertexKey::interface`] this is, with [`VertexKey::state_bytes`] in its state block.
pub fn generate_vertex_uniform(interface: &VertexInterface) -> Result<FfpShader, FfpError> {
    let stand_in = VertexKey {
        inputs: interface.inputs,
        flat: interface.flat,
        varyings: interface.varyings.clone(),
        points: interface.points.map(|expansion| points::PointKey { expansion, scale: false, sprite: false }),
        tween: interface.inputs.position1 || interface.inputs.normal1,
        ..VertexKey::default()
    };
    FfpShader::build(vertex_source(Gen { uniform: true }, &stand_in.normalised()))
}

/// The input locations the vertex half reads: keyed, what the key uses; uniform-driven, all
/// the vertices carry.
fn vertex_inputs(g: Gen, k: &VertexKey) -> Vec<u32> {
    let mut inputs = vec![0u32];
    let transformed = !k.inputs.pretransformed;
    let weights = if g.uniform { k.inputs.blend_weights > 0 } else { k.blend_weights > 0 };
    let indices = if g.uniform { k.inputs.blend_indices } else { k.indexed_blend };
    for (on, loc) in [
        (transformed && weights, 1),
        (transformed && k.inputs.normal1, 1),
        (transformed && indices, 2),
        (transformed && k.inputs.normal, 3),
        (k.inputs.point_size, 4),
        (k.inputs.diffuse, 5),
        (k.inputs.specular, 6),
        (transformed && k.inputs.position1, 15),
    ] {
        if on {
            inputs.push(loc);
        }
    }
    for set in 0..8u8 {
        let read = if g.uniform {
            k.inputs.texcoord_sizes[set as usize] > 0
        } else {
            k.texcoords.iter().flatten().any(|t| t.gen == key_vertex::TexGen::PassThru && t.set == set)
        };
        if read {
            inputs.push(7 + set as u32);
        }
    }
    inputs.sort_unstable();
    inputs
}

fn vertex_source(g: Gen, k: &VertexKey) -> String {
    let mut s = String::from(constants::VERTEX_WGSL);
    if g.uniform {
        s += state::VERTEX_STATE_WGSL;
    }
    s += "\nstruct VsOut {\n    @builtin(position) pos: vec4<f32>,\n";
    for (i, (usage, _, loc)) in k.varyings.0.iter().enumerate() {
        s += &format!("    @location({loc}){} o{i}: vec4<f32>,\n", interpolation(*usage, k.flat));
    }
    s += "}\n\n";
    let inputs = vertex_inputs(g, k);
    let mut args: Vec<String> = inputs.iter().map(|r| format!("@location({r}) v{r}: vec4<f32>")).collect();
    if k.points.is_some() {
        args.push(points::VERTEX_INDEX.to_string());
    }
    s += &format!("@vertex\nfn main({}) -> VsOut {{\n    var out: VsOut;\n", args.join(", "));
    if g.uniform {
        // Blending reads the weights and indices whatever the vertices carry.
        for r in [1, 2] {
            if !inputs.contains(&r) {
                s += &format!("    let v{r} = vec4<f32>(0.0);\n");
            }
        }
    }
    s += &vertex_transform::position(g, k);
    s += &lighting::colors(g, k);
    for n in 0..8 {
        s += &format!("    var tc{n} = vec4<f32>(0.0);\n");
        s += &texcoord::texcoord(g, k, n);
    }
    s += "    var fogout = vec4<f32>(0.0);\n";
    s += &fog::vertex_fog(g, k);
    if let Some(p) = &k.points {
        s += &points::expand(g, k, p);
    }
    for (i, (usage, index, _)) in k.varyings.0.iter().enumerate() {
        let value = match (usage, *index) {
            (Usage::Color, 0) => "diffuse".to_string(),
            (Usage::Color, 1) => "specular".to_string(),
            (Usage::TexCoord, n) if n < 8 => format!("tc{n}"),
            (Usage::Fog, 0) => "fogout".to_string(),
            _ => "vec4<f32>(0.0)".to_string(),
        };
        s += &format!("    out.o{i} = {value};\n");
    }
    if let Some(p) = &k.points {
        // With point sprites every TEXCOORD output is the sprite coordinate.
        s += &g.when("ffp_state.point_sprite", p.sprite, |on| {
            let mut t = String::new();
            for (i, (usage, _, _)) in k.varyings.0.iter().enumerate() {
                if on && *usage == Usage::TexCoord {
                    t += &format!("    out.o{i} = sprite;\n");
                }
            }
            t
        });
    }
    s + "    return out;\n}\n"
}

fn alpha_test(f: Option<CompareFunc>) -> String {
    let a = "round(clamp(c.a, 0.0, 1.0) * 255.0)";
    let r = "ffp.fog.w";
    let pass = match f {
        None | Some(CompareFunc::Always) => return String::new(),
        Some(CompareFunc::Never) => "false".to_string(),
        Some(CompareFunc::Less) => format!("{a} < {r}"),
        Some(CompareFunc::Equal) => format!("{a} == {r}"),
        Some(CompareFunc::LessEqual) => format!("{a} <= {r}"),
        Some(CompareFunc::Greater) => format!("{a} > {r}"),
        Some(CompareFunc::NotEqual) => format!("{a} != {r}"),
        Some(CompareFunc::GreaterEqual) => format!("{a} >= {r}"),
    };
    format!("    if !({pass}) {{\n        discard;\n    }}\n")
}

/// The pixel half of `key`, specialised to it.
pub fn generate_pixel(key: &PixelKey) -> Result<FfpShader, FfpError> {
    FfpShader::build(pixel_source(Gen { uniform: false }, key, &key.sampled_textures()))
}

/// The uniform-driven pixel half of `interface`: it draws every key that
/// [`fits`](PixelKey::fits) it, with [`PixelKey::state_bytes`] in its state block.
pub fn generate_pixel_uniform(interface: &PixelInterface) -> Result<FfpShader, FfpError> {
    let stand_in = PixelKey { flat: interface.flat, varyings: interface.varyings.clone(), ..PixelKey::default() };
    FfpShader::build(pixel_source(Gen { uniform: true }, &stand_in, &interface.textures))
}

fn pixel_source(g: Gen, key: &PixelKey, textures: &[Option<TextureDimension>; 8]) -> String {
    let mut s = String::from(constants::PIXEL_WGSL);
    if g.uniform {
        s += state::PIXEL_STATE_WGSL;
    }
    s += &texture_stages::bindings(textures);
    if g.uniform {
        s += &texture_stages::functions();
    }
    let v = &key.varyings;
    let mut args = vec!["@builtin(position) frag: vec4<f32>".to_string()];
    let mut input = |usage: Usage, index: u8, name: &str| {
        let loc = v.location(usage, index)?;
        args.push(format!("@location({loc}){} {name}: vec4<f32>", interpolation(usage, key.flat)));
        Some(())
    };
    let c0 = input(Usage::Color, 0, "color0").is_some();
    let c1 = input(Usage::Color, 1, "color1").is_some();
    let mut body = String::new();
    for (index, t) in textures.iter().enumerate() {
        if t.is_some() && input(Usage::TexCoord, index as u8, &format!("t{index}")).is_none() {
            body += &format!("    let t{index} = vec4<f32>(0.0);\n");
        }
    }
    let wants_fog = g.uniform || key.fog == key_pixel::PixelFog::Varying || key.table_depth_from_fog;
    let fog_varying = wants_fog && input(Usage::Fog, 0, "fogin").is_some();
    let mut s2 = format!("@fragment\nfn main({}) -> @location(0) vec4<f32> {{\n", args.join(", "));
    let sat = |x: &str| format!("clamp({x}, vec4<f32>(0.0), vec4<f32>(1.0))");
    s2 += &format!("    let diffuse = {};\n", if c0 { sat("color0") } else { "vec4<f32>(1.0)".into() });
    s2 += &format!("    let specular = {};\n", if c1 { sat("color1") } else { "vec4<f32>(0.0)".into() });
    if fog_varying {
        s2 += "    let fogv = fogin.x;\n";
    }
    s2 += &body;
    s2 += &if g.uniform { texture_stages::cascade_uniform(textures) } else { texture_stages::cascade(&key.stages) };
    s2 += "    var c = current;\n";
    s2 += &g.when("ffp_state.specular_add", key.specular_add, |on| match on {
        true => "    c = vec4<f32>(clamp(c.rgb + specular.rgb, vec3<f32>(0.0), vec3<f32>(1.0)), c.a);\n".to_string(),
        false => String::new(),
    });
    let fog = |depth: &str| g.pick("ffp_state.fog", key.fog, |f| fog::pixel_fog(f, fog_varying, depth));
    s2 += &if fog_varying {
        g.when("ffp_state.table_depth_from_fog", key.table_depth_from_fog, |from_fog| {
            fog(if from_fog { "fogin.y" } else { "frag.z" })
        })
    } else {
        fog("frag.z")
    };
    s2 += &g.pick("ffp_state.alpha_test", key.alpha_test, alpha_test);
    s2 += "    return c;\n}\n";
    s + &s2
}

#[cfg(test)]
mod tests;
