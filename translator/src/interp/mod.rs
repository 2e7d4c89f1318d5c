//! The CPU reference interpreter: executes a decoded [`Program`] exactly as Direct3D 9 defines it.
//!
//! This module is the project's oracle. It shares the [`crate::bytecode`] model with the
//! translator and nothing else: it never calls into `lower/`, so a fault in the lowering cannot
//! hide behind the same fault here.
//!
//! # Entry points
//!
//! [`Interpreter::new`] prepares a program once; its methods (or the free functions of the same
//! names, which prepare on every call) run it:
//!
//! - [`run_vertex`]: one vertex-shader invocation, [`VertexInput`] in, [`VertexOutput`] out.
//! - [`run_pixel_quad`]: one 2×2 pixel quad in lockstep (lanes 0 = top-left, 1 = top-right,
//!   2 = bottom-left, 3 = bottom-right), so that `dsx`/`dsy` and implicit texture levels of detail
//!   are defined; a `texkill` demotes its pixel (it keeps computing for its neighbours'
//!   derivatives) and reports [`PixelOutput::discarded`].
//!
//! All take the API state ([`Constants`]), the [`Options`] a translation key would carry, and a
//! [`TextureSampler`] (the caller's textures; [`ReferenceSampler`] is a complete implementation).
//! [`PixelInput::link`] and [`PixelInput::from_vertex`] feed a pixel shader from vertex outputs by
//! semantic, with D3D9's defaults for what the vertex shader did not write.
//!
//! # Rules (docs/d3d9-rules.md, docs/opcodes.md)
//!
//! - Float rules (the key's [`FloatRules`]: the translation's three modes, one type): `Strict`
//!   (default) makes `0 · x = 0` for every `x` (inf and NaN included) in every multiply: mul,
//!   mad, the dot products, the `m#x#` macros, lrp, dst, crs, nrm, lit and the ps_1_x bump and
//!   matrix maths. `Fast` multiplies plainly but clamps the results of rcp, rsq and log (logp,
//!   nrm's reciprocal length) to ±FLT_MAX, so an infinity never reaches a multiply. `Ieee` is plain
//!   IEEE arithmetic, log(0) = -inf included. In every mode: `rcp(+0) = +inf` and `rcp(-0) = -inf`
//!   (measured on Windows), `rsq` takes `|x|`, `log`/`logp` take `|x|` with `log(0) = -FLT_MAX`
//!   outside IEEE mode, `pow(a, b) = |a|^b` with `b = 0` giving 1 and a zero base giving `+inf`
//!   for `b < 0` and 0 for `b > 0` (the translation picks these by comparison: a driver may fuse
//!   its `exp2(b · log2|a|)` into a `pow` undefined at 0), and dot products are sums of
//!   separately rounded products.
//! - Scalar sources (rcp, rsq, exp, log, expp, logp, pow, sincos, dp2add's third source, the
//!   comparisons of `ifc`/`breakc`, `cnd` in ps_1_1–1_3) read the component that the swizzle's
//!   `.w` slot selects: that is the replicated component of `.x`/`.y`/`.z`/`.w`, and `.w` for a
//!   plain `.xyzw` source, as Windows does.
//! - `mov a0` in vs_1_x floors; `mova` rounds to nearest, halves away from zero (Windows was
//!   measured on ±0.4, ±1.6, ±2.4 only).
//! - Comparisons are ordered except `ne`, which is true when a NaN is involved. `min(a, b)` is
//!   `a < b ? a : b`, `max(a, b)` is `a >= b ? a : b`, `cmp` picks src1 for `-0`.
//! - Saturation (`_sat` and the clamped outputs) sends NaN and `-0` to `+0`, as D3D10-class
//!   hardware does (the reference leaves NaN unspecified).
//! - ps_1_x float constants (API and `def`) read clamped to [-1, 1]; `def` values win over API
//!   values, also through relative addressing; relative addressing out of range reads 0 (and a
//!   relative write out of range is dropped).
//! - Loops: `loop aL, i#` runs `min(i#.x, 255)` times from `aL = i#.y` in steps of `i#.z`; `rep`
//!   does not set `aL`. A `call` to a label the program does not define runs nothing. A hard
//!   step limit ([`Options::step_limit`]) ends any program.
//! - Outputs: before vs_3_0 `oD#` and `oFog` are saturated; `oDepth` is clamped to [0, 1]; in
//!   ps_1_x `r0` is the colour.
//! - ps_1_4 `phase` needs no action here: registers keep their values across it. ps_1_x
//!   temporaries are not clamped to a MaxPixelShaderValue range.
//! - Partial precision is computed at fp32.
//!
//! The ps_1_x texture stage state that Shader Model 1 does not declare (texture type, projection,
//! bump-environment matrix and luminance) comes from [`Options::stages`].

// The files in the order they build on each other (docs/architecture.md#no-circles): the data
// (io, options, error, registers, flow) at the bottom; `machine` holds the state that
// `operands`, `control_flow`, `ps1x` and `execute` (the dispatch) extend with `impl Machine`
// blocks, never imported back; this file prepares and runs a program on top.
mod approximation;
mod arithmetic;
mod control_flow;
mod error;
mod execute;
mod fetch4;
mod flow;
mod io;
mod machine;
mod operands;
mod options;
mod outputs;
mod ps1x;
mod quad;
mod reassociation;
mod registers;
mod textures;

#[cfg(test)]
mod tests;

use crate::bytecode::{Program, ShaderKind};
use crate::key::FloatRules;

use machine::{Machine, Prepared};

pub use approximation::Skew;
pub use error::{InterpError, InterpErrorKind, MAX_CALL_DEPTH, MAX_NESTING};
pub use io::{OutputRegister, PixelInput, PixelOutput, VertexInput, VertexOutput};
pub use options::{Constants, Options, StageState, TextureTransform, DEFAULT_STEP_LIMIT};
pub use textures::{
    from_argb8, AddressMode, Filter, Lod, MipFilter, ReferenceSampler, ReferenceTexture, SampleRequest, TextureSampler,
    UnboundSampler, UNBOUND,
};

/// A program prepared for execution: its flow-control tree, its own constants and declarations
/// are gathered once, so that running it many times (a GPU harness checking every pixel of a
/// draw) costs only the execution.
#[derive(Debug)]
pub struct Interpreter<'p> {
    program: &'p Program,
    prepared: Prepared,
}

impl<'p> Interpreter<'p> {
    /// Prepares `program`. Fails on flow control that does not nest (validation is not
    /// required, but the blocks must pair up).
    pub fn new(program: &'p Program) -> Result<Interpreter<'p>, InterpError> {
        Ok(Interpreter { program, prepared: Prepared::new(program)? })
    }

    /// The program.
    pub fn program(&self) -> &'p Program {
        self.program
    }

    /// Runs one vertex-shader invocation.
    pub fn run_vertex(
        &self,
        input: &VertexInput,
        constants: &Constants,
        options: &Options,
        sampler: &dyn TextureSampler,
    ) -> Result<VertexOutput, InterpError> {
        check_kind(self.program, ShaderKind::Vertex)?;
        let mut machine = Machine::new(self.program, &self.prepared, constants, options, sampler, 1);
        machine.lanes[0].load_vertex_input(input);
        machine.run()?;
        Ok(outputs::vertex_output(self.program, machine.arith, self.prepared.semantics, &machine.lanes[0]))
    }

    /// Runs one 2×2 quad of pixel-shader invocations in lockstep (lanes: top-left, top-right,
    /// bottom-left, bottom-right).
    pub fn run_pixel_quad(
        &self,
        inputs: &[PixelInput; 4],
        constants: &Constants,
        options: &Options,
        sampler: &dyn TextureSampler,
    ) -> Result<[PixelOutput; 4], InterpError> {
        check_kind(self.program, ShaderKind::Pixel)?;
        let mut machine = Machine::new(self.program, &self.prepared, constants, options, sampler, 4);
        for (lane, input) in machine.lanes.iter_mut().zip(inputs) {
            lane.load_pixel_input(input);
        }
        machine.run()?;
        Ok(std::array::from_fn(|i| outputs::pixel_output(self.program, machine.arith, &machine.lanes[i])))
    }

    /// Runs a pixel shader on one pixel: a quad of four equal inputs (zero derivatives), lane 0.
    pub fn run_pixel(
        &self,
        input: &PixelInput,
        constants: &Constants,
        options: &Options,
        sampler: &dyn TextureSampler,
    ) -> Result<PixelOutput, InterpError> {
        let inputs = [input.clone(), input.clone(), input.clone(), input.clone()];
        let [out, ..] = self.run_pixel_quad(&inputs, constants, options, sampler)?;
        Ok(out)
    }
}

/// Runs one vertex-shader invocation ([`Interpreter::run_vertex`] without keeping the preparation).
pub fn run_vertex(
    program: &Program,
    input: &VertexInput,
    constants: &Constants,
    options: &Options,
    sampler: &dyn TextureSampler,
) -> Result<VertexOutput, InterpError> {
    Interpreter::new(program)?.run_vertex(input, constants, options, sampler)
}

/// Runs one 2×2 quad of pixel-shader invocations ([`Interpreter::run_pixel_quad`]).
pub fn run_pixel_quad(
    program: &Program,
    inputs: &[PixelInput; 4],
    constants: &Constants,
    options: &Options,
    sampler: &dyn TextureSampler,
) -> Result<[PixelOutput; 4], InterpError> {
    Interpreter::new(program)?.run_pixel_quad(inputs, constants, options, sampler)
}

/// Runs a pixel shader on one pixel ([`Interpreter::run_pixel`]).
pub fn run_pixel(
    program: &Program,
    input: &PixelInput,
    constants: &Constants,
    options: &Options,
    sampler: &dyn TextureSampler,
) -> Result<PixelOutput, InterpError> {
    Interpreter::new(program)?.run_pixel(input, constants, options, sampler)
}

fn check_kind(program: &Program, expected: ShaderKind) -> Result<(), InterpError> {
    if program.version.kind != expected {
        return Err(InterpError {
            instruction: 0,
            offset: 0,
            kind: InterpErrorKind::WrongKind { expected, found: program.version.kind },
        });
    }
    Ok(())
}
