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
//! weights 1, blend indices 2, normal 3, COLOR0 5, COLOR1 6, TEXCOORDn 7 + n), one `vec4<f32>` each;
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
mod lighting;
pub mod points;
pub mod state_toml;
mod texcoord;
mod texture_stages;
mod vertex_transform;

use naga::valid::ModuleInfo;
use thiserror::Error;

use crate::bytecode::Usage;
use crate::emit::{self, EmitError};

pub use constants::{LightValues, PixelConstants, VertexConstants};
pub use key_pixel::PixelKey;
pub use key_vertex::{Varyings, VertexKey};

use key_pixel::{CompareFunc, StageKey};

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
    /// Its validation info.
    pub info: ModuleInfo,
    /// The entry point (`main`).
    pub entry: &'static str,
    /// The WGSL source the module was built from.
    pub source: String,
}

impl FfpShader {
    fn build(source: String) -> Result<FfpShader, FfpError> {
        let module = naga::front::wgsl::parse_str(&source).map_err(|e| FfpError::Parse(e.emit_to_string(&source)))?;
        let info = emit::validate(&module)?;
        Ok(FfpShader { module, info, entry: "main", source })
    }

    /// WGSL text (naga's writer).
    pub fn to_wgsl(&self) -> Result<String, FfpError> {
        Ok(emit::wgsl(&self.module, &self.info)?)
    }

    /// SPIR-V words.
    pub fn to_spirv(&self) -> Result<Vec<u32>, FfpError> {
        Ok(emit::spirv(&self.module, &self.info)?)
    }
}

fn interpolation(usage: Usage, flat: bool) -> &'static str {
    match (usage, flat) {
        (Usage::Color, true) => " @interpolate(flat)",
        (Usage::Color, false) => " @interpolate(perspective, centroid)",
        _ => "",
    }
}

/// The vertex half of `key`.
pub fn generate_vertex(key: &VertexKey) -> Result<FfpShader, FfpError> {
    let key = key.clone().normalised();
    let mut s = String::from(constants::VERTEX_WGSL);
    s += "\nstruct VsOut {\n    @builtin(position) pos: vec4<f32>,\n";
    for (i, (usage, _, loc)) in key.varyings.0.iter().enumerate() {
        s += &format!("    @location({loc}){} o{i}: vec4<f32>,\n", interpolation(*usage, key.flat));
    }
    s += "}\n\n";
    let mut inputs = vec![0u32];
    let k = &key;
    let transformed = !k.inputs.pretransformed;
    if transformed && (k.blend_weights > 0) {
        inputs.push(1);
    }
    if transformed && k.indexed_blend {
        inputs.push(2);
    }
    if transformed && k.inputs.normal {
        inputs.push(3);
    }
    if k.inputs.diffuse {
        inputs.push(5);
    }
    if k.inputs.specular {
        inputs.push(6);
    }
    for t in k.texcoords.iter().flatten() {
        if t.gen == key_vertex::TexGen::PassThru && !inputs.contains(&(7 + t.set as u32)) {
            inputs.push(7 + t.set as u32);
        }
    }
    if k.inputs.point_size {
        inputs.push(4);
    }
    inputs.sort_unstable();
    let mut args: Vec<String> = inputs.iter().map(|r| format!("@location({r}) v{r}: vec4<f32>")).collect();
    if k.points.is_some() {
        args.push(points::VERTEX_INDEX.to_string());
    }
    s += &format!("@vertex\nfn main({}) -> VsOut {{\n    var out: VsOut;\n", args.join(", "));
    s += &vertex_transform::position(k);
    s += &lighting::colors(k);
    for (n, t) in k.texcoords.iter().enumerate() {
        if let Some(t) = t {
            s += &texcoord::texcoord(k, n, t);
        }
    }
    let mut fog = fog::vertex_fog(k).map(|f| {
        s += &f;
        "vec4<f32>(fog, 0.0, 0.0, 0.0)".to_string()
    });
    if k.unclipped_z {
        let f = if fog.is_some() { "fog" } else { "specular.a" };
        fog = Some(format!("vec4<f32>({f}, v0.z, 0.0, 0.0)"));
    }
    let sprite = k.points.is_some_and(|p| p.sprite);
    if let Some(p) = &k.points {
        s += &points::expand(k, p);
    }
    for (i, (usage, index, _)) in k.varyings.0.iter().enumerate() {
        let value = match (usage, *index) {
            (Usage::TexCoord, _) if sprite => "sprite".to_string(),
            (Usage::Color, 0) => "diffuse".to_string(),
            (Usage::Color, 1) => "specular".to_string(),
            (Usage::TexCoord, n) if n < 8 && k.texcoords[n as usize].is_some() => format!("tc{n}"),
            (Usage::Fog, 0) if fog.is_some() => fog.clone().expect("checked"),
            _ => "vec4<f32>(0.0)".to_string(),
        };
        s += &format!("    out.o{i} = {value};\n");
    }
    s += "    return out;\n}\n";
    FfpShader::build(s)
}

fn alpha_test(f: CompareFunc) -> String {
    let a = "round(clamp(c.a, 0.0, 1.0) * 255.0)";
    let r = "ffp.fog.w";
    let pass = match f {
        CompareFunc::Never => "false".to_string(),
        CompareFunc::Always => "true".to_string(),
        CompareFunc::Less => format!("{a} < {r}"),
        CompareFunc::Equal => format!("{a} == {r}"),
        CompareFunc::LessEqual => format!("{a} <= {r}"),
        CompareFunc::Greater => format!("{a} > {r}"),
        CompareFunc::NotEqual => format!("{a} != {r}"),
        CompareFunc::GreaterEqual => format!("{a} >= {r}"),
    };
    format!("    if !({pass}) {{\n        discard;\n    }}\n")
}

/// The pixel half of `key`.
pub fn generate_pixel(key: &PixelKey) -> Result<FfpShader, FfpError> {
    let mut s = String::from(constants::PIXEL_WGSL);
    s += &texture_stages::bindings(&key.stages);
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
    for st in &key.stages {
        let (StageKey::Bump { index, texture: Some(_), .. } | StageKey::Blend { index, texture: Some(_), .. }) = *st
        else {
            continue;
        };
        if input(Usage::TexCoord, index, &format!("t{index}")).is_none() {
            body += &format!("    let t{index} = vec4<f32>(0.0);\n");
        }
    }
    let wants_fog = key.fog == key_pixel::PixelFog::Varying || key.table_depth_from_fog;
    let fog_varying = wants_fog && input(Usage::Fog, 0, "fogin").is_some();
    let mut s2 = format!("@fragment\nfn main({}) -> @location(0) vec4<f32> {{\n", args.join(", "));
    let sat = |x: &str| format!("clamp({x}, vec4<f32>(0.0), vec4<f32>(1.0))");
    s2 += &format!("    let diffuse = {};\n", if c0 { sat("color0") } else { "vec4<f32>(1.0)".into() });
    s2 += &format!("    let specular = {};\n", if c1 { sat("color1") } else { "vec4<f32>(0.0)".into() });
    if fog_varying {
        s2 += "    let fogv = fogin.x;\n";
    }
    s2 += &body;
    s2 += &texture_stages::cascade(&key.stages);
    s2 += "    var c = current;\n";
    if key.specular_add {
        s2 += "    c = vec4<f32>(clamp(c.rgb + specular.rgb, vec3<f32>(0.0), vec3<f32>(1.0)), c.a);\n";
    }
    let depth = if key.table_depth_from_fog && fog_varying { "fogin.y" } else { "frag.z" };
    s2 += &fog::pixel_fog(key.fog, fog_varying, depth);
    if let Some(f) = key.alpha_test {
        s2 += &alpha_test(f);
    }
    s2 += "    return c;\n}\n";
    FfpShader::build(s + &s2)
}

#[cfg(test)]
mod tests;
