//! Program + [`ShaderKey`] → `naga::Module`.
//!
//! # The module it builds
//!
//! One entry point, `vs_main` or `ps_main`. D3D9 registers are variables (function locals; or
//! module-private globals when the program has subroutines or returns early, so that the
//! subroutines — naga functions — and the epilogue see them). Every value is a `vec4<f32>`
//! except `p0` (`vec4<bool>`) and `aL` (`i32`); `a0` holds its integer values as floats.
//!
//! # Binding layout
//!
//! Vertex shaders use bind group **0**, pixel shaders bind group **1**, so that a pair shares one
//! pipeline layout. Within the group (only the bindings the program uses exist; see
//! [`BindingLayout`]):
//!
//! | binding | contents |
//! |---:|---|
//! | 0 | float constants `c#`: `var<uniform> array<vec4<f32>, N>` with N = 256 (vertex) or 224 (pixel); for the `_sw` versions and `ShaderKey::swvp`, when a read may reach past that array (relative addressing or a higher index), N = 4096: registers 0–4095. Register n at byte 16·n. |
//! | 1 | integer constants `i#`: `var<uniform> array<vec4<i32>, N>`, N = 16 (2048 in the `_sw` versions). |
//! | 2 | boolean constants `b#`: `var<uniform> array<vec4<u32>, N / 4>`, N = 16 (2048 in the `_sw` versions); b n is component n % 4 of element n / 4 (0 = false). |
//! | 3 | render state: `var<uniform> RenderState` (below), when the key needs it. |
//! | 4 | float constants `c4096`–`c8191` of the `_sw` versions and `ShaderKey::swvp` (with binding 0 at N = 4096): `var<uniform> array<vec4<f32>, 4096>`, register 4096 + n at byte 16·n. |
//! | 16 + 2n | texture of sampler `s n` (`texture_2d<f32>`, `texture_cube<f32>`, `texture_3d<f32>`, or `texture_depth_2d`/`texture_depth_cube` for shadow samplers). |
//! | 17 + 2n | sampler of `s n` (`sampler`, or `sampler_comparison` for shadow samplers). |
//!
//! `def`/`defi`/`defb` values are baked into the code and win over the buffers, also through
//! relative addressing. A relative read outside `0..N` returns 0.
//!
//! ```text
//! struct RenderState {               // offset
//!     fog_color: vec4<f32>,          //   0  D3DRS_FOGCOLOR as RGBA floats
//!     fog_start: f32,                //  16  D3DRS_FOGSTART
//!     fog_end: f32,                  //  20  D3DRS_FOGEND
//!     fog_density: f32,              //  24  D3DRS_FOGDENSITY
//!     alpha_ref: f32,                //  28  D3DRS_ALPHAREF / 255
//!     point_size: f32,               //  32  D3DRS_POINTSIZE
//!     point_size_min: f32,           //  36  D3DRS_POINTSIZE_MIN
//!     point_size_max: f32,           //  40  D3DRS_POINTSIZE_MAX
//!     _pad: f32,                     //  44
//!     clip_planes: array<vec4<f32>, 8>, // 48  D3DTS clip planes in clip space
//!     bump_env: array<vec4<f32>, 8>,  // 176  per stage: BUMPENVMAT00, 01, 10, 11
//!     bump_luminance: array<vec4<f32>, 8>, // 304 per stage: BUMPENVLSCALE, BUMPENVLOFFSET, 0, 0
//! }                                  // size 432
//! ```
//!
//! # Inputs and outputs
//!
//! Vertex inputs `v n` are at `@location(n)`. Vertex outputs and pixel inputs are placed by
//! semantic ([`io_map`] documents the default map; [`link`] computes a pair's map). `oPos` is
//! `@builtin(position) @invariant`; pixel outputs `oC n` are `@location(n)`, `oDepth` is
//! `@builtin(frag_depth)` clamped to [0, 1].

mod arithmetic;
mod builder;
mod constants;
mod control_flow;
mod epilogues;
mod error;
pub mod io_map;
mod literals;
mod modifiers;
mod registers;
mod sm1;
mod textures;
mod types;
mod uniformity;

use builder::FastMap;

use naga::{Handle, Module};

use crate::analysis::Signature;
use crate::bytecode::{Program, RegisterType, ShaderKind, TextureType, Version};
use crate::key::ShaderKey;

pub use error::LowerError;
pub use io_map::{link, InterfaceMap, InterfaceSlot, LinkSlot, Linkage};

use builder::FnBuilder;
use registers::Registers;
use types::Types;

/// Bind group of vertex shader resources.
pub const VERTEX_GROUP: u32 = 0;
/// Bind group of pixel shader resources.
pub const PIXEL_GROUP: u32 = 1;
/// Binding of the float constants.
pub const FLOAT_CONSTANTS_BINDING: u32 = 0;
/// Binding of the integer constants.
pub const INT_CONSTANTS_BINDING: u32 = 1;
/// Binding of the boolean constants.
pub const BOOL_CONSTANTS_BINDING: u32 = 2;
/// Binding of the render-state block.
pub const RENDER_STATE_BINDING: u32 = 3;
/// Size in bytes of the render-state block.
pub const RENDER_STATE_SIZE: u32 = 432;

/// Binding of sampler `n`'s texture.
pub const fn texture_binding(n: u32) -> u32 {
    16 + 2 * n
}

/// Binding of sampler `n`'s sampler.
pub const fn sampler_binding(n: u32) -> u32 {
    17 + 2 * n
}

/// Float constant registers of a vertex shader's uniform buffer.
pub const VERTEX_FLOAT_CONSTANTS: u32 = 256;
/// Float constant registers of a pixel shader's uniform buffer.
pub const PIXEL_FLOAT_CONSTANTS: u32 = 224;
/// Float constant registers of the `_sw` versions and software vertex processing.
pub const SW_FLOAT_CONSTANTS: u32 = 8192;
/// Integer (`i#`) and boolean (`b#`) constant registers of each kind.
pub const INT_BOOL_CONSTANTS: u32 = 16;
/// Integer and boolean constant registers of each kind in the `_sw` versions.
pub const SW_INT_BOOL_CONSTANTS: u32 = 2048;
/// Float constant registers in one uniform binding: 64 KiB, the binding size every WebGPU and
/// Vulkan implementation must allow.
pub const FLOAT_CONSTANTS_PAGE: u32 = 4096;
/// Binding of the float constants from [`FLOAT_CONSTANTS_PAGE`] on (the `_sw` versions).
pub const FLOAT_CONSTANTS_HIGH_BINDING: u32 = 4;

/// The float-constant binding of a translation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct FloatConstantsBinding {
    /// Binding number (always [`FLOAT_CONSTANTS_BINDING`]).
    pub binding: u32,
    /// Registers in all: the array at `binding` holds the first `count.min(FLOAT_CONSTANTS_PAGE)`.
    pub count: u32,
    /// The binding of the registers from [`FLOAT_CONSTANTS_PAGE`] to `count` (a second uniform
    /// array), when `count` exceeds one page: the 8192 registers of the `_sw` versions and
    /// software vertex processing.
    pub high_binding: Option<u32>,
}

/// One sampler's texture and sampler bindings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TextureBinding {
    /// `s#` number.
    pub sampler: u16,
    /// Binding of the texture.
    pub texture_binding: u32,
    /// Binding of the sampler.
    pub sampler_binding: u32,
    /// Texture dimension.
    #[serde(serialize_with = "serialize_texture_type")]
    pub texture_type: TextureType,
    /// A depth texture with a comparison sampler.
    pub shadow: bool,
}

fn serialize_texture_type<S: serde::Serializer>(t: &TextureType, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(t.name())
}

/// What the caller must bind for a translation (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct BindingLayout {
    /// The bind group ([`VERTEX_GROUP`] or [`PIXEL_GROUP`]).
    pub group: u32,
    /// Float constants, if read from a buffer.
    pub float_constants: Option<FloatConstantsBinding>,
    /// Integer constants binding, if read from the buffer.
    pub int_constants: Option<u32>,
    /// Boolean constants binding, if read from the buffer.
    pub bool_constants: Option<u32>,
    /// Render-state block binding, if the key needs it.
    pub render_state: Option<u32>,
    /// Textures and samplers, by sampler number.
    pub textures: Vec<TextureBinding>,
}

/// A lowered program.
#[derive(Debug)]
pub struct Lowered {
    /// The module (not yet validated).
    pub module: Module,
    /// The resources to bind.
    pub layout: BindingLayout,
    /// Where each input and output went.
    pub interface: InterfaceMap,
}

/// Lowers `program` (with its signature from [`crate::analysis::analyse`]) under `key`.
///
/// Errors name the instruction's token index; the function never panics on odd programs.
pub fn lower(program: &Program, sig: &Signature, key: &ShaderKey) -> Result<Lowered, LowerError> {
    let mut l = Lowerer::new(program, sig, key);
    l.run()?;
    uniformity::allow_divergent_derivatives(&mut l.module);
    Ok(Lowered { module: l.module, layout: l.layout, interface: l.interface })
}

/// The state of one lowering.
pub(crate) struct Lowerer<'a> {
    pub program: &'a Program,
    pub sig: &'a Signature,
    pub key: &'a ShaderKey,
    pub version: Version,
    pub module: Module,
    pub t: Types,
    /// The function being built.
    pub fb: FnBuilder,
    pub regs: Registers,
    /// Registers are module-private globals (subroutines or early return).
    pub globals_mode: bool,
    pub consts: constants::ConstantGlobals,
    pub samplers: FastMap<u16, textures::SamplerGlobals>,
    /// Subroutine functions by label.
    pub functions: FastMap<u16, Handle<naga::Function>>,
    /// Module constants holding `vec4<f32>` values, by bit pattern.
    pub vec_constants: FastMap<[u32; 4], Handle<naga::Constant>>,
    /// Module constants of write masks as `vec4<bool>`.
    pub mask_constants: FastMap<u8, Handle<naga::Constant>>,
    /// Private variables holding the bits of values WGSL cannot take as literals (see
    /// [`literals`]), by bit pattern (one component: a scalar).
    pub specials: Vec<(Vec<u32>, Handle<naga::GlobalVariable>)>,
    pub layout: BindingLayout,
    pub interface: InterfaceMap,
    /// The instruction being lowered (its token index names errors).
    pub offset: u32,
    /// Open control-flow constructs.
    pub flow: Vec<control_flow::Frame>,
    /// The deferred-kill flag, once texkill appears.
    pub killed: Option<registers::Var>,
    /// Read-only registers whose value is an expression valid in the whole entry function.
    pub fixed: FastMap<(crate::bytecode::RegisterType, u16), registers::Expr>,
    /// ps_1_x: the texture coordinate sets as interpolated (before any t# write).
    pub texcoords: FastMap<u16, registers::Expr>,
    /// Co-issue: the values the second instruction of a pair reads (from before the pair).
    pub snapshot: Option<FastMap<(crate::bytecode::RegisterType, u16), registers::Expr>>,
    /// The point-coordinate argument (point sprites), once needed.
    pub point_coord: Option<registers::Expr>,
    /// The fragment-position argument, once needed.
    pub frag_coord: Option<registers::Expr>,
    /// The interpolated fog factor, once needed.
    pub fog_input: Option<registers::Expr>,
}

impl<'a> Lowerer<'a> {
    fn new(program: &'a Program, sig: &'a Signature, key: &'a ShaderKey) -> Self {
        let mut module = Module::default();
        let t = Types::new(&mut module);
        let globals_mode = !sig.labels.is_empty() || sig.features.early_return;
        let group = match program.version.kind {
            ShaderKind::Vertex => VERTEX_GROUP,
            ShaderKind::Pixel => PIXEL_GROUP,
        };
        Lowerer {
            program,
            sig,
            key,
            version: program.version,
            module,
            t,
            fb: FnBuilder::new("entry"),
            regs: Registers::default(),
            globals_mode,
            consts: constants::ConstantGlobals::default(),
            samplers: FastMap::default(),
            functions: FastMap::default(),
            vec_constants: FastMap::default(),
            mask_constants: FastMap::default(),
            specials: Vec::new(),
            layout: BindingLayout { group, ..BindingLayout::default() },
            interface: InterfaceMap::default(),
            offset: 0,
            flow: Vec::new(),
            killed: None,
            frag_coord: None,
            point_coord: None,
            texcoords: FastMap::default(),
            snapshot: None,
            fixed: FastMap::default(),
            fog_input: None,
        }
    }

    pub fn is_pixel(&self) -> bool {
        self.version.kind == ShaderKind::Pixel
    }

    fn run(&mut self) -> Result<(), LowerError> {
        self.declare_resources()?;
        self.declare_arrays();
        if self.globals_mode {
            self.lower_subroutines()?;
            let end = self.sig.main_end;
            let mut fb = FnBuilder::new("d3d9_main");
            std::mem::swap(&mut self.fb, &mut fb);
            self.lower_range(0, end, None)?;
            std::mem::swap(&mut self.fb, &mut fb);
            let main = self.module.functions.append(fb.finish(), naga::Span::UNDEFINED);
            self.build_entry(Some(main))
        } else {
            self.build_entry(None)
        }
    }

    /// Lowers instructions `start..end` into the current function.
    pub fn lower_range(&mut self, start: usize, end: usize, label: Option<u16>) -> Result<(), LowerError> {
        let depth = self.flow.len();
        let mut pending = None;
        for i in start..end.min(self.program.len()) {
            let inst = self.program[i];
            self.offset = inst.offset;
            // A co-issued pair (ps_1_x `+`) reads the values from before the pair: the second
            // instruction's sources are read before the first one runs. A flag on an instruction
            // after flow control pairs with nothing (lenient mode lets the flag through outside
            // ps_1_x; the fuzzer's `endloop` / `+mov oC0, r0` read values from inside the loop's
            // scope).
            let pairs = !inst.opcode.info().flow_control;
            if let Some(next) = self.program.get(i + 1).filter(|n| pairs && n.coissue && i + 1 < end) {
                let mut values = FastMap::default();
                for s in next.src.iter().filter(|s| s.relative.is_none()) {
                    if matches!(s.reg.ty, RegisterType::Temp | RegisterType::Texture | RegisterType::Input) {
                        let v = self.reg_value(s.reg)?;
                        values.insert((s.reg.ty, s.reg.num), v);
                    }
                }
                pending = Some(values);
            }
            if inst.coissue {
                self.snapshot = pending.take();
            }
            self.instruction(&inst, label)?;
            self.snapshot = None;
        }
        if self.flow.len() != depth {
            return Err(self.invalid("a control-flow block is not closed"));
        }
        Ok(())
    }

    /// An "invalid program" error at the current instruction.
    pub fn invalid(&self, what: impl Into<String>) -> LowerError {
        LowerError::Invalid { offset: self.offset, what: what.into() }
    }

    /// An "unsupported" error at the current instruction.
    pub fn unsupported(&self, what: impl Into<String>) -> LowerError {
        LowerError::Unsupported { offset: self.offset, what: what.into() }
    }
}

#[cfg(test)]
mod tests;
