//! The interface the shader back ends plug into ([`ShaderCpu`], [`ShaderGpu`]) and what the
//! runner hands them: a stage's API constants and the context of its draw.

use d3d9_shader::bytecode::Program;
use d3d9_shader::interp::Skew;
use d3d9_shader::key::FloatRules;

use crate::case::{Api, ConstantBlock, ConstantKind, Number, RenderState, TextureDimension, TextureStage};
use crate::cpu::{FogSource, PixelStage, VertexStage};
use crate::fixed_function::VaryingLayout;
use crate::textures::DecodedTexture;

/// API constants of one shader stage (`Set*ShaderConstant{F,I,B}`); they persist across draws.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShaderConstants {
    /// Float registers from c0.
    pub float: Vec<[f32; 4]>,
    /// Integer registers i0–i15.
    pub int: [[i32; 4]; 16],
    /// Boolean registers b0–b15.
    pub bool: [bool; 16],
}

impl ShaderConstants {
    /// Loads one `[[draw.constants]]` block (already checked by the case).
    pub fn load(&mut self, block: &ConstantBlock) {
        let start = block.start_register as usize;
        match block.kind {
            ConstantKind::VsFloat | ConstantKind::PsFloat => {
                for (i, chunk) in block.values.chunks_exact(4).enumerate() {
                    if self.float.len() <= start + i {
                        self.float.resize(start + i + 1, [0.0; 4]);
                    }
                    self.float[start + i] = std::array::from_fn(|k| chunk[k].as_f32().unwrap_or(0.0));
                }
            }
            ConstantKind::VsInt | ConstantKind::PsInt => {
                for (i, chunk) in block.values.chunks_exact(4).enumerate() {
                    self.int[start + i] = std::array::from_fn(|k| match chunk[k] {
                        Number::Int(v) => v as i32,
                        _ => 0,
                    });
                }
            }
            ConstantKind::VsBool | ConstantKind::PsBool => {
                for (i, v) in block.values.iter().enumerate() {
                    self.bool[start + i] = matches!(v, Number::Bool(true));
                }
            }
        }
    }
}

/// What a stage needs besides its program and constants.
#[derive(Clone, Copy, Debug)]
pub struct StageContext<'a> {
    /// d3d8 or d3d9.
    pub api: Api,
    /// The bound textures, decoded.
    pub textures: &'a [DecodedTexture],
    /// ps_1_x texture stage states.
    pub stages: &'a [TextureStage],
    /// Render-target size.
    pub target_size: (u32, u32),
    /// The render state of the draw.
    pub state: &'a RenderState,
    /// The fog factor's source (docs/d3d9-rules.md#fog), decided by the runner.
    pub fog: FogSource,
    /// Alpha test, when on.
    pub alpha_test: Option<crate::cpu::AlphaTest>,
    /// The float rules both sides follow (the translation key's, docs/d3d9-rules.md#float-rules).
    pub float_rules: FloatRules,
    /// CPU side: where the approximate instructions' results lie ([`Skew`]; the runner's extra
    /// runs that measure how much a draw amplifies their error).
    pub skew: Skew,
    /// The draw is a point list: the GPU's vertex shader expands the points into quads.
    pub point_list: bool,
    /// Behind the fixed-function vertex stage: per texture stage, the component count of the
    /// coordinate set its TEXCOORDINDEX reads (0: not declared); `None` behind a vertex shader.
    /// A ps_1_1–ps_1_3 stage projected without a valid count divides by the last of them
    /// ([`crate::case::TransformFlags::divisor`]).
    pub ffp_texcoord_sizes: Option<[u8; 8]>,
}

#[cfg(test)]
impl<'a> StageContext<'a> {
    /// A D3D9 context with `textures` bound, a 4 × 4 target, no stage state, fog or alpha test.
    pub(crate) fn with_textures(textures: &'a [DecodedTexture], state: &'a RenderState) -> StageContext<'a> {
        StageContext {
            api: Api::D3d9,
            textures,
            stages: &[],
            target_size: (4, 4),
            state,
            fog: FogSource::Off,
            alpha_test: None,
            float_rules: FloatRules::Strict,
            skew: Skew::None,
            point_list: false,
            ffp_texcoord_sizes: None,
        }
    }
}

/// CPU execution of shaders (the interpreter).
pub trait ShaderCpu {
    /// A vertex stage running `program`.
    fn vertex<'a>(
        &'a self,
        program: &'a Program,
        constants: &'a ShaderConstants,
        ctx: StageContext<'a>,
    ) -> Result<Box<dyn VertexStage + 'a>, String>;
    /// A pixel stage running `program`. Fog and alpha test are the runner's (output merger).
    fn pixel<'a>(
        &'a self,
        program: &'a Program,
        constants: &'a ShaderConstants,
        ctx: StageContext<'a>,
    ) -> Result<Box<dyn PixelStage + 'a>, String>;
}

/// One translated stage, ready to draw.
#[derive(Debug)]
pub struct GpuStage {
    /// The module.
    pub module: naga::Module,
    /// Its entry point.
    pub entry: String,
    /// Vertex stage: where its outputs go; pixel stage: where its inputs come from.
    pub varyings: VaryingLayout,
    /// Buffer contents by (group, binding).
    pub buffers: Vec<((u32, u32), Vec<u8>)>,
    /// The textures the stage samples.
    pub textures: Vec<TextureSlot>,
    /// Pipeline-overridable constants (override delivery), by name.
    pub constants: Vec<(String, f64)>,
}

/// Where a stage samples one texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureSlot {
    /// (group, binding) of the texture view.
    pub texture: (u32, u32),
    /// (group, binding) of the sampler.
    pub sampler: (u32, u32),
    /// The texture stage (`s#`) whose texture goes there.
    pub stage: u32,
    /// The dimension the shader samples it as.
    pub kind: TextureDimension,
}

/// Translation of shaders for the GPU. The pixel stage applies fog and the alpha test itself
/// (through its key), as `ctx` says.
pub trait ShaderGpu {
    /// Translates a draw's shaders (either may be the fixed-function `None`).
    fn translate(
        &self,
        vs: Option<(&Program, &ShaderConstants)>,
        ps: Option<(&Program, &ShaderConstants)>,
        ctx: StageContext<'_>,
    ) -> Result<(Option<GpuStage>, Option<GpuStage>), String>;
}
