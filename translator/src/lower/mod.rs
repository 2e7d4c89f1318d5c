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
//!     pad: f32,                      //  44
//!     clip_planes: array<vec4<f32>, 8>, // 48  D3DTS clip planes in clip space
//!     bump_env: array<vec4<f32>, 8>,  // 176  per stage: BUMPENVMAT00, 01, 10, 11
//!     bump_luminance: array<vec4<f32>, 8>, // 304 per stage: BUMPENVLSCALE, BUMPENVLOFFSET, 0, 0
//!     projected: array<vec4<u32>, 2>, // 432 modes (uniform delivery): ps_1_x projection counts
//!     alpha_func: u32,               // 464  D3DCMPFUNC
//!     fog_mode: u32,                 // 468  0 none, 1 exp, 2 exp2, 3 linear, 4 vertex
//!     fog_source: u32,               // 472  0 z, 1 w
//!     clip_plane_mask: u32,          // 476  D3DRS_CLIPPLANEENABLE
//!     unbound_samplers: u32,         // 480  bit n: nothing bound to s n
//!     viewport_width: f32,           // 484  D3DVIEWPORT9 Width (point expansion)
//!     viewport_height: f32,          // 488  D3DVIEWPORT9 Height (point expansion)
//! }                                  // size 496
//! ```
//!
//! [`crate::key::state_block::RenderState::to_bytes`] writes these bytes; the modes are read only
//! under uniform delivery ([`crate::key::delivery`]).
//!
//! # Inputs and outputs
//!
//! Vertex inputs `v n` are at `@location(n)`. Vertex outputs and pixel inputs are placed by
//! semantic ([`io_map`] documents the default map; [`link`] computes a pair's map, see
//! [`crate::key::linkage`]). `oPos` is `@builtin(position) @invariant`; pixel outputs `oC n` are
//! `@location(n)`, `oDepth` is `@builtin(frag_depth)` clamped to [0, 1].
//!
//! # Inside
//!
//! This module is the front door: [`lower`] declares the resources, lowers the subroutines and
//! the main program instruction by instruction, and builds the entry point. The one dispatch
//! over opcodes is `Lowerer::instruction` here; it checks each instruction's operands once
//! against the opcode table's form (`operands.rs`: a typed [`LowerError`] naming the token
//! index) and hands a checked view to the handler of the opcode's family: flow control
//! (`control_flow.rs`), ps_1_x texture addressing (`sm1.rs`), sampling and texkill
//! (`textures.rs`), and arithmetic by the shape of its result — per component
//! (`componentwise.rs`), on one scalar (`scalar.rs`), dot products and matrices
//! (`dot_products.rs`), `lit`/`dst` (`lighting.rs`). Below them: source modifiers and
//! destination writes (`modifiers.rs`), registers as variables (`registers.rs`), constants
//! (`constants.rs`), the float rules (`arithmetic.rs`), values WGSL cannot take as literals
//! (`literals.rs`), the render-state epilogues (`epilogues.rs`, the fog factor in `fog.rs`), derivatives in control flow
//! (`uniformity.rs`) and the emit bookkeeping (`builder.rs`).

mod arithmetic;
mod builder;
mod chained;
mod componentwise;
mod constants;
mod control_flow;
mod dot_products;
mod epilogues;
mod error;
mod fog;
mod interface;
mod interval;
pub mod io_map;
mod layout;
mod lighting;
mod literals;
mod modifiers;
mod multiply_rule;
mod operands;
mod parts;
mod point_expansion;
mod reg_values;
mod registers;
mod render_state;
mod scalar;
mod scoped;
mod sm1;
mod state;
mod textures;
mod types;
mod uniformity;
mod value_range;
mod values;
mod vertex_input;

use naga::{Handle, Module};

use crate::analysis::Signature;
use crate::bytecode::{Instruction, Opcode, Program, RegisterType, ShaderKind, Version, VersionId};
use crate::key::ShaderKey;

pub use crate::key::linkage::{link, LinkSlot, Linkage};
pub use error::{LowerError, OperandPosition};
pub use interface::{Builtin, InterfaceMap, InterfaceSlot};
pub use layout::{
    sampler_binding, texture_binding, BindingLayout, FloatConstantsBinding, TextureBinding, BOOL_CONSTANTS_BINDING,
    FLOAT_CONSTANTS_BINDING, FLOAT_CONSTANTS_HIGH_BINDING, FLOAT_CONSTANTS_PAGE, INT_BOOL_CONSTANTS,
    INT_CONSTANTS_BINDING, PIXEL_FLOAT_CONSTANTS, PIXEL_GROUP, RENDER_STATE_BINDING, RENDER_STATE_SIZE,
    SW_FLOAT_CONSTANTS, SW_INT_BOOL_CONSTANTS, VERTEX_FLOAT_CONSTANTS, VERTEX_GROUP,
};

pub(crate) use builder::FastMap;
use builder::FnBuilder;
use operands::Op;
use state::{ConstantGlobals, Expr, Frame, Registers, SamplerGlobals, Var};
use types::Types;

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
    /// The version's id, found once: every instruction's form is looked up by it.
    pub version_id: Option<VersionId>,
    pub module: Module,
    pub t: Types,
    /// The function being built.
    pub fb: FnBuilder,
    pub regs: Registers,
    /// Registers are module-private globals (subroutines or early return).
    pub globals_mode: bool,
    pub consts: ConstantGlobals,
    pub samplers: FastMap<u16, SamplerGlobals>,
    /// Subroutine functions by label.
    pub functions: FastMap<u16, Handle<naga::Function>>,
    /// The strict multiply rule's functions for scalars and `vec4`s, once needed.
    pub rule_functions: [Option<Handle<naga::Function>>; 2],
    /// Module constants holding `vec4<f32>` values, by bit pattern.
    pub vec_constants: FastMap<[u32; 4], Handle<naga::Constant>>,
    /// Module constants of write masks as `vec4<bool>`, by mask.
    pub mask_constants: [Option<Handle<naga::Constant>>; 16],
    /// Private variables holding the bits of values WGSL cannot take as literals (see
    /// [`literals`]), by bit pattern (one component: a scalar).
    pub specials: Vec<(Vec<u32>, Handle<naga::GlobalVariable>)>,
    pub layout: BindingLayout,
    pub interface: InterfaceMap,
    /// The instruction being lowered (its token index names errors).
    pub offset: u32,
    /// Open control-flow constructs.
    pub flow: Vec<Frame>,
    /// The deferred-kill flag, once texkill appears.
    pub killed: Option<Var>,
    /// Read-only registers whose value is an expression valid in the whole entry function.
    pub fixed: FastMap<(crate::bytecode::RegisterType, u16), Expr>,
    /// ps_1_x: the texture coordinate sets as interpolated (before any t# write).
    pub texcoords: FastMap<u16, Expr>,
    /// Co-issue: the values the second instruction of a pair reads (from before the pair).
    pub snapshot: Option<FastMap<(crate::bytecode::RegisterType, u16), Expr>>,
    /// The point-coordinate argument (point sprites), once needed.
    pub point_coord: Option<Expr>,
    /// The fragment-position argument, once needed.
    pub frag_coord: Option<Expr>,
    /// The interpolated fog factor, once needed.
    pub fog_input: Option<Expr>,
}

impl<'a> Lowerer<'a> {
    fn new(program: &'a Program, sig: &'a Signature, key: &'a ShaderKey) -> Self {
        let mut module = Module::default();
        let t = Types::new(&mut module);
        let vec4f = t.vec4f;
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
            version_id: program.version.id(),
            module,
            t,
            fb: FnBuilder::new("entry", vec4f, if globals_mode { 0 } else { program.len() }),
            regs: Registers::default(),
            globals_mode,
            consts: ConstantGlobals::default(),
            // Sized from the signature: grown from empty, each map was rehashed (an allocation)
            // as its entries arrived.
            samplers: FastMap::with_capacity_and_hasher(sig.samplers.len(), Default::default()),
            functions: FastMap::default(),
            rule_functions: [None; 2],
            vec_constants: FastMap::default(),
            mask_constants: [None; 16],
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
            fixed: FastMap::with_capacity_and_hasher(
                if globals_mode { 0 } else { sig.inputs.len() },
                Default::default(),
            ),
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
            let mut fb = FnBuilder::new("d3d9_main", self.t.vec4f, end);
            std::mem::swap(&mut self.fb, &mut fb);
            self.lower_range(0, end)?;
            self.sync_values();
            std::mem::swap(&mut self.fb, &mut fb);
            let main = self.module.functions.append(fb.finish(), naga::Span::UNDEFINED);
            self.build_entry(Some(main))
        } else {
            self.build_entry(None)
        }
    }

    /// Lowers instructions `start..end` into the current function.
    pub fn lower_range(&mut self, start: usize, end: usize) -> Result<(), LowerError> {
        let depth = self.flow.len();
        let mut pending = None;
        let outer_span = self.fb.span;
        for i in start..end.min(self.program.len()) {
            let program = self.program;
            let inst = &program[i];
            self.offset = inst.offset;
            self.fb.span = builder::token_span(inst.offset);
            // A co-issued pair (ps_1_x `+`) reads the values from before the pair: the second
            // instruction's sources are read before the first one runs. A flag on an instruction
            // after flow control pairs with nothing (lenient mode lets the flag through outside
            // ps_1_x; the fuzzer's `endloop` / `+mov oC0, r0` read values from inside the loop's
            // scope).
            let pairs = !inst.opcode.info().flow_control;
            if let Some(next) = program.get(i + 1).filter(|n| pairs && n.coissue && i + 1 < end) {
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
            self.instruction(inst)?;
            self.snapshot = None;
        }
        self.fb.span = outer_span;
        if self.flow.len() != depth {
            return Err(self.invalid("a control-flow block is not closed"));
        }
        Ok(())
    }

    /// Lowers one instruction: the one dispatch over opcodes. Declarations and definitions were
    /// read by the analysis; every other instruction's operands are checked here, once, against
    /// its form ([`Op::check`]), and each family of opcodes has its handler.
    fn instruction(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        use Opcode as O;
        if inst.opcode.info().declaration || matches!(inst.opcode, O::Nop | O::Phase) {
            return Ok(());
        }
        let op = Op::check(inst, self.version_id, self.version)?;
        let op = &op;
        match inst.opcode {
            // Flow control (control_flow.rs).
            O::If => self.open_if(op),
            O::Ifc => self.open_ifc(op),
            O::Else => self.else_branch(),
            O::EndIf => self.close_if(),
            O::Loop | O::Rep => self.open_loop(op),
            O::EndLoop | O::EndRep => self.close_loop(inst.opcode == O::EndLoop),
            O::Break | O::BreakC | O::BreakP => self.break_op(op),
            O::Call | O::CallNz => self.call(op),
            O::Ret => self.ret(),
            O::Label => Err(self.invalid("label inside a function body")),
            O::Setp => self.setp(op),
            // ps_1_0–ps_1_4 texture addressing, the instructions of a texture stage (sm1.rs).
            _ if inst.opcode.info().stage_op && self.version.profile().ps_1_x => self.sm1_texture_op(op),
            // Sampling and texkill (textures.rs).
            O::Tex | O::TexLdl | O::TexLdd => self.texld(op),
            O::TexKill => self.texkill(op),
            // Arithmetic, by the shape of the result.
            O::Mov
            | O::Mova
            | O::Add
            | O::Sub
            | O::Mul
            | O::Mad
            | O::Lrp
            | O::Min
            | O::Max
            | O::Slt
            | O::Sge
            | O::Frc
            | O::Abs
            | O::Sgn
            | O::Cmp
            | O::Cnd
            | O::Dsx
            | O::Dsy => self.componentwise(op),
            O::Rcp | O::Rsq | O::Exp | O::Log | O::ExpP | O::LogP | O::Pow | O::SinCos => self.scalar_op(op),
            O::Dp3 | O::Dp4 | O::Dp2Add | O::Nrm | O::Crs => self.dot_product(op),
            _ if inst.opcode.info().matrix.is_some() => self.matrix_product(op),
            O::Lit | O::Dst => self.lighting(op),
            other => Err(self.unsupported(format!("{other:?}"))),
        }
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
