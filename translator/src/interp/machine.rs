//! The machine: the state of one invocation (or one quad of lanes), what a program has
//! prepared for every invocation, and the operand and sampling helpers every instruction family
//! uses. The families extend [`Machine`] in their own files (`operands.rs`, `control_flow.rs`,
//! `ps1x.rs`, `execute.rs`), which this file never imports.

use crate::bytecode::TextureDimension;
use crate::bytecode::{Instruction, Opcode, Profile, Program, RegisterType, TextureType, Usage, Version};

use super::arithmetic::Arith;
use super::flow::{lanes, Flow};
use super::quad;
use super::registers::{ConstFile, Defs, Lane};
use super::textures::{Lod, SampleRequest, TextureSampler};
use super::{Constants, InterpError, InterpErrorKind as K, Options};

/// Per-lane results of one instruction, written after every source of a co-issued pair is read:
/// (value, components the instruction itself limits the write to).
pub(super) type Writes = [Option<([f32; 4], u8)>; 4];

/// Per lane, the terms of the sum an instruction computes ([`super::registers::Lane::sums`]):
/// zeros where it computes none.
pub(super) type SumTerms = [[f32; 4]; 4];

/// What the interpreter derives from a program once, for every invocation.
#[derive(Debug)]
pub(super) struct Prepared {
    pub flow: Flow,
    pub defs: Defs,
    /// Declared sampler types (SM2+).
    pub sampler_types: [TextureDimension; 16],
    /// The `dcl` semantic of each vs_3_0 output register.
    pub semantics: [Option<(Usage, u8)>; 12],
}

impl Prepared {
    pub fn new(program: &Program) -> Result<Prepared, InterpError> {
        let mut sampler_types = [TextureDimension::Tex2D; 16];
        let mut semantics = [None; 12];
        for ins in program.iter() {
            let (Opcode::Dcl, Some(dst), Some(decl)) = (ins.opcode, ins.dst, ins.decl()) else { continue };
            let n = dst.reg.num as usize;
            match dst.reg.ty {
                RegisterType::Sampler if n < 16 => {
                    // Undeclared and 1D samplers read 2D textures.
                    sampler_types[n] = decl.texture_type().and_then(TextureType::dimension).unwrap_or_default()
                }
                RegisterType::Output if n < 12 => semantics[n] = decl.usage().map(|u| (u, decl.usage_index)),
                _ => {}
            }
        }
        Ok(Prepared { flow: Flow::parse(program)?, defs: Defs::new(program), sampler_types, semantics })
    }
}

/// The interpreter's state.
pub(super) struct Machine<'a> {
    pub program: &'a Program,
    pub version: Version,
    pub profile: &'static Profile,
    pub options: &'a Options,
    pub sampler: &'a dyn TextureSampler,
    pub prepared: &'a Prepared,
    pub consts: ConstFile<'a>,
    pub arith: Arith,
    pub lanes: Vec<Lane>,
    pub steps: u64,
    /// Lanes that returned from the current function.
    pub ret_mask: u8,
    /// Lanes that broke out of the innermost loop.
    pub brk_mask: u8,
    /// `aL` of each enclosing `loop`, innermost last.
    pub loop_stack: Vec<i32>,
    pub call_depth: usize,
}

impl<'a> Machine<'a> {
    pub fn new(
        program: &'a Program,
        prepared: &'a Prepared,
        constants: &'a Constants,
        options: &'a Options,
        sampler: &'a dyn TextureSampler,
        lane_count: usize,
    ) -> Machine<'a> {
        Machine {
            program,
            version: program.version,
            profile: program.version.profile(),
            options,
            sampler,
            prepared,
            consts: ConstFile::new(&prepared.defs, constants, program.version),
            arith: Arith { rules: options.float_rules, skew: options.skew },
            lanes: vec![Lane::new(); lane_count],
            steps: 0,
            ret_mask: 0,
            brk_mask: 0,
            loop_stack: Vec::new(),
            call_depth: 0,
        }
    }

    /// Runs main (its `ret`, if any, ends the program; the outputs are read afterwards).
    pub fn run(&mut self) -> Result<(), InterpError> {
        let flow = &self.prepared.flow;
        let all = ((1u16 << self.lanes.len()) - 1) as u8;
        self.run_block(flow, &flow.main, all)
    }

    pub(super) fn err(&self, at: usize, kind: K) -> InterpError {
        let offset = self.program.instructions.get(at).map_or(0, |i| i.offset);
        InterpError { instruction: at, offset, kind }
    }

    /// Source `i` of `ins` for `lane`.
    pub(super) fn src(&self, at: usize, ins: &Instruction, i: usize, lane: usize) -> Result<[f32; 4], InterpError> {
        let s = ins.src.get(i).ok_or_else(|| self.err(at, K::MissingOperand))?;
        self.read_src(lane, s).map_err(|k| self.err(at, k))
    }

    /// Source `i` for every lane of the quad (inactive lanes too: derivatives need them).
    pub(super) fn src_all(&self, at: usize, ins: &Instruction, i: usize) -> Result<Vec<[f32; 4]>, InterpError> {
        (0..self.lanes.len()).map(|l| self.src(at, ins, i, l)).collect()
    }

    /// Samples `stage` for every lane with coordinates `coords` (one per lane); the level of
    /// detail comes from `lod` or, when `None`, from the quad's derivatives of `coords`.
    pub(super) fn sample_quad(
        &self,
        stage: u32,
        ty: TextureDimension,
        coords: &[[f32; 4]],
        lod: impl Fn(usize) -> Option<Lod>,
        bias: impl Fn(usize) -> f32,
        mask: u8,
    ) -> [Option<[f32; 4]>; 4] {
        let mut out = [None; 4];
        for lane in lanes(mask) {
            let lod = lod(lane).unwrap_or_else(|| {
                let (dx, dy) = (quad::ddx(coords, lane), quad::ddy(coords, lane));
                Lod::Derivatives { ddx: [dx[0], dx[1], dx[2]], ddy: [dy[0], dy[1], dy[2]], bias: bias(lane) }
            });
            let request =
                SampleRequest { sampler: stage, vertex: self.version.is_vertex(), ty, coords: coords[lane], lod, lane };
            out[lane] = Some(self.sampler.sample(&request));
        }
        out
    }
}
