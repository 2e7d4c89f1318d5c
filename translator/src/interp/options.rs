//! What the caller chooses for an execution: the float rules, the ps_1_x texture stage state,
//! the step limit and the approximation skew ([`Options`]), and the API constants
//! ([`Constants`]).

use super::approximation::Skew;
use crate::bytecode::TextureDimension;
use crate::key::FloatRules;

/// `D3DTSS_TEXTURETRANSFORMFLAGS` of a ps_1_x stage, as far as the pixel shader sees it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct TextureTransform {
    /// `D3DTTFF_COUNTn`: number of coordinates the transform produces (0 = disabled).
    pub count: u8,
    /// `D3DTTFF_PROJECTED`: divide the coordinates by the last one (`count`-th, or `w` when the
    /// count is 0 or 4) before sampling and before a bump offset is added.
    pub projected: bool,
}

/// ps_1_x per-stage state (`D3DTSS_*` and the bound texture's type).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct StageState {
    /// The type of the texture bound to the stage (SM1 shaders do not declare it).
    pub texture_type: TextureDimension,
    /// Texture-coordinate transform flags.
    pub transform: TextureTransform,
    /// `D3DTSS_BUMPENVMAT00, 01, 10, 11` as `[[m00, m01], [m10, m11]]`.
    pub bump_matrix: [[f32; 2]; 2],
    /// `D3DTSS_BUMPENVLSCALE`.
    pub luminance_scale: f32,
    /// `D3DTSS_BUMPENVLOFFSET`.
    pub luminance_offset: f32,
}

impl Default for StageState {
    fn default() -> Self {
        StageState {
            texture_type: TextureDimension::Tex2D,
            transform: TextureTransform::default(),
            bump_matrix: [[0.0; 2]; 2],
            luminance_scale: 0.0,
            luminance_offset: 0.0,
        }
    }
}

/// Execution options: what a translation key would select, and the safety limit.
#[derive(Clone, PartialEq, Debug)]
pub struct Options {
    /// The float rules (strict by default).
    pub float_rules: FloatRules,
    /// Most instruction executions per invocation (per quad for pixel shaders) before
    /// [`InterpErrorKind::StepLimit`](super::InterpErrorKind::StepLimit); every executed instruction, `endloop`/`endrep` included,
    /// counts one.
    pub step_limit: u64,
    /// ps_1_x texture stages 0–7 (ignored by other versions).
    pub stages: [StageState; 8],
    /// Where the results of the approximate instructions lie: correctly rounded (the default),
    /// or at one end of the error Vulkan allows them ([`Skew`]), to measure how much a program
    /// amplifies that error.
    pub skew: Skew,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            float_rules: FloatRules::Strict,
            step_limit: DEFAULT_STEP_LIMIT,
            stages: [StageState::default(); 8],
            skew: Skew::None,
        }
    }
}

/// The default [`Options::step_limit`]: far above any real shader (255 × 255 nested loop
/// iterations of a dozen instructions), far below a hang.
pub const DEFAULT_STEP_LIMIT: u64 = 4_000_000;

/// API constant values (what `Set*ShaderConstant{F,I,B}` loaded).
#[derive(Clone, PartialEq, Debug, Default)]
pub struct Constants {
    /// Float constants `c0…`; registers past the end read 0. `def` values override these.
    pub float: Vec<[f32; 4]>,
    /// Integer constants `i0–i15`; `defi` values override these.
    pub int: [[i32; 4]; 16],
    /// Boolean constants `b0–b15`; `defb` values override these.
    pub bool: [bool; 16],
}
