//! Render states: the `D3DRS_*` states a case may set (`[render_states]`, `[[draw]] render_states`)
//! and the state in force for a draw, with D3D9's defaults.

use serde::Deserialize;

/// D3DCMPFUNC names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
#[allow(missing_docs)]
pub enum CmpFunc {
    Never,
    Less,
    Equal,
    LessEqual,
    Greater,
    NotEqual,
    GreaterEqual,
    Always,
}

impl CmpFunc {
    /// Whether `a` passes against the reference `b`.
    pub fn test<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            CmpFunc::Never => false,
            CmpFunc::Less => a < b,
            CmpFunc::Equal => a == b,
            CmpFunc::LessEqual => a <= b,
            CmpFunc::Greater => a > b,
            CmpFunc::NotEqual => a != b,
            CmpFunc::GreaterEqual => a >= b,
            CmpFunc::Always => true,
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

/// `[render_states]` and `[[draw]] render_states`: the `D3DRS_*` states the runner knows. Absent
/// means "not set here" (D3D9 default, or the earlier value for per-draw states).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "UPPERCASE")]
#[allow(missing_docs)]
pub struct RenderStates {
    pub zenable: Option<bool>,
    pub zfunc: Option<CmpFunc>,
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
    pub alphafunc: Option<CmpFunc>,
    pub alpharef: Option<u32>,
}

/// The render state in force for a draw, every field resolved (D3D9 defaults where unset).
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub struct RenderState {
    pub zenable: bool,
    pub zfunc: CmpFunc,
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
    pub alphafunc: CmpFunc,
    pub alpharef: u32,
}

impl Default for RenderState {
    /// D3D9's defaults with the automatic depth buffer (README "render_states").
    fn default() -> Self {
        RenderState {
            zenable: true,
            zfunc: CmpFunc::LessEqual,
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
            alphafunc: CmpFunc::Always,
            alpharef: 0,
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
            alpharef
        );
    }

    /// States set to something the runner does not draw, as reasons to skip.
    pub fn unsupported(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.stencilenable {
            out.push("STENCILENABLE = TRUE".to_string());
        }
        if self.alphablendenable {
            out.push("ALPHABLENDENABLE = TRUE".to_string());
        }
        if self.rangefogenable {
            out.push("RANGEFOGENABLE = TRUE".to_string());
        }
        out
    }
}
