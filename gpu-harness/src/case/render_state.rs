//! Render states: the `D3DRS_*` states a case may set (`[render_states]`, `[[draw]] render_states`)
//! and the state in force for a draw, with D3D9's defaults.

use serde::Deserialize;

pub use d3d9_shader::key::CompareFunc;

/// The comparison a D3DCMPFUNC makes, as the reference rasteriser runs it (depth and alpha tests):
/// the oracle's semantics, kept in the harness, not the library that generates the GPU's.
pub trait CompareTest {
    /// Whether `a` passes against the reference `b`.
    fn test<T: PartialOrd>(self, a: T, b: T) -> bool;
}

impl CompareTest for CompareFunc {
    fn test<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            CompareFunc::Never => false,
            CompareFunc::Less => a < b,
            CompareFunc::Equal => a == b,
            CompareFunc::LessEqual => a <= b,
            CompareFunc::Greater => a > b,
            CompareFunc::NotEqual => a != b,
            CompareFunc::GreaterEqual => a >= b,
            CompareFunc::Always => true,
        }
    }
}

/// D3DCULL names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum CullMode {
    /// Draw both faces.
    None,
    /// Cull clockwise (front) faces.
    Cw,
    /// Cull counter-clockwise (back) faces: the D3D9 default.
    Ccw,
}

/// D3DFOGMODE names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
#[allow(missing_docs)]
pub enum FogMode {
    None,
    Exp,
    Exp2,
    Linear,
}

/// D3DMATERIALCOLORSOURCE names (`*MATERIALSOURCE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
#[allow(missing_docs)]
pub enum MaterialSource {
    Material,
    Color1,
    Color2,
}

/// D3DSHADEMODE names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
#[allow(missing_docs)]
pub enum ShadeMode {
    Flat,
    Gouraud,
    Phong,
}

/// D3DVERTEXBLENDFLAGS names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[allow(missing_docs)]
pub enum VertexBlend {
    #[serde(rename = "DISABLE")]
    Disable,
    #[serde(rename = "0WEIGHTS")]
    Weights0,
    #[serde(rename = "1WEIGHTS")]
    Weights1,
    #[serde(rename = "2WEIGHTS")]
    Weights2,
    #[serde(rename = "3WEIGHTS")]
    Weights3,
    #[serde(rename = "TWEENING")]
    Tweening,
}

/// D3DBLEND names the cases use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
#[allow(missing_docs)]
pub enum Blend {
    Zero,
    One,
    SrcAlpha,
    InvSrcAlpha,
}

/// `[render_states]` and `[[draw]] render_states`: the `D3DRS_*` states the runner knows. Absent
/// means "not set here" (D3D9 default, or the earlier value for per-draw states).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "UPPERCASE")]
#[allow(missing_docs)]
pub struct RenderStates {
    pub zenable: Option<bool>,
    pub zfunc: Option<CompareFunc>,
    pub zwriteenable: Option<bool>,
    pub cullmode: Option<CullMode>,
    pub lighting: Option<bool>,
    pub clipping: Option<bool>,
    pub stencilenable: Option<bool>,
    pub texturefactor: Option<u32>,
    pub specularenable: Option<bool>,
    pub alphablendenable: Option<bool>,
    pub fogenable: Option<bool>,
    pub fogcolor: Option<u32>,
    pub fogtablemode: Option<FogMode>,
    pub fogvertexmode: Option<FogMode>,
    pub fogstart: Option<f32>,
    pub fogend: Option<f32>,
    pub fogdensity: Option<f32>,
    pub rangefogenable: Option<bool>,
    pub alphatestenable: Option<bool>,
    pub alphafunc: Option<CompareFunc>,
    pub alpharef: Option<u32>,
    pub ambient: Option<u32>,
    pub localviewer: Option<bool>,
    pub normalizenormals: Option<bool>,
    pub colorvertex: Option<bool>,
    pub diffusematerialsource: Option<MaterialSource>,
    pub specularmaterialsource: Option<MaterialSource>,
    pub ambientmaterialsource: Option<MaterialSource>,
    pub emissivematerialsource: Option<MaterialSource>,
    pub shademode: Option<ShadeMode>,
    pub vertexblend: Option<VertexBlend>,
    pub indexedvertexblendenable: Option<bool>,
    pub tweenfactor: Option<f32>,
    pub pointsize: Option<f32>,
    pub pointsize_min: Option<f32>,
    pub pointsize_max: Option<f32>,
    pub pointspriteenable: Option<bool>,
    pub pointscaleenable: Option<bool>,
    pub pointscale_a: Option<f32>,
    pub pointscale_b: Option<f32>,
    pub pointscale_c: Option<f32>,
    pub srcblend: Option<Blend>,
    pub destblend: Option<Blend>,
    pub colorwriteenable: Option<u32>,
}

/// The render state in force for a draw, every field resolved (D3D9 defaults where unset).
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub struct RenderState {
    pub zenable: bool,
    pub zfunc: CompareFunc,
    pub zwriteenable: bool,
    pub cullmode: CullMode,
    pub lighting: bool,
    pub clipping: bool,
    pub stencilenable: bool,
    pub texturefactor: u32,
    pub specularenable: bool,
    pub alphablendenable: bool,
    pub fogenable: bool,
    pub fogcolor: u32,
    pub fogtablemode: FogMode,
    pub fogvertexmode: FogMode,
    pub fogstart: f32,
    pub fogend: f32,
    pub fogdensity: f32,
    pub rangefogenable: bool,
    pub alphatestenable: bool,
    pub alphafunc: CompareFunc,
    pub alpharef: u32,
    pub ambient: u32,
    pub localviewer: bool,
    pub normalizenormals: bool,
    pub colorvertex: bool,
    pub diffusematerialsource: MaterialSource,
    pub specularmaterialsource: MaterialSource,
    pub ambientmaterialsource: MaterialSource,
    pub emissivematerialsource: MaterialSource,
    pub shademode: ShadeMode,
    pub vertexblend: VertexBlend,
    pub indexedvertexblendenable: bool,
    pub tweenfactor: f32,
    pub pointsize: f32,
    pub pointsize_min: f32,
    pub pointsize_max: f32,
    pub pointspriteenable: bool,
    pub pointscaleenable: bool,
    pub pointscale_a: f32,
    pub pointscale_b: f32,
    pub pointscale_c: f32,
    pub srcblend: Blend,
    pub destblend: Blend,
    pub colorwriteenable: u32,
}

impl Default for RenderState {
    /// D3D9's defaults with the automatic depth buffer (README "render_states").
    fn default() -> Self {
        RenderState {
            zenable: true,
            zfunc: CompareFunc::LessEqual,
            zwriteenable: true,
            cullmode: CullMode::Ccw,
            lighting: true,
            clipping: true,
            stencilenable: false,
            texturefactor: 0xffff_ffff,
            specularenable: false,
            alphablendenable: false,
            fogenable: false,
            fogcolor: 0,
            fogtablemode: FogMode::None,
            fogvertexmode: FogMode::None,
            fogstart: 0.0,
            fogend: 1.0,
            fogdensity: 1.0,
            rangefogenable: false,
            alphatestenable: false,
            alphafunc: CompareFunc::Always,
            alpharef: 0,
            ambient: 0,
            localviewer: true,
            normalizenormals: false,
            colorvertex: true,
            diffusematerialsource: MaterialSource::Color1,
            specularmaterialsource: MaterialSource::Color2,
            ambientmaterialsource: MaterialSource::Material,
            emissivematerialsource: MaterialSource::Material,
            shademode: ShadeMode::Gouraud,
            vertexblend: VertexBlend::Disable,
            indexedvertexblendenable: false,
            tweenfactor: 0.0,
            pointsize: 1.0,
            pointsize_min: 1.0,
            pointsize_max: 64.0,
            pointspriteenable: false,
            pointscaleenable: false,
            pointscale_a: 1.0,
            pointscale_b: 0.0,
            pointscale_c: 0.0,
            srcblend: Blend::One,
            destblend: Blend::Zero,
            colorwriteenable: 0xf,
        }
    }
}

impl RenderState {
    /// Applies `SetRenderState` calls: every state that `set` names replaces the current value.
    pub fn apply(&mut self, set: &RenderStates) {
        macro_rules! take {
            ($($f:ident),*) => { $( if let Some(v) = set.$f { self.$f = v; } )* };
        }
        take!(
            zenable,
            zfunc,
            zwriteenable,
            cullmode,
            lighting,
            clipping,
            stencilenable,
            texturefactor,
            specularenable,
            alphablendenable,
            fogenable,
            fogcolor,
            fogtablemode,
            fogvertexmode,
            fogstart,
            fogend,
            fogdensity,
            rangefogenable,
            alphatestenable,
            alphafunc,
            alpharef,
            ambient,
            localviewer,
            normalizenormals,
            colorvertex,
            diffusematerialsource,
            specularmaterialsource,
            ambientmaterialsource,
            emissivematerialsource,
            shademode,
            vertexblend,
            indexedvertexblendenable,
            tweenfactor,
            pointsize,
            pointsize_min,
            pointsize_max,
            pointspriteenable,
            pointscaleenable,
            pointscale_a,
            pointscale_b,
            pointscale_c,
            srcblend,
            destblend,
            colorwriteenable
        );
    }

    /// States set to something the runner does not draw, as reasons to skip.
    pub fn unsupported(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.stencilenable {
            out.push("STENCILENABLE = TRUE".to_string());
        }
        if self.colorwriteenable != 0xf {
            out.push(format!("COLORWRITEENABLE = 0x{:x}", self.colorwriteenable));
        }
        out
    }
}
